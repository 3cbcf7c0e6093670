"""The rules document (docs/REGLAS.md): its page at /reglas/ and the links of articles into it."""

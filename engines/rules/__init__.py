"""The rules engine of Cuarenta: plain Python, no Django.

``replay(header, claims)`` decides a mesa's whole claim log (see
``referee``); ``parse_claim`` checks one claim's shape (see ``claims``);
``Header`` says what the log starts from (see ``state``).
"""

from .claims import KINDS, ClaimError, parse_claim
from .referee import replay
from .state import SEATS, Decision, Header, Replay, State

__all__ = ["KINDS", "SEATS", "ClaimError", "Decision", "Header", "Replay", "State", "parse_claim", "replay"]

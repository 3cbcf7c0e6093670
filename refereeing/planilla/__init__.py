"""The Planilla de Juego: a mesa's score sheet as a PDF, made from its claim log.

- ``sheet``: what the planilla says (rows, chicas, signatures, the
  verification code), built from the claim log's replay.
- ``pdf``: WeasyPrint, with nothing fetched from the network.
- ``batch``: a round or a championship printed as one PDF, in the background.
- ``views``: the PDF of a mesa, the batch pages, the public verification page.
- ``urls_juez`` (the mesa's PDF), ``urls_organiser`` (printing in batches),
  ``urls_public`` (verification): under ``/planilla/`` (namespace ``planilla``).
"""

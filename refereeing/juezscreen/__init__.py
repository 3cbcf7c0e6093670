"""The juez's screen: the list of a juez's mesas and the tablet page of one.

- ``views``: the two pages (thin: who may see the mesa, and what the page
  needs to draw itself before the API's first answer).
- ``urls_juez``: their URLs, under ``/mesa/`` (namespace ``refereeing``).
"""

"""The API's one shape of an error (``config.refusals``), as the tests expect it."""

FIELDS = {"code", "message", "article", "status", "detail"}


def refusal(message, code, status, article=None):
    """The JSON of a refusal: ``message`` twice (``detail`` is DRF's name for it, which the tablet reads)."""
    return {"code": code, "message": message, "article": article, "status": status, "detail": message}

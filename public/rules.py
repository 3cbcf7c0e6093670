"""The rules page, /reglas/: the rules document (``refereeing.rulebook.document``) as a page of the site, for everyone."""

from django.shortcuts import render
from django.utils.safestring import mark_safe

from refereeing.rulebook.document import document_html
from tournament.policy import READ_PUBLIC, allowed


@allowed(READ_PUBLIC)
def rules(request):
    # The document is the project's own, in the repository: its HTML is trusted.
    return render(request, "rules.html", {"document": mark_safe(document_html())})

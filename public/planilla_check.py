"""Checking a printed planilla against the database, for anyone (``planilla:verify``): the code is the
planilla's own (``refereeing.planilla.verification``)."""

from django.conf import settings
from django.shortcuts import redirect, render
from django.utils import translation
from django.views.decorators.http import require_safe

from mirror import codes as mirror_codes
from refereeing.planilla import sheet as planilla
from refereeing.planilla import verification
from tournament.policy import READ_PUBLIC, allowed


@require_safe
@allowed(READ_PUBLIC)
def verify_form(request):
    """Where the desk types a code read off a printed planilla."""
    code = request.GET.get("codigo", "").strip()
    if code:
        return redirect("planilla:verify", code=verification.normalise_code(code)[:40] or "-")
    return render(request, "planilla/verify.html", {"mesa": None, "asked": False})


@require_safe
@allowed(READ_PUBLIC)
def verify(request, code):
    # A mirror has neither the key nor the record's private parts: it checks the digests the venue publishes.
    mesa = mirror_codes.mesa_for_code(code) if settings.MIRROR else verification.mesa_for_code(code)
    context = {"code": code, "asked": True, "mesa": mesa}
    if mesa is None:
        return render(request, "planilla/verify.html", context, status=404)
    checked = verification.parsed_code(code) if settings.MIRROR else None
    base_url = request.build_absolute_uri("/").rstrip("/")
    context["sheet"] = planilla.build(mesa, base_url, translation.get_language(), code=checked)
    return render(request, "planilla/verify.html", context)

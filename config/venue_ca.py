"""/ca.crt: the venue's certificate authority, for a tablet to trust once (README, "HTTPS at the venue").

Public: it is a certificate, no secret, and a tablet fetches it before
anyone signs in on it. The type is the one Android and iOS offer to
install; 404 until ``manage.py venue_certificate`` has made it.
"""

from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_safe

from config.venue_tls import FILES


@require_safe
def ca_certificate(request):
    try:
        pem = (settings.TLS_DIR / FILES["ca"]).read_bytes()
    except OSError:
        raise Http404 from None
    response = HttpResponse(pem, content_type="application/x-x509-ca-cert")
    response["Content-Disposition"] = 'attachment; filename="mesa-de-control-ca.crt"'
    return response

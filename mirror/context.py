from django.conf import settings


def mirror(request):
    """Whether this is a mirror: its pages offer no sign-in and say where the hall's data comes from."""
    return {"mirror": settings.MIRROR}

"""Who may do what in the tournament's screens.

Organisers are active staff users with the ``tournament.run_championship``
permission (the "Organizadores" group has it). They do everything except
overriding a blocked result correction, which is the Director's alone
(``championship.director``, Art. 18). The Comité's administrator (a
superuser) makes the organisers' and Directors' accounts. Anyone may view the public bracket and
standings. Anonymous visitors of an organiser's page are sent to log in; a
logged-in user who is not an organiser gets 403.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from .models import Championship


def is_organiser(user):
    return user.is_active and user.is_staff and user.has_perm("tournament.run_championship")


def is_committee(user):
    """The Comité's administrator: makes the organisers' and Directors' accounts."""
    return user.is_active and user.is_superuser


def committee_required(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_committee(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper


def is_director(user, championship):
    return user.is_authenticated and championship.director_id is not None and championship.director_id == user.pk


def directs_a_championship(user):
    return user.is_authenticated and Championship.objects.filter(director=user).exists()


def organiser_required(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_organiser(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper

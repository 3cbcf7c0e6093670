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


def required(allowed):
    """A view decorator: a visitor signs in first; then only a user ``allowed(user)`` passes (403 else)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not allowed(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


committee_required = required(is_committee)


def is_director(user, championship):
    """The one answer to "is this user the championship's Director" (Art. 18)."""
    return user.is_authenticated and user.is_active and championship.director_id == user.pk


def directed(user):
    """The championships ``user`` directs (none for a stranger or a disabled account)."""
    if not (user.is_authenticated and user.is_active):
        return Championship.objects.none()
    return Championship.objects.filter(director=user)


def oversees(user, championship):
    """Organisers, and the championship's own Director, read and print all of it."""
    return is_organiser(user) or is_director(user, championship)


def overseen(user):
    """The championships :func:`oversees` lets ``user`` read, as a queryset."""
    if is_organiser(user):
        return Championship.objects.all()
    return directed(user)


organiser_required = required(is_organiser)

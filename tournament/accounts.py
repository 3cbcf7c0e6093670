"""The jueces' pool and the organisers' group: who may referee and who runs championships.

Terms
-----
juez
    A user in the ``Jueces`` group; an active one can be given a table.
organiser
    A user in the ``Organizadores`` group: draws, tables, results.
juez account
    A juez who is neither staff nor an administrator: the accounts an
    organiser may manage, so that no organiser sets another organiser's
    password.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils.translation import gettext as _

from .errors import ActionRefused
from .models import Mesa
from .naming import mesa_label, person_name

JUECES_GROUP = "Jueces"
ORGANISERS_GROUP = "Organizadores"


def jueces():
    """The active jueces: the pool the tables get their referee from."""
    return get_user_model().objects.filter(groups__name=JUECES_GROUP, is_active=True).order_by("pk")


def juez_accounts():
    """The juez accounts an organiser may manage (see the terms above)."""
    return (
        get_user_model().objects.filter(groups__name=JUECES_GROUP, is_staff=False, is_superuser=False)
        .order_by("first_name", "last_name", "username")
    )


def make_juez(user):
    """Put ``user`` in the jueces' pool."""
    group, _created = Group.objects.get_or_create(name=JUECES_GROUP)
    user.groups.add(group)


def set_juez_active(juez, active):
    """Let a juez sign in again, or no longer (a juez who leaves the championship).

    Refused while the juez still has a mesa that is not decided: the
    organiser gives it to another juez first, so that no table is left with
    a juez who cannot sign in.
    """
    if not active:
        held = Mesa.objects.filter(juez=juez, status__in=Mesa.UNDECIDED).order_by("championship", "round", "position")
        if held:
            raise ActionRefused(
                _("%(name)s is still the juez of %(mesas)s; give it to another juez first.")
                % {"name": person_name(juez),
                   "mesas": ", ".join(mesa_label(m) for m in held)},
                held,
            )
    juez.is_active = active
    juez.save(update_fields=["is_active"])

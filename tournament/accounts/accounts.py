"""The jueces' pool and the organisers' group: who may referee and who runs championships.

Terms
-----
juez
    A user in the ``Jueces`` group; an active one can be given a table.
organiser
    A staff user in the ``Organizadores`` group: draws, tables, results.
Director
    A user in the ``Directores`` group: the one a championship names as its
    Director (appeals, resolutions, overrides: Art. 17-18) is chosen among
    them.
Comité administrator
    A superuser: makes the organisers' and Directors' accounts (the
    organisers make the jueces').
juez account
    A juez who is neither staff nor an administrator: the accounts an
    organiser may manage, so that no organiser sets another organiser's
    password.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils.translation import gettext as _

from audit.context import acting
from tournament.errors import ActionRefused
from tournament.models import Mesa
from tournament.naming import mesa_label, person_name

JUECES_GROUP = "Jueces"
ORGANISERS_GROUP = "Organizadores"
DIRECTORS_GROUP = "Directores"
ROLES = ("organiser", "director")


def jueces():
    """The active jueces: the pool the tables get their referee from."""
    return get_user_model().objects.filter(groups__name=JUECES_GROUP, is_active=True).order_by("pk")


def juez_accounts():
    """The juez accounts an organiser may manage (see the terms above)."""
    return (
        get_user_model()
        .objects.filter(groups__name=JUECES_GROUP, is_staff=False, is_superuser=False)
        .order_by("first_name", "last_name", "username")
    )


def directors():
    """The active Directors, by name: those a championship may name."""
    return (
        get_user_model()
        .objects.filter(groups__name=DIRECTORS_GROUP, is_active=True)
        .order_by("first_name", "last_name", "username")
    )


def role_accounts():
    """The organisers and Directors, by name, each with ``roles``: what the Comité's page lists."""
    people = (
        get_user_model()
        .objects.filter(groups__name__in=[ORGANISERS_GROUP, DIRECTORS_GROUP])
        .distinct()
        .prefetch_related("groups")
        .order_by("first_name", "last_name", "username")
    )
    for person in people:
        names = {g.name for g in person.groups.all()}
        person.roles = [
            role for role, group in (("organiser", ORGANISERS_GROUP), ("director", DIRECTORS_GROUP)) if group in names
        ]
    return people


def give_role(user, role):
    """Make ``user`` an organiser (staff, in the organisers' group) or a Director (in the Directors' group)."""
    if role not in ROLES:
        raise ActionRefused(_("Unknown role: %(role)s.") % {"role": role})
    if role == "organiser":
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    group, _created = Group.objects.get_or_create(name=ORGANISERS_GROUP if role == "organiser" else DIRECTORS_GROUP)
    user.groups.add(group)


def make_juez(user):
    """Put ``user`` in the jueces' pool."""
    group, _created = Group.objects.get_or_create(name=JUECES_GROUP)
    user.groups.add(group)


def open_account(form, *, by, address=None):
    """The account a valid account form holds (a juez's, an organiser's or a Director's), with its role;
    ``by`` (from ``address``) is named in the entries."""
    with transaction.atomic(), acting(by, address):
        return form.save()


def set_password(form, *, by, address=None):
    """The new password a valid password form holds; ``by`` (from ``address``) is named in the entry."""
    with transaction.atomic(), acting(by, address):
        return form.save()


def set_juez_active(juez, active, *, by, address=None):
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
                % {"name": person_name(juez), "mesas": ", ".join(mesa_label(m) for m in held)},
                held,
            )
    with transaction.atomic(), acting(by, address):
        juez.is_active = active
        juez.save(update_fields=["is_active"])

"""How people name a user and a mesa, on every page, sheet and message."""

from django.utils.translation import gettext as _


def person_name(user):
    """How people name a user: the full name, else the username ("" for nobody)."""
    return (user.get_full_name() or user.get_username()) if user else ""


def mesa_label(mesa):
    """How people name a mesa: its place in the bracket and its table."""
    label = _("%(bracket)s R%(round)d-%(position)d") % {
        "bracket": mesa.get_bracket_display(),
        "round": mesa.round,
        "position": mesa.position,
    }
    if mesa.table_number:
        label += " " + _("(table %(table)d)") % {"table": mesa.table_number}
    return label


def mesa_place(mesa):
    """A mesa named with its championship, for whoever may be looking at another one."""
    return _("%(mesa)s in %(championship)s") % {"mesa": mesa_label(mesa), "championship": mesa.championship}

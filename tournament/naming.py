"""How people name a user, a mesa and a rule-set profile, on every page, sheet and message.

One function per thing, so that a mesa is "Cuadro de ganadores R1-2" on the
tables page, the board, the cards, the messages and the public pages alike
(``Mesa.__str__`` is ``mesa_label``), and a person is their full name
wherever one is shown (the username only for an account without one).
Lists of people and tables sort naturally (``natural_key``): "Juez 2"
before "Juez 10".
"""

import re

from django.forms.models import ModelChoiceIterator
from django.utils.translation import gettext as _

from engines.rules.messages import pick
from engines.rules.rules import PROFILE_LABELS
from tournament.language import speak


def person_name(user):
    """How people name a user: the full name, else the username ("" for nobody)."""
    return (user.get_full_name() or user.get_username()) if user else ""


def mesa_label(mesa):
    """How people name a mesa: its place in the bracket (the group's number for a group's mesa)."""
    bracket = _("Group %(group)d") % {"group": mesa.group} if mesa.group else mesa.get_bracket_display()
    return _("%(bracket)s R%(round)d-%(position)d") % {
        "bracket": bracket,
        "round": mesa.round,
        "position": mesa.position,
    }


def mesa_at_table(mesa):
    """A mesa's name and, once it has one, its table: for a message that sends someone to it."""
    if not mesa.table_number:
        return mesa_label(mesa)
    return mesa_label(mesa) + " " + _("(table %(table)d)") % {"table": mesa.table_number}


def mesa_place(mesa):
    """A mesa with its table and championship, for whoever may be looking at another one."""
    return _("%(mesa)s in %(championship)s") % {"mesa": mesa_at_table(mesa), "championship": mesa.championship}


def profile_name(profile, language=None):
    """A rule-set profile's human name (the engine's catalogue), in ``language`` or the request's."""
    labels = PROFILE_LABELS.get(profile)
    if labels is None:
        return profile
    return pick(labels, language) if language else speak(labels)


_DIGITS = re.compile(r"(\d+)")


def natural_key(text):
    """Sort key that reads the numbers in ``text`` as numbers: "Juez 2" < "Juez 10" < "juez 11"."""
    # re.split with a group alternates text and digits, so ints only ever meet ints.
    return [int(part) if index % 2 else part.casefold() for index, part in enumerate(_DIGITS.split(str(text)))]


def by_person_name(users):
    """``users`` in the natural order of their names."""
    return sorted(users, key=lambda user: natural_key(person_name(user)))


class NaturalOrder(ModelChoiceIterator):
    """A select's people in the natural order of their labels ("Juez 2" before "Juez 10")."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for choice in sorted(self.queryset, key=lambda obj: natural_key(self.field.label_from_instance(obj))):
            yield self.choice(choice)

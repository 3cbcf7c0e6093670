"""How the planilla words what it prints: a stored text bounded, and a claim's label.

Terms
-----
shown text
    Every stored text is printed through :func:`shown`: cut at its kind's
    limit (a name 120 characters, a reason 500, a ruling 2000) and with
    U+FFFD for what cannot be printed, so that no row, however it got into
    the database, can break the sheet or stretch it over dozens of pages.
"""

from django.utils.translation import gettext as _

from engines.rules.messages import kind_labels
from engines.text import KINDS, printable
from tournament.language import language


def shown(text, kind) -> str:
    """Stored ``text`` as the sheet prints it: never more than its kind's
    limit (``engines.text``), whatever an older version or a hand
    edit left in the database, and nothing that cannot be printed."""
    return printable(text, KINDS[kind].max_length)


def claim_label(claim: dict) -> str:
    kind = claim.get("kind", "")
    label = kind_labels(language()).get(kind, kind)
    if claim.get("player"):
        label += " " + _("(player %(n)s)") % {"n": claim["player"]}
    if kind == "juego_y_veo":
        label += " " + (_("upheld") if claim.get("upheld") else _("rejected"))
    if kind == "void":
        label += " " + _("of #%(seq)s") % {"seq": claim.get("target")}
    if kind == "ajuste" and claim.get("reason"):
        label += f": {shown(claim['reason'], 'reason')}"
    return label

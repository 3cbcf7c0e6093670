"""``manage.py emergency_result``: the Comité's way to set a mesa's result when the pages cannot.

    python manage.py emergency_result 42 --by comite --winner A --chicas 2 1 --reason "..."
    python manage.py emergency_result 42 --by comite --walkover --winner B --reason "..."

The admin shows mesas and changes none (``audit.readonly``); this is the one
path around the organisers' pages, and it goes through the same functions
(``tournament.results.results``): a decided mesa is corrected as the Director's
override would (Art. 18: the dependents that started keep their pairs), an
undecided one gets a walkover. Only a superuser named by ``--by`` may use
it, with a reason, and the audit trail records both. A refusal exits with
status 2 and its message.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from audit.models import REASON_MAX
from tournament.errors import ActionRefused
from tournament.models import Mesa
from tournament.policy import EMERGENCY_RESULT, may
from tournament.results import results
from tournament.validators import clean


class Command(BaseCommand):
    help = "Set a mesa's result as the Comité (a superuser), with a reason kept in the audit trail."

    def add_arguments(self, parser):
        parser.add_argument("mesa", type=int, help="the mesa's number (its id)")
        parser.add_argument("--by", required=True, help="the superuser's username")
        parser.add_argument("--reason", required=True, help="why; kept in the audit trail")
        parser.add_argument("--winner", required=True, choices=["A", "B"])
        parser.add_argument("--chicas", type=int, nargs=2, metavar=("A", "B"), help="chicas of pair A and pair B")
        parser.add_argument("--zapateria", action="store_true")
        parser.add_argument("--walkover", action="store_true", help="the mesa has no result yet: a walkover")

    def handle(self, *args, **options):
        user = get_user_model().objects.filter(username=options["by"]).first()
        if user is None or not may(user, EMERGENCY_RESULT):
            raise CommandError(_("Only an active superuser may set a result here."), returncode=2)
        try:
            reason = clean(options["reason"], "reason", max_length=REASON_MAX)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages), returncode=2) from None
        mesa = Mesa.objects.select_related("championship").filter(pk=options["mesa"]).first()
        if mesa is None:
            raise CommandError(_("There is no mesa %(mesa)d.") % {"mesa": options["mesa"]}, returncode=2)
        if not options["walkover"] and options["chicas"] is None:
            raise CommandError(_("Give the chicas of both pairs (--chicas A B), or --walkover."), returncode=2)
        try:
            if options["walkover"]:
                results.record_walkover(
                    mesa,
                    options["winner"],
                    by=user,
                    reason=_("Emergency result by the Comité: %(reason)s") % {"reason": reason},
                )
            else:
                chicas_a, chicas_b = options["chicas"]
                results.correct_result(
                    mesa,
                    options["winner"],
                    chicas_a,
                    chicas_b,
                    options["zapateria"],
                    by=user,
                    override=True,
                    reason=reason,
                    emergency=True,
                )
        except ActionRefused as refusal:
            raise CommandError(refusal.message, returncode=2) from None
        self.stdout.write(_("Result saved."))

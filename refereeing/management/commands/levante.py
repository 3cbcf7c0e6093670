"""``manage.py levante``: list the legal captures of one position, and judge a levante.

    python manage.py levante --table "3 4 J Q K" --played 7
    python manage.py levante --table "3 4 J Q K" --played 7 --taken "3 4 J"

Prints JSON: ``{"captures": [{"cards": [...], "caida": bool, "limpia": bool}]}``
and, with ``--taken``, ``"verdict"`` (see ``engines.rules.levante.judge``).
Bad input (an unknown rank or profile, more than four cards of a rank, a
previous card that is not on the table) exits with status 2 and a message.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from engines.rules.cards import CardError
from engines.rules.levante import captures, judge
from engines.rules.rules import DEFAULT_PROFILE, PROFILES, RuleSetError, build_ruleset


class Command(BaseCommand):
    help = "List the legal captures of a played card on a table, and judge a levante (Art. 5)."

    def add_arguments(self, parser):
        parser.add_argument("--table", required=True, help='table cards, e.g. "3 4 J Q K"')
        parser.add_argument("--played", required=True, help="the card played, e.g. 7")
        parser.add_argument(
            "--previous", help="the previous player's card, if still on the table in this mano (Art. 6)"
        )
        parser.add_argument("--ruleset", default=DEFAULT_PROFILE, help=f"profile: {', '.join(PROFILES)}")
        parser.add_argument("--taken", help='the table cards the player took, e.g. "3 4 J" ("" for none)')

    def handle(self, *args, **options):
        try:
            ruleset = build_ruleset(options["ruleset"])
            position = (options["table"], options["played"], options["previous"])
            result = {"captures": [c.as_dict() for c in captures(*position)]}
            if options["taken"] is not None:
                result["verdict"] = judge(*position, options["taken"], ruleset).as_dict()
        except (CardError, RuleSetError) as error:
            raise CommandError(str(error), returncode=2) from None
        self.stdout.write(json.dumps(result, ensure_ascii=False))

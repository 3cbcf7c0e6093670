"""``manage.py replay FILE``: decide a claim log given as JSON Lines (``-`` reads stdin).

The first line is the header, ``{"ruleset": "riobamba", "settings": {},
"players": 4, "first_dealer": "A1"}`` (only ``ruleset`` is required;
``settings`` are the rule set's overrides); each following line is one
claim. Blank lines are ignored: claims are numbered 1, 2, ... in the order
they come. Prints ``{"decisions": [...], "state": {...}}`` as one JSON
object. Malformed input (bad JSON, a bad header or setting, a malformed
claim) exits with status 2 and a message naming the line; nothing is
printed on stdout then.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from engines.rules import ClaimError, Header, parse_claim, replay
from engines.rules.referee import check_header
from engines.rules.rules import RuleSetError, build_ruleset

HEADER_FIELDS = {"ruleset", "settings", "players", "first_dealer"}


def _fail(line, message):
    return CommandError(f"línea {line} / line {line}: {message}", returncode=2)


def read_header(obj) -> Header:
    """The :class:`Header` of a JSON header object; raises ``ValueError`` if bad."""
    if type(obj) is not dict:
        raise ClaimError("la cabecera debe ser un objeto JSON. / the header must be a JSON object.")
    unknown = sorted(set(obj) - HEADER_FIELDS)
    if unknown:
        raise ClaimError(f"campos desconocidos en la cabecera / unknown header fields: {unknown}")
    if "ruleset" not in obj:
        raise ClaimError("falta «ruleset» en la cabecera. / the header has no 'ruleset'.")
    settings = obj.get("settings", {})
    if type(settings) is not dict or type(obj["ruleset"]) is not str:
        raise ClaimError(
            "«ruleset» es un nombre y «settings» un objeto. / 'ruleset' is a name and 'settings' an object."
        )
    header = Header(build_ruleset(obj["ruleset"], settings), obj.get("players", 4), obj.get("first_dealer", "A1"))
    check_header(header)
    return header


class Command(BaseCommand):
    help = "Replay a claim log (JSON Lines: a header, then one claim per line) and print the decisions."
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON Lines file, or - for stdin")

    def handle(self, *args, **options):
        try:
            if options["file"] == "-":
                text = (options.get("stdin") or sys.stdin).read()
            else:
                # utf-8-sig: a byte order mark left by an editor is not a claim.
                with open(options["file"], encoding="utf-8-sig") as stream:
                    text = stream.read()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"no se puede leer / cannot read {options['file']}: {error}", returncode=2) from None
        header, claims = None, []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as error:
                raise _fail(number, f"JSON no válido / invalid JSON: {error}") from None
            try:
                if header is None:
                    header = read_header(obj)
                else:
                    claims.append(parse_claim(obj, header.players))
            except (ClaimError, RuleSetError) as error:
                raise _fail(number, str(error)) from None
        if header is None:
            raise CommandError("falta la cabecera / the header is missing", returncode=2)
        result = replay(header, claims)
        self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False))

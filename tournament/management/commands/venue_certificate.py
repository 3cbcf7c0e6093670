"""manage.py venue_certificate [--host NAME ...]: HTTPS on the venue's own network (README, "HTTPS at the venue").

Makes, in ``TLS_DIR`` (``tls/`` by default), the venue's certificate
authority once and the server's certificate for this machine's LAN
addresses and names, ``ALLOWED_HOSTS`` and every ``--host``; run again, it
keeps what is still good and only makes a new server certificate when a
name is missing or it is about to expire (``config/venue_tls.py``). The
authority vouches for the venue's own network only: a public ``--host`` is
refused, and the public names of ``ALLOWED_HOSTS`` and of this machine are
left out, saying so.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from config import venue_tls


class Command(BaseCommand):
    help = "Make the venue's certificate authority and the server's HTTPS certificate for its LAN names (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--host", action="append", default=[], help="another name or IP address the tablets use (repeatable)"
        )
        parser.add_argument("--no-lan", action="store_true", help="only the names given, not this machine's own")

    def handle(self, *args, host, no_lan, **options):
        allowed = [h for h in settings.ALLOWED_HOSTS if h and "*" not in h and not h.startswith(".")]
        try:
            asked = venue_tls.private_names(venue_tls.clean_names(host))
            found = venue_tls.clean_names([*allowed, *([] if no_lan else venue_tls.lan_names())])
            public = [name for name in found if not venue_tls.is_private(name)]
            names = venue_tls.clean_names([*asked, *(name for name in found if name not in public)])
            result = venue_tls.ensure(settings.TLS_DIR, names)
        except venue_tls.PublicName as error:
            raise CommandError(
                _(
                    "%(name)s is a public name or address: the venue's authority vouches only for the venue's own"
                    " network (private addresses, names under .local, .lan or .internal, names without a dot)."
                )
                % {"name": error.args[0]}
            ) from None
        except venue_tls.NotPermitted as error:
            raise CommandError(
                _(
                    "The venue's authority was made for %(permitted)s, not %(name)s: to add it, remove ca.pem and"
                    " ca.key from %(folder)s and run this again, then install the new authority on every tablet."
                )
                % {"name": error.args[0], "permitted": ", ".join(error.args[1]), "folder": settings.TLS_DIR}
            ) from None
        except venue_tls.BadName as error:
            if error.args[0] is None:
                raise CommandError(_("Give between 1 and %(most)s names.") % {"most": venue_tls.MAX_NAMES}) from None
            raise CommandError(_("Not a host name or IP address: %(name)r") % {"name": error.args[0]}) from None
        except OSError as error:
            raise CommandError(str(error)) from None
        folder = settings.TLS_DIR
        say = self.stdout.write
        if public:
            say(_("Left out, being public: %(names)s") % {"names": ", ".join(public)})
        if result.ca_replaced:
            say(
                _(
                    "The authority kept there vouched for any site: a new one, for the venue's network only, replaces"
                    " it. Install it again on every tablet."
                )
            )
        say(
            (
                _("Made the venue's certificate authority: %(path)s")
                if result.ca_made
                else _("Kept the venue's certificate authority: %(path)s")
            )
            % {"path": folder / venue_tls.FILES["ca"]}
        )
        say("  " + _("SHA-256 fingerprint: %(fingerprint)s") % {"fingerprint": result.ca_fingerprint})
        say(
            (
                _("Made the server's certificate: %(path)s")
                if result.cert_made
                else _("Kept the server's certificate: %(path)s")
            )
            % {"path": folder / venue_tls.FILES["cert"]}
        )
        say("  " + _("for: %(names)s") % {"names": ", ".join(result.names)})
        say(
            _(
                "Each tablet trusts the authority once: open https://<this server>/ca.crt and install it (README, HTTPS at the venue)."
            )
        )

"""The juez's screen: the list of the juez's mesas and the tablet page of one.

Terms
-----
juez's screen
    The page a juez keeps open on a tablet (1024x768 landscape, or a phone in
    portrait) during a mesa. It logs every claim by taps through the JSON API
    (``refereeing.claimlog.api``) and shows the engine's answer: the score as chips
    (perro = 10, tanto = 2: Art. 14), chicas, data, mano, who deals, the
    refusals with their article, and the banners at the end of a chica and
    of the mesa (Art. 3g.6-7, 12).
catalogue
    The few words the page's script writes itself, translated here through
    Django's i18n and rendered into the page as JSON: the script has no
    strings of its own and the page makes no extra request for them.
kind labels
    The claim kinds' names, for the buttons and the log, in the page's
    language: the engine's one table (``engines.rules.messages``), also
    sent as the API's ``ruleset.labels``.
service worker
    ``/mesa/sw.js``, served from here so that its scope covers every mesa's
    screen: in a secure context it keeps the screen for a reload offline.
Mis mesas
    The juez's mesas in the order a juez looks for them: in play, ready,
    suspended, waiting, finished.

Who may open a mesa is ``refereeing.access.permissions``'s rule: its officials (the
juez signed in or on a device opened with the table's PIN, and the
inspector) act; the organisers and the Director only watch (the claim
buttons are not shown); anyone else gets a 403 page.

The views are thin: they check who may see the mesa and hand the page what
it needs to draw itself before the first answer of the API arrives (names,
seats, the rule set's settings, the signatures already made). Everything
that changes during the mesa comes from the API.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Case, Value, When
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engines.rules.messages import kind_labels, screen_rules
from live import paths
from refereeing.access.permissions import (
    ACT,
    PIN_DEVICE,
    access,
    client_address,
    juez_at_tablet,
    on_juez_tablet,
    role,
    table_of,
    tablet,
)
from refereeing.models import Signature
from tournament.errors import Refusal
from tournament.language import language
from tournament.models import Championship, Mesa
from tournament.naming import person_name
from tournament.policy import JUEZ_TABLET, OWN_MESAS, READ_PUBLIC, VIEW_MESA, allowed
from tournament.refusals import show
from tournament.seating import seating

LIST_ORDER = (Mesa.Status.IN_PLAY, Mesa.Status.READY, Mesa.Status.SUSPENDED, Mesa.Status.WAITING, Mesa.Status.FINISHED)


def catalogue():
    """The script's words in the current language, keyed by a stable name."""
    labels = kind_labels(language())
    return {
        # Claim kinds, as buttons and in the log: the engine's one table.
        **{f"kind.{kind}": label for kind, label in labels.items()},
        # What a rule says, before anything is logged: the engine's words (no rule in the screen's own).
        **{f"rule.{name}": text for name, text in screen_rules(language()).items()},
        # The banners.
        "banner.chica": _("Chica for %(pair)s"),
        "banner.mesa": _("Mesa for %(pair)s"),
        "banner.mesa_zapateria": _("Mesa for %(pair)s by zapatería"),
        "banner.suspended": _("Mesa suspended"),
        "banner.appeal": _("Suspended for an appeal — wait for the Director"),
        # The centre panel: the step the engine expects next (State.next).
        "next.deal": _("Deal the data; tap “%(mano)s” once the cards are dealt.") % {"mano": labels["mano"]},
        "next.mano": _("Mano played: deal the next one."),
        "next.last_mano": _("Last mano of the data: the conteo follows once it is played."),
        "next.conteo": _("End of the data: do the conteo."),
        # The log.
        "log.voided_by": _("undone by claim #%(seq)s"),
        "log.empty": _("No claims yet."),
        "log.waiting": _("waiting to be sent"),
        "log.against": _("against #%(seq)s"),
        "log.upheld": _("upheld"),
        "log.rejected": _("rejected"),
        "board.pending": _("%(count)s not yet answered"),
        # Network and queue.
        "net.online": _("Online"),
        "net.offline": _("No connection: claims are kept on this tablet"),
        "net.waiting": _("Waiting to be sent: %(count)s"),
        "net.error": _("The server did not answer as expected (%(status)s)."),
        "net.forbidden": _("You may not log claims at this mesa."),
        "conflict.title": _("Another tablet logged claims first"),
        "conflict.body": _("These claims arrived from another tablet while yours were waiting:"),
        "conflict.waiting": _("Tick the claims of yours that still stand:"),
        "conflict.mano": _("the other tablet already logged a mano"),
        "conflict.send": _("Send the ticked ones"),
        "conflict.discard": _("Discard all mine"),
        # Undo.
        "undo.confirm": _("Undo claim #%(seq)s (%(what)s)?"),
        "undo.nothing": _("There is no claim to undo."),
        "undo.confirm_waiting": _("Drop %(what)s? It was not sent yet: the server never sees it."),
        "undo.yes": _("Undo it"),
        # Confirmations: what will happen, in one sentence.
        "confirm.points": _("Points: %(points)s."),
        # What mal repartidas does is the engine's sentence (rule.mal_repartidas); the points its preview's.
        "confirm.mal_repartidas_yes": _("Log mal repartidas"),
        "confirm.suspender": _("The mesa stops: no claim is logged until you tap Resume."),
        "confirm.suspender_yes": _("Suspend the mesa"),
        # A claim tapped behind others that the engine would refuse when its turn came (queue.js).
        "held.title": _("%(what)s was not sent: the engine would refuse it."),
        "held.log": _("Log it anyway"),
        "held.drop": _("Drop it"),
        # A dialog closed because the mesa changed under it.
        "changed.claim": _("Another device logged %(what)s: the dialog closed and logged nothing."),
        "changed.suspended": _("The mesa was suspended: the dialog closed and logged nothing."),
        "changed.appeal": _(
            "The Director admitted an appeal and suspended the mesa: the dialog closed and logged nothing."
        ),
        "changed.finished": _("The mesa is over: the dialog closed and logged nothing."),
        # The Director's ruling at the table.
        "ruling.title": _("Appeal of %(pair)s on claim #%(seq)s: %(outcome)s."),
        "ruling.offline": _("No connection: acknowledge the ruling again when the network returns."),
        # Conteo.
        "conteo.cards_of": _("Cards of %(pair)s"),
        "conteo.type": _("Type the cards counted on the keypad."),
        "conteo.sentence": _("Conteo: %(a)s %(na)s cards, %(b)s %(nb)s."),
        "conteo.no_points": _("no points"),
        "conteo.asking": _("Asking the engine…"),
        "conteo.later": _("The engine answers before it is sent."),
        # Juego y veo.
        "jyv.pick_played": _("Tap the card played."),
        "jyv.legal": _("Legal captures"),
        "jyv.none": _("None: the card stays on the table."),
        "jyv.verdict_legal": _("Legal capture."),
        "jyv.verdict_incomplete": _("Incomplete capture."),
        "jyv.verdict_illegal": _("Illegal capture."),
        "jyv.nothing": _("No play of the other pair can be protested now."),
        "jyv.remove": _("Remove %(card)s"),
        "jyv.check_failed": _("The checker could not answer: decide by eye."),
        # Signatures.
        "sign.empty": _("Sign in the box first."),
        "sign.name": _("Write the name."),
        "sign.done": _("Signed"),
        "sign.failed": _("The signature was not saved."),
        "yes": _("Yes"),
        "no": _("No"),
    }


@allowed(OWN_MESAS)
def mesa_list(request):
    # In play first, then ready, suspended and finished: the order a juez
    # looks for them in (the status's own text would put finished first).
    order = Case(
        *(When(status=status, then=Value(i)) for i, status in enumerate(LIST_ORDER)), default=Value(len(LIST_ORDER))
    )
    mesas = (
        Mesa.objects.filter(juez=request.user)
        .select_related("championship", "pair_a", "pair_b")
        .order_by(order, "table_number", "round", "position")
    )
    return render(request, "refereeing/mesa_list.html", {"mesas": mesas})


def not_yours(request, mesa):
    """The answer to a request that may not use ``mesa``'s pages: sign in first, or a 403 page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render(request, "refereeing/forbidden.html", {"mesa": mesa}, status=403)


@allowed(VIEW_MESA, refused=not_yours)
def mesa_screen(request, mesa_id):
    mesa = get_object_or_404(Mesa.objects.select_related("championship", "pair_a", "pair_b", "juez"), pk=mesa_id)
    level = access(request, mesa)

    ruleset = mesa.ruleset
    pairs = []
    seats = {}
    for side in ("A", "B"):
        pair = mesa.pair(side)
        players = list(pair.players.all()) if pair else []
        pairs.append({"side": side, "pair": pair, "players": players})
        for player in players:
            seats[f"{side}{player.number}"] = player.full_name
    signed = {s.role: s.name for s in Signature.objects.filter(mesa=mesa)}
    representatives = {
        side: next((p.full_name for p in entry["players"] if p.is_representative), "")
        for side, entry in zip("AB", pairs)
    }
    juez_name = person_name(mesa.juez)
    config = {
        "mesa": mesa.pk,
        "lang": language(),
        "api": {
            **{name: reverse(f"api:{name}", args=[mesa.pk]) for name in ("mesa", "claims", "signatures")},
            "stream": paths.mesa_stream(mesa.pk),
            "appeals": reverse("refereeing:mesa_appeals", args=[mesa.pk]),
            "levante": reverse("api:levante"),
            "preview": reverse("refereeing:mesa_preview", args=[mesa.pk]),
        },
        "pairs": {side: (entry["pair"].name if entry["pair"] else side) for side, entry in zip("AB", pairs)},
        "seats": seats,
        "rules": ruleset.settings(),
        "strings": catalogue(),
        "labels": kind_labels(language()),
        "signed": signed,
        "service_worker": reverse("refereeing:service_worker"),
        "service_worker_scope": reverse("refereeing:mesa_list"),
        "static_url": static_path(),
    }
    if role(request, mesa) == PIN_DEVICE:
        # A device opened with the table's PIN follows its table (``refereeing.access``).
        config["follow"] = reverse("access:table_state", args=[table_of(mesa).pk])
    sign_roles = [
        ("A", _("Representative of %(pair)s") % {"pair": config["pairs"]["A"]}, representatives["A"]),
        ("B", _("Representative of %(pair)s") % {"pair": config["pairs"]["B"]}, representatives["B"]),
        ("juez", _("Juez"), juez_name),
    ]
    return render(
        request,
        "refereeing/mesa_screen.html",
        {
            "mesa": mesa,
            "can_act": level == ACT,
            "start": start_notice(request, mesa),
            "pairs": pairs,
            "config": config,
            # The claims a pair asks for: the rule set says which it scores.
            "pair_claims": [(kind, config["labels"][kind]) for kind in ruleset.pair_claims],
            # Every claim button's label: the engine's one table, as the log and the planilla say it.
            "labels": config["labels"],
            "sign_roles": sign_roles,
        },
    )


def start_notice(request, mesa):
    """What the screen of a mesa that has not started says, and whether it offers "Start mesa"; None once started."""
    if mesa.status != Mesa.Status.WAITING:
        return None
    tap = (
        seating.seated_with_pairs(mesa)
        and mesa.championship.start_mode == Championship.Start.TAP
        and on_juez_tablet(request, mesa)
    )
    if seating.starts_on_first_claim(mesa):
        text = _("This mesa starts with its first claim: once both pairs are seated, deal.")
    elif tap:
        text = _("This mesa has not started. Call both pairs to the table; once they are seated, tap “Start mesa”.")
    else:
        text = seating.not_started_reason(mesa)
    return {"text": text, "tap": tap}


@require_POST
@allowed(JUEZ_TABLET, refused=not_yours)
def mesa_start(request, mesa_id):
    """The juez's tap on "Start mesa" (``seating.start_mesa``); back to the screen, which says what happened."""
    mesa = get_object_or_404(Mesa.objects.select_related("championship"), pk=mesa_id)
    by = juez_at_tablet(request, mesa) or tablet(mesa)
    try:
        seating.start_mesa(mesa, by=by, address=client_address(request))
    except Refusal as refusal:
        show(request, refusal)
    else:
        messages.success(request, _("The mesa has started: log its claims."))
    return redirect("refereeing:mesa_screen", mesa.pk)


def static_path():
    """Where the static files are served, as a path from the host's root."""
    return "/" + settings.STATIC_URL.lstrip("/")


@allowed(READ_PUBLIC)
def service_worker(request):
    """The screen's service worker, served under /mesa/ so that its scope covers every mesa's screen."""
    response = render(request, "refereeing/sw.js", {"static_url": static_path()}, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response

"""The juez's screen: the list of the juez's mesas and the tablet page of one.

Terms
-----
juez's screen
    The page a juez keeps open on a tablet (1024x768 landscape, or a phone in
    portrait) during a mesa. It logs every claim by taps through the JSON API
    (``refereeing.api``) and shows the engine's answer: the score as chips
    (perro = 10, tanto = 2: Art. 14), chicas, data, mano, who deals, the
    refusals with their article, and the banners at the end of a chica and
    of the mesa (Art. 3g.6-7, 12).
catalogue
    The few words the page's script writes itself, translated here through
    Django's i18n and rendered into the page as JSON: the script has no
    strings of its own and the page makes no extra request for them.

Who may open a mesa is ``refereeing.access``'s rule: its juez (signed in,
or on a device opened with the table's PIN) acts; the inspector, the
organisers and the Director only watch (the claim buttons are not shown);
anyone else gets a 403 page.

The views are thin: they check who may see the mesa and hand the page what
it needs to draw itself before the first answer of the API arrives (names,
seats, the rule set's settings, the signatures already made). Everything
that changes during the mesa comes from the API.
"""

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language, gettext as _

from tournament.models import Mesa
from tournament.services import person_name

from .access import ACT, access
from .models import Signature

# The claims a pair makes, in the order of the buttons. The variant claims
# (caída en ronda, cuatro caídas) are shown only when the rule set scores them.
PAIR_CLAIMS = ("caida", "limpia", "caida_limpia", "ronda", "doble_ronda", "pedir_mal")
VARIANT_CLAIMS = ("caida_en_ronda", "cuatro_caidas")


def catalogue():
    """The script's words in the current language, keyed by a stable name."""
    return {
        # Claim kinds, as buttons and in the log.
        "kind.mano": _("Mano"),
        "kind.caida": _("Caída"),
        "kind.limpia": _("Limpia"),
        "kind.caida_limpia": _("Caída y limpia"),
        "kind.ronda": _("Ronda"),
        "kind.doble_ronda": _("Doble ronda"),
        "kind.caida_en_ronda": _("Caída en ronda"),
        "kind.cuatro_caidas": _("Four caídas"),
        "kind.pedir_mal": _("Pedir mal"),
        "kind.juego_y_veo": _("Juego y veo"),
        "kind.mal_repartidas": _("Mal repartidas"),
        "kind.conteo": _("Conteo"),
        "kind.ajuste": _("Adjustment"),
        "kind.void": _("Undo"),
        "kind.suspender": _("Suspend"),
        "kind.reanudar": _("Resume"),
        # The banners.
        "banner.chica": _("Chica for %(pair)s"),
        "banner.zapatero": _("%(pair)s is zapatero (under 10 points)"),
        "banner.mesa": _("Mesa for %(pair)s"),
        "banner.mesa_zapateria": _("Mesa for %(pair)s by zapatería"),
        "banner.suspended": _("Mesa suspended"),
        "phase.deal": _("Tap “Deal (mano)” to start the hand."),
        "phase.conteo": _("End of the data: do the conteo."),
        # The log.
        "log.voided": _("undone"),
        "log.empty": _("No claims yet."),
        "log.waiting": _("waiting to be sent"),
        "log.against": _("against #%(seq)s"),
        "log.upheld": _("upheld"),
        "log.rejected": _("rejected"),
        # Network and queue.
        "net.online": _("Online"),
        "net.offline": _("No connection: claims are kept on this device"),
        "net.waiting": _("Waiting to be sent: %(count)s"),
        "net.error": _("The server did not answer as expected (%(status)s)."),
        "net.forbidden": _("You may not log claims at this mesa."),
        "conflict.title": _("Another device logged claims first"),
        "conflict.body": _("These claims arrived from another device while yours were waiting:"),
        "conflict.waiting": _("Your claims still waiting:"),
        "conflict.send": _("Send mine after them"),
        "conflict.discard": _("Discard mine"),
        # Undo.
        "undo.confirm": _("Undo claim #%(seq)s (%(what)s)?"),
        "undo.nothing": _("There is no claim to undo."),
        # Conteo.
        "conteo.preview": _("Points (preview; the engine decides)"),
        "conteo.cards_of": _("Cards of %(pair)s"),
        "conteo.bad": _("The cards add up to more than 40."),
        "conteo.dos_por_darlas": _("dos por darlas"),
        "conteo.falla": _("falla"),
        # Juego y veo.
        "jyv.pick_played": _("Tap the card played."),
        "jyv.legal": _("Legal captures"),
        "jyv.none": _("None: the card stays on the table."),
        "jyv.verdict_legal": _("Legal capture."),
        "jyv.verdict_incomplete": _("Incomplete capture."),
        "jyv.verdict_illegal": _("Illegal capture."),
        "jyv.against_none": _("No claim"),
        "jyv.check_failed": _("The checker could not answer: decide by eye."),
        # Signatures.
        "sign.empty": _("Sign in the box first."),
        "sign.name": _("Write the name."),
        "sign.done": _("Signed"),
        "sign.failed": _("The signature was not saved."),
        "yes": _("Yes"),
        "no": _("No"),
    }


@login_required
def mesa_list(request):
    mesas = (
        Mesa.objects.filter(juez=request.user)
        .select_related("championship", "pair_a", "pair_b")
        .order_by("status", "table_number", "round", "position")
    )
    return render(request, "refereeing/mesa_list.html", {"mesas": mesas})


def not_yours(request, mesa):
    """The answer to a request that may not use ``mesa``'s pages: sign in first, or a 403 page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render(request, "refereeing/forbidden.html", {"mesa": mesa}, status=403)


def mesa_screen(request, mesa_id):
    mesa = get_object_or_404(Mesa.objects.select_related("championship", "pair_a", "pair_b", "juez"), pk=mesa_id)
    level = access(request, mesa)
    if level is None:
        return not_yours(request, mesa)

    ruleset = mesa.championship.ruleset
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
        "lang": "en" if (get_language() or "").startswith("en") else "es",
        "api": {
            **{name: reverse(f"api:{name}", args=[mesa.pk]) for name in ("mesa", "claims", "signatures")},
            "levante": reverse("api:levante"),
        },
        "pairs": {side: (entry["pair"].name if entry["pair"] else side) for side, entry in zip("AB", pairs)},
        "seats": seats,
        "rules": ruleset.settings(),
        "strings": catalogue(),
        "signed": signed,
    }
    variant_claims = [kind for kind in VARIANT_CLAIMS if getattr(ruleset, kind) is not None]
    sign_roles = [
        ("A", _("Representative of %(pair)s") % {"pair": config["pairs"]["A"]}, representatives["A"]),
        ("B", _("Representative of %(pair)s") % {"pair": config["pairs"]["B"]}, representatives["B"]),
        ("juez", _("Juez"), juez_name),
    ]
    return render(request, "refereeing/mesa_screen.html", {
        "mesa": mesa,
        "can_act": level == ACT,
        "pairs": pairs,
        "config": config,
        "pair_claims": [(kind, config["strings"][f"kind.{kind}"]) for kind in PAIR_CLAIMS + tuple(variant_claims)],
        "sign_roles": sign_roles,
    })

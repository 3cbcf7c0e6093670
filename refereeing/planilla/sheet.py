"""The Planilla de Juego: a mesa's score sheet, made from its claim log.

Art. 16: when the mesa ends, the juez hands the *Planilla de Juego* to the
control desk; it records the results, the winning pair, and the signatures
of each pair's representative and of the juez. Here it is a PDF built from
what the database already holds, nothing typed twice:

- the mesa's claim log (``ClaimEntry``) replayed by the engine
  (``claimlog.mesa_replay``): each claim's decision (points, running
  scores, chica, data, dealer, conteo detail, voided or not) and the final
  state (each chica's result, zapatería);
- the mesa's result fields (status, winner, chicas);
- the ``Signature`` rows drawn on the tablet.

How it words a claim and bounds a stored text is ``labels``; the code that
verifies a printed sheet, ``verification``; its HTML and PDF, ``printed``.

Terms
-----
row
    One data (one round of all 40 cards) of one chica: who dealt it, the
    accepted claims with their points, the conteo and the running score.
voided claim
    A claim that a later ``void`` claim cancelled. The engine's replay of
    the log treats it as refused and scores everything after it as if it had
    never been made, so the sheet lists it, with the void, among the refused
    claims, and every row's running score adds up.
perro, tanto
    The scoring chips (Art. 14): a tanto is 2 points, a perro 10.
provisional
    A planilla of a mesa that has not ended: marked PROVISIONAL across
    every page, and its code changes with the next claim.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from itertools import groupby

import segno
from django.conf import settings
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from engines.rules.state import chips  # the engine's, as the juez's screen gets them (Art. 14)
from refereeing.claimlog.log import decision_message, mesa_replay
from refereeing.models import ClaimEntry, Signature
from refereeing.signatures import SignatureError, check_png_data_url
from tournament.models import Mesa
from tournament.naming import mesa_label, person_name, profile_name

from .labels import claim_label, shown
from .verification import verification_code, verification_path

# Mesas whose planilla is final. A walkover has no log but is decided.
FINAL_STATUSES = {Mesa.Status.FINISHED, Mesa.Status.WALKOVER}

# Claims that only mark the course of play: they carry no points and the
# row already shows what they mean (a new mano, the conteo has its column).
_MARKERS = {"mano", "conteo"}
# Claims that are no pair's play: the mesa's suspension and resumption, and
# the Director's adjustment (Art. 17-18), which the sheet shows in a row of
# their own under the data, not in a pair's column.
_OWN_ROW = {"suspender", "reanudar", "ajuste"}


def _other(side):
    return "B" if side == "A" else "A"


# --- what the sheet shows ---------------------------------------------------


@dataclass
class Item:
    """One accepted claim in a row, under the pair it concerns."""

    seq: int
    kind: str
    label: str
    side: str | None
    points: dict

    @property
    def own(self):
        return self.points.get(self.side, 0) if self.side else 0

    @property
    def others(self):
        return self.points.get(_other(self.side), 0) if self.side else 0

    @property
    def text(self) -> str:
        """``#seq label +own``, then what the other pair got from it, if
        anything; a claim under no pair gives each pair's points."""
        if not self.side:
            scored = " ".join(f"{side} {points:+d}" for side, points in self.points.items() if points)
            return f"#{self.seq} {self.label}" + (f" {scored}" if scored else "")
        text = f"#{self.seq} {self.label} {self.own:+d}"
        return text + (f" ({_other(self.side)} {self.others:+d})" if self.others else "")


@dataclass
class Row:
    data: int
    dealer: str
    dealer_name: str = ""
    items: dict = field(default_factory=lambda: {"A": [], "B": []})
    events: list = field(default_factory=list)
    conteo: dict | None = None
    scores: dict = field(default_factory=lambda: {"A": 0, "B": 0})

    # The cells' text, one string each, lines apart by "\n" (the sheet's
    # cells keep line breaks): one text box per cell, as WeasyPrint's time
    # grows with the boxes.

    @property
    def dealer_text(self) -> str:
        return f"{self.dealer}\n{self.dealer_name}" if self.dealer_name else self.dealer

    @property
    def plays_text(self) -> dict:
        """Each pair's claims."""
        return {side: "\n".join(item.text for item in self.items[side]) for side in "AB"}

    @property
    def events_text(self) -> str:
        """What happened to the mesa in this data and is no pair's play (``_OWN_ROW``), on one line."""
        return " · ".join(item.text for item in self.events)

    @property
    def conteo_text(self) -> str:
        """The points the conteo gave (first line), then the cards each pair
        counted."""
        if not self.conteo:
            return "—"
        k = self.conteo
        points = " · ".join(f"{side} {k['points'][side]:+d}" for side in "AB" if k["points"][side]) or "—"
        if k.get("dos_por_darlas"):
            points += " " + _("dos por darlas")
        if any((k.get("falla") or {}).values()):
            points += " " + _("incl. falla")
        cards = f"A {k['cards']['A']} · B {k['cards']['B']}"
        if k.get("table"):
            cards += " · " + _("%(n)s on the table") % {"n": k["table"]}
        return f"{points}\n{cards}"

    @property
    def score_text(self) -> dict:
        """Each pair's running score in points, then as perros and tantos."""
        texts = {}
        for side in "AB":
            chip = chips(self.scores[side])
            text = _("%(p)s P · %(t)s T") % {"p": chip["perros"], "t": chip["tantos"]}
            texts[side] = f"{chip['points']}\n{text}" + (" +1" if chip["odd"] else "")
        return texts


@dataclass
class Chica:
    number: int
    rows: list
    result: dict | None


def _side_of(claim: dict, decision: dict) -> str | None:
    """The pair whose column shows this claim: the one it names, else the
    one it gave points to (a misdeal names no pair)."""
    if claim.get("pair") in ("A", "B"):
        return claim["pair"]
    gained = [s for s in "AB" if (decision.get("points") or {}).get(s)]
    return gained[0] if len(gained) == 1 else None


def chicas_from_log(entries: list[ClaimEntry], decisions: list[dict], chica_results: list[dict]):
    """The chicas, each as rows of data, and the list of claims that score
    nothing on the sheet: refused ones, voided ones and the voids.

    ``decisions`` are the engine's replay of the log, one per entry: a
    voided claim is refused there (``voided_by``) and every later score is
    what it would have been without it, so each row's running score adds up.
    """
    results = {r["chica"]: r for r in chica_results}
    set_aside, accepted = [], []
    for entry, decision in zip(entries, decisions):
        if not decision["accepted"] or entry.kind == "void":
            set_aside.append(
                {
                    "seq": entry.seq,
                    "label": claim_label(entry.claim),
                    "accepted": decision["accepted"],
                    "voided_by": decision.get("voided_by"),
                    "message": decision_message(decision),
                    "article": decision.get("article") or "",
                    "at": entry.created_at,
                }
            )
        else:
            accepted.append((entry, decision))

    chicas = []
    for number, in_chica in groupby(accepted, key=lambda pair: pair[1]["chica"]):
        rows = []
        for data, in_data in groupby(in_chica, key=lambda pair: pair[1]["data"]):
            in_data = list(in_data)
            row = Row(data=data, dealer=in_data[0][1].get("dealer") or "")
            for entry, decision in in_data:
                points = {s: decision["points"].get(s, 0) for s in "AB"}
                row.scores = {s: decision["scores"].get(s, 0) for s in "AB"}
                if entry.kind == "conteo":
                    row.conteo = {**decision["detail"], "points": points}
                if entry.kind in _MARKERS:
                    continue
                own_row = entry.kind in _OWN_ROW
                item = Item(
                    seq=entry.seq,
                    kind=entry.kind,
                    label=claim_label(entry.claim),
                    side=None if own_row else _side_of(entry.claim, decision),
                    points=points,
                )
                (row.items[item.side] if item.side else row.events).append(item)
            rows.append(row)
        chicas.append(Chica(number=number, rows=rows, result=results.get(number)))
    return chicas, set_aside


@dataclass
class Planilla:
    mesa: Mesa
    language: str
    provisional: bool
    chicas: list
    refused: list
    signatures: dict
    code: str
    verify_url: str  # the check at the hall's address
    mirror_verify_url: str  # the check on the public mirror, where the venue has one ("" where not)
    qr_svg: str  # the mirror's check where there is one (a pair checks from home), else the hall's
    ruleset: str  # the mesa's profile, by its human name
    rules_changed: list
    pairs: list
    appeals: list
    printed_at: object
    played_on: object
    juez_name: str
    inspector_name: str
    signature_boxes: list
    claims_logged: int
    # An unplayed mesa's sheet: a blank grid for each chica it may take, to score on paper if the tablets fail.
    blank_chicas: list
    blank_datas: range

    @property
    def championship(self):
        return self.mesa.championship

    @property
    def footer_css(self) -> str:
        """The running footer as the inside of a CSS string literal; every
        character that could end the string or the <style> is escaped."""
        verification = _("verification")
        text = " · ".join(
            [
                _("Planilla de Juego"),
                shown(str(self.championship), "line"),
                mesa_label(self.mesa),
                f"{verification} {self.code}",
            ]
        )
        return "".join(f"\\{ord(ch):x} " if ch in "\"\\<>&'\n" else ch for ch in text)

    @property
    def chica_results(self):
        return [c.result for c in self.chicas if c.result]


def _pair_block(side, pair) -> dict:
    """A pair's heading and its players, one line each, the representative
    marked with a star."""
    players = list(pair.players.all()) if pair else []
    heading = f"{side} · " + (shown(pair.name, "name") if pair else _("to be decided"))
    if pair and pair.club:
        heading += f" · {shown(pair.club, 'name')}"
    lines = []
    for number, player in enumerate(players, start=1):
        line = f"{number}. {shown(player.full_name, 'name')}"
        if player.id_number:
            line += f" ({shown(player.id_number, 'name')})"
        if player.is_representative:
            line += " ★ " + _("representative")
        lines.append(line)
    return {"side": side, "pair": pair, "players": players, "heading": heading, "players_text": "\n".join(lines)}


def _signature_box(title, name, signature) -> dict:
    """A signature box: the drawn signature, if any, over who signs (and when).

    The drawing is checked again as the API checks it (a real, small PNG
    with ink): a stored image that is not one prints as an empty box
    rather than reaching the PDF renderer."""
    who = f"{title}\n{shown(name, 'name')}"
    image = None
    if signature:
        who += " · " + date_format(timezone.localtime(signature.signed_at), "SHORT_DATETIME_FORMAT")
        try:
            check_png_data_url(signature.image)
            image = signature.image
        except SignatureError:
            pass
    return {"title": title, "name": name, "signature": signature, "image": image, "who": who}


def _signature_boxes(mesa, pairs, signatures) -> list[dict]:
    """The three boxes of Art. 16: each pair's representative, then the juez."""
    boxes = []
    for block in pairs:
        representative = next((p for p in block["players"] if p.is_representative), None)
        signature = signatures.get(block["side"])
        boxes.append(
            _signature_box(
                _("Representative of pair %(side)s") % {"side": block["side"]},
                signature.name if signature else (representative.full_name if representative else ""),
                signature,
            )
        )
    signature = signatures.get(Signature.Role.JUEZ)
    boxes.append(_signature_box(_("Juez"), signature.name if signature else person_name(mesa.juez), signature))
    return boxes


# The rows of a blank chica: more datas than most chicas take.
BLANK_DATAS = 12


def build(mesa: Mesa, base_url: str = "", language: str | None = None, code: str | None = None) -> Planilla:
    """Everything the sheet shows for ``mesa``, read from the database.

    ``base_url`` is the site's address (``https://host``) that the printed
    link points at, and the QR code too unless the venue has a public mirror
    (``MIRROR_URL``): then the QR code points at the mirror's check, which
    answers from anywhere, and the hall's address is printed beside it.
    ``code``: the code already checked, where the record's own cannot be
    computed (a mirror has neither the venue's key nor the private parts of
    the record, ``mirror.codes``).
    """
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(language):
        entries = list(mesa.claims.order_by("seq"))
        signatures = {s.role: s for s in mesa.signatures.all()}
        ruleset = mesa.ruleset  # the rules the mesa started with
        replayed = mesa_replay(mesa).as_dict()
        chicas, refused = chicas_from_log(entries, replayed["decisions"], replayed["state"]["chica_results"])
        appeals = list(mesa.appeals.order_by("filed_at", "pk"))
        code = code or verification_code(mesa, entries=entries, signatures=signatures.values(), appeals=appeals)
        verify_url = base_url.rstrip("/") + verification_path(code)
        # A mirror's own pages point at themselves: they are the mirror.
        mirror_verify_url = (
            settings.MIRROR_URL + verification_path(code) if settings.MIRROR_URL and not settings.MIRROR else ""
        )
        pairs = []
        seats = {}
        for side in "AB":
            block = _pair_block(side, mesa.pair(side))
            pairs.append(block)
            seats.update({f"{side}{p.number}": shown(p.full_name, "name") for p in block["players"]})
        for chica in chicas:
            for row in chica.rows:
                row.dealer_name = seats.get(row.dealer, "")
        when = mesa.finished_at or mesa.started_at
        return Planilla(
            mesa=mesa,
            language=language,
            provisional=mesa.status not in FINAL_STATUSES,
            chicas=chicas,
            refused=refused,
            signatures=signatures,
            code=code,
            verify_url=verify_url,
            mirror_verify_url=mirror_verify_url,
            qr_svg=qr_svg(mirror_verify_url or verify_url),
            ruleset=profile_name(ruleset.profile, language),
            rules_changed=[r for r in ruleset.describe(language) if r["changed"]],
            pairs=pairs,
            appeals=appeals,
            printed_at=timezone.localtime(),
            played_on=timezone.localdate(when) if when else mesa.championship.start_date,
            juez_name=shown(person_name(mesa.juez), "name"),
            inspector_name=shown(person_name(mesa.inspector), "name"),
            signature_boxes=_signature_boxes(mesa, pairs, signatures),
            claims_logged=len(entries),
            blank_chicas=[]
            if entries or mesa.status == Mesa.Status.WALKOVER
            else list(range(1, ruleset.most_chicas + 1)),
            blank_datas=range(1, BLANK_DATAS + 1),
        )


def qr_svg(url: str) -> str:
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", xmldecl=False, svgns=True, nl=False, border=0, omitsize=True, svgclass="qr", lineclass=None
    )
    return buffer.getvalue().decode()


def mesas_for_print():
    """Mesas with everything the sheet reads, in one query each relation."""
    return Mesa.objects.select_related(
        "championship",
        "pair_a",
        "pair_b",
        "winner",
        "juez",
        "inspector",
    ).prefetch_related("pair_a__players", "pair_b__players", "signatures")

"""The championship's data: who plays, where, and how far they got.

Terms
-----
championship
    One edition of a tournament, with its rule set (a profile plus
    overrides, validated by the engine) and its bracket format.
pair (pareja)
    Two players who play as partners; one of them is the representative who
    signs the planilla (Art. 3a, 16). In the 1-vs-1 variant a "pair" has one
    player.
mesa
    One match between two pairs at one physical table, best of three chicas.
    Its place in the bracket is (bracket, round, position); the pairs that
    will play it may still be unknown. ``winner_to``/``loser_to`` say which
    mesa the winner and the loser go on to, and in which slot.
header
    What a mesa's claim log is replayed from, in the format of ``manage.py
    replay``'s first line: ``{"ruleset": profile, "settings": {every
    setting}, "players": 4, "first_dealer": "A1"}``. The claim log stores
    it on the mesa with its first claim, from the championship's rules at
    that moment, and it never changes: a mesa keeps the rule set it started
    with (ruling). Until then the mesa follows its championship's rules.
frozen rules
    Once any mesa of a championship has a claim, the championship's rule
    settings (profile, overrides, players per side) cannot change: saving
    them raises :class:`RulesFrozen`, whoever saves (form, admin, service).
    Nor can its appeal window (Art. 17), and once the bracket is drawn its
    shape (format, third place, group size, pairs advancing per group).
guarded mesa
    A mesa stays in its championship; its result (status decided, winner,
    chicas, zapatería) is written only by ``tournament.results.results`` (from the
    claim log, a walkover, a correction), which saves with ``deciding=True``;
    a started mesa keeps its pairs. Any other save that tries raises
    :class:`Frozen`, whoever saves; a mesa is never deleted alone (its place
    in the bracket would vanish with it).

The rules of the data are database constraints where they can be. Every
text a person types is clean text of its kind (``tournament.validators``:
no control characters, one line, a name at most 120 characters), checked
by every form that saves it, the admin's too.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from typing import Any, NoReturn, TypedDict, cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F, Q
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engines.lookalikes import key as name_key
from engines.rules.rules import DEFAULT_PROFILE, PROFILES, RuleSet, RuleSetError, build_ruleset
from tournament.language import speak
from tournament.locking import locked
from tournament.naming import mesa_label
from tournament.validators import TextValidator


class StoredHeader(TypedDict):
    """A mesa's header as stored (see the module's terms)."""

    ruleset: str
    settings: dict[str, Any]
    players: int
    first_dealer: str


class Frozen(ValidationError):
    """A change that play has gone too far for (see *frozen rules* and *guarded mesa* above)."""


class RulesFrozen(Frozen):
    """A change to a championship's rules after one of its mesas started."""


def new_pin() -> str:
    """A short PIN the organiser prints for the table: six digits."""
    return f"{secrets.randbelow(10**6):06d}"


class Sede(models.Model):
    """Where championships are played: a hall with its numbered physical tables (see ``tournament.seating.sedes``)."""

    name = models.CharField(_("name"), max_length=200, unique=True, validators=[TextValidator("line")])
    plan = models.TextField(
        _("hall plan"),
        max_length=2000,
        blank=True,
        validators=[TextValidator("ruling")],
        help_text=_("Where the tables stand, for whoever seats the pairs (optional)."),
    )

    class Meta:
        verbose_name = _("sede")
        verbose_name_plural = _("sedes")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """One physical table of a sede, with the PIN its card prints: every mesa seated at it opens with it."""

    sede = models.ForeignKey(Sede, on_delete=models.CASCADE, related_name="tables", verbose_name=_("sede"))
    number = models.PositiveSmallIntegerField(_("number"))
    pin = models.CharField(_("PIN"), max_length=6, default=new_pin)
    # Who printed the current PIN again, and when (None: the PIN the table was made with).
    pin_issued_at = models.DateTimeField(_("PIN printed at"), null=True, blank=True, editable=False)
    pin_issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("PIN printed by"),
    )

    class Meta:
        verbose_name = _("physical table")
        verbose_name_plural = _("physical tables")
        ordering = ["sede", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["sede", "number"],
                name="table_number_unique_in_sede",
                violation_error_message=_("This sede already has a table with this number."),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="table_number_from_one",
                violation_error_message=_("Tables are numbered from 1."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sede} · {self.number}"


class JuezDay(models.Model):
    """A juez marked available on a day: assignment gives tables only to the jueces available today."""

    juez = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="available_days")
    day = models.DateField(_("day"))

    class Meta:
        verbose_name = _("juez's available day")
        verbose_name_plural = _("jueces' available days")
        constraints = [
            models.UniqueConstraint(
                fields=["juez", "day"],
                name="juez_available_once_a_day",
                violation_error_message=_("This juez is already marked available on this day."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.juez} {self.day}"


class Championship(models.Model):
    class Format(models.TextChoices):
        DOUBLE = "double", _("Double elimination")
        SINGLE = "single", _("Single elimination")
        ROUND_ROBIN = "round_robin", _("Round-robin groups")

    name = models.CharField(_("name"), max_length=200, validators=[TextValidator("line")])
    edition = models.CharField(_("edition"), max_length=100, blank=True, validators=[TextValidator("line")])
    sede = models.ForeignKey("Sede", on_delete=models.PROTECT, related_name="championships", verbose_name=_("sede"))
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="directed_championships",
        verbose_name=_("Director"),
    )
    ruleset_profile = models.CharField(
        _("rule set profile"),
        max_length=30,
        default=DEFAULT_PROFILE,
        choices=[(name, name) for name in PROFILES],
    )
    ruleset_overrides = models.JSONField(_("rule set overrides"), default=dict, blank=True)
    players_per_pair = models.PositiveSmallIntegerField(
        _("players per side"),
        default=2,
        choices=[(2, _("pairs (4 players)")), (1, _("1 vs 1"))],
    )
    bracket_format = models.CharField(_("bracket format"), max_length=20, choices=Format.choices, default=Format.DOUBLE)
    third_place = models.BooleanField(_("third-place mesa"), default=False)
    group_size = models.PositiveSmallIntegerField(_("pairs per group"), default=4)
    advance_per_group = models.PositiveSmallIntegerField(_("pairs advancing per group"), default=0)
    draw_seed = models.BigIntegerField(_("random draw seed"), null=True, blank=True)
    # The drawn pairs from seed 1 down, as the bracket engine placed them: a correction
    # before play (``draws.correct_draw``) edits this order and draws it again, so the
    # pairs it does not name keep their places.
    draw_order = models.JSONField(_("draw order"), default=list, blank=True, editable=False)
    # Written by the bracket engine's adapter (``tournament.draws.advancement``) with every result.
    champion = models.ForeignKey(
        "Pair",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("champion"),
    )
    appeal_window_minutes = models.PositiveSmallIntegerField(_("appeal window (minutes)"), default=10)
    self_check_in = models.BooleanField(
        _("pairs check themselves in"),
        default=False,
        help_text=_(
            "While on, a pair marks itself present from its own page (its private link or the QR code of its card)."
        ),
    )

    class Start(models.TextChoices):
        DESK = "desk", _("the control desk starts each round")
        TAP = "tap", _("the juez taps “Start mesa” at the table")
        FIRST_CLAIM = "first_claim", _("the juez's first claim starts the mesa")

    auto_seating = models.BooleanField(
        _("seat and call mesas automatically"),
        default=False,
        help_text=_(
            "As soon as a mesa's two pairs are known and a table and a juez are free, it is seated and called."
        ),
    )
    start_mode = models.CharField(
        _("how a seated mesa starts"), max_length=12, choices=Start.choices, default=Start.DESK
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # The settings a mesa's header copies: they cannot change once a mesa started.
    RULE_FIELDS = ("ruleset_profile", "ruleset_overrides", "players_per_pair")
    # What the draw made the bracket from: the mesas' places and routes follow them.
    DRAW_FIELDS = ("bracket_format", "third_place", "group_size", "advance_per_group")
    FROZEN_FIELDS = (*RULE_FIELDS, *DRAW_FIELDS, "appeal_window_minutes")

    class Meta:
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        ordering = ["-start_date", "name"]
        permissions = [("run_championship", _("Can run championships (draw, tables, results)"))]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")),
                name="championship_dates_in_order",
                violation_error_message=_("The end date cannot be before the start date."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.edition}".strip()

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and not set(update_fields) & set(self.FROZEN_FIELDS):
            super().save(*args, **kwargs)
            return
        with transaction.atomic():
            self.check_unchanged(lock=True)
            super().save(*args, **kwargs)

    @property
    def ruleset(self) -> RuleSet:
        return build_ruleset(self.ruleset_profile, self.ruleset_overrides)

    def header(self, first_dealer: str) -> StoredHeader:
        """The header a mesa of this championship starts with now (see the module's terms)."""
        return {
            "ruleset": self.ruleset_profile,
            "settings": self.ruleset.settings(),
            "players": self.players_at_table,
            "first_dealer": first_dealer,
        }

    def started_mesa(self) -> Mesa | None:
        """A mesa of this championship that has a claim (its rules are frozen), or None."""
        if self.pk is None:
            return None
        return self.mesas.filter(last_seq__gt=0).order_by("started_at", "pk").first()

    def check_unchanged(self, lock: bool = False) -> None:
        """Raise :class:`Frozen` when this object changes what play has frozen (see the
        module's terms); ``lock`` the saved row meanwhile (inside a transaction), so
        that no mesa starts with the old rules at the same moment."""
        if self.pk is None:
            return
        saved = Championship.objects.filter(pk=self.pk)
        saved = (locked(saved) if lock else saved).values(*self.FROZEN_FIELDS).first()
        if saved is None:
            return
        self._check_rules(saved)
        drawn = [name for name in self.DRAW_FIELDS if saved[name] != getattr(self, name)]
        if drawn and self.mesas.exists():
            message = gettext("The bracket is drawn: this can no longer change.")
            raise Frozen({name: ValidationError(message, code="draw_frozen") for name in drawn})
        started = self.started_mesa() if saved["appeal_window_minutes"] != self.appeal_window_minutes else None
        if started is not None:
            message = gettext(
                "The appeal window cannot change any more: mesa %(mesa)s has started, and every decision of the"
                " championship has the same window (Art. 17)."
            ) % {"mesa": started}
            raise Frozen({"appeal_window_minutes": ValidationError(message, code="appeal_window_frozen")})

    def _check_rules(self, saved: dict[str, Any]) -> None:
        if all(saved[name] == getattr(self, name) for name in self.RULE_FIELDS):
            return
        try:
            unchanged = (
                build_ruleset(saved["ruleset_profile"], saved["ruleset_overrides"]) == self.ruleset
                and saved["players_per_pair"] == self.players_per_pair
            )
        except RuleSetError:
            unchanged = False
        started = None if unchanged else self.started_mesa()
        if started is not None:
            raise RulesFrozen(
                gettext(
                    "The rules cannot change any more: mesa %(mesa)s has started, and a mesa keeps the rules it"
                    " started with. Every mesa of this championship is played with the rules it has now."
                )
                % {"mesa": started},
                code="rules_frozen",
            )

    def clean(self) -> None:
        try:
            build_ruleset(self.ruleset_profile, self.ruleset_overrides)
        except RuleSetError as error:
            raise ValidationError({"ruleset_overrides": speak(error)}) from error
        self.check_unchanged()
        moved = self.pk is not None and Championship.objects.filter(pk=self.pk).exclude(sede_id=self.sede_id).exists()
        if moved and self.mesas.filter(table_number__isnull=False).exists():
            raise ValidationError(
                {"sede": gettext("Mesas of this championship are seated at its sede's tables: it stays at this sede.")}
            )

    @property
    def players_at_table(self) -> int:
        return 2 * self.players_per_pair


def new_pair_token() -> str:
    """A pair's private link: 32 URL-safe characters, unguessable."""
    return secrets.token_urlsafe(24)


class Pair(models.Model):
    class Arrival(models.TextChoices):
        """Where the pair is on the day (``tournament.pairs.checkin``): each state says one thing."""

        EXPECTED = "expected", _("Expected")
        PRESENT = "present", _("Present")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("championship")
    )
    name = models.CharField(_("name"), max_length=120, validators=[TextValidator("name")])
    club = models.CharField(_("club or city"), max_length=120, blank=True, validators=[TextValidator("name")])
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    # Registered pairs are expected until they arrive (present) or give up (withdrawn): the draw takes the
    # present ones, and the desk tells a pair on its way from one that is not coming.
    arrival = models.CharField(_("arrival"), max_length=10, choices=Arrival.choices, default=Arrival.EXPECTED)
    # The pair's private link (``public``): printed as a QR code on its card; a new one replaces it.
    token = models.CharField(_("private link"), max_length=64, unique=True, default=new_pair_token, editable=False)
    # Counts the pair's private links: a new one revokes the links signed for the public mirror too (mirror.links).
    link_version = models.PositiveIntegerField(_("private link version"), default=1, editable=False)
    # What the name is compared by (``lookalikes.key``: no case, accents,
    # invisible or look-alike letters), set on every save: two pairs of a
    # championship that people would read as one are refused by the database.
    name_key = models.CharField(_("name as compared"), max_length=480, editable=False)

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["seed", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "name_key"],
                name="pair_name_key_unique_in_championship",
                violation_error_message=_("Another pair of this championship already has this name."),
            ),
            models.UniqueConstraint(
                fields=["championship", "seed"],
                name="pair_seed_unique_in_championship",
                violation_error_message=_("Another pair of this championship already has this seed."),
            ),
            models.CheckConstraint(
                condition=Q(seed__isnull=True) | Q(seed__gte=1),
                name="pair_seed_from_one",
                violation_error_message=_("The seed is a whole number from 1."),
            ),
            models.CheckConstraint(
                condition=Q(arrival__in=["expected", "present", "withdrawn"]),
                name="pair_arrival_known",
                violation_error_message=_("A pair is expected, present or withdrawn."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The key follows the name (``_set_name_key``), in a save of some fields too.
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    def validate_constraints(self, exclude: Collection[str] | None = None) -> None:
        # The key is no form's field but follows the name: a form that checks
        # the name checks the constraint on the key too, rather
        # than leaving it to the database's refusal.
        if exclude is not None and "name" not in exclude:
            exclude = set(exclude) - {"name_key"}
            self.name_key = name_key(self.name)
        super().validate_constraints(exclude=exclude)

    @property
    def present(self) -> bool:
        return self.arrival == self.Arrival.PRESENT

    @property
    def representative(self) -> Player | None:
        return next((p for p in self.players.all() if p.is_representative), None)


@receiver(pre_save, sender=Pair)
def _set_name_key(sender: type[Pair], instance: Pair, **kwargs: Any) -> None:
    """Every save of a pair sets its key: a backup's restore too, whose raw saves skip ``Pair.save``
    (and a backup made before the key existed holds none)."""
    instance.name_key = name_key(instance.name)


class Player(models.Model):
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="players", verbose_name=_("pair"))
    number = models.PositiveSmallIntegerField(_("player number"), choices=[(1, "1"), (2, "2")])
    full_name = models.CharField(_("full name"), max_length=150, validators=[TextValidator("name")])
    id_number = models.CharField(_("ID number"), max_length=20, blank=True, validators=[TextValidator("line")])
    phone = models.CharField(_("phone"), max_length=30, blank=True, validators=[TextValidator("line")])
    is_representative = models.BooleanField(_("representative"), default=False)
    # Who the player is across championships (``tournament.persons``); None for a player registered before.
    person = models.ForeignKey(
        "tournament.Person",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="players",
        verbose_name=_("person"),
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["pair", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["pair", "number"],
                name="player_number_unique_in_pair",
                violation_error_message=_("This pair already has a player with this number."),
            ),
            models.UniqueConstraint(
                fields=["pair"],
                condition=Q(is_representative=True),
                name="one_representative_per_pair",
                violation_error_message=_("A pair has only one representative."),
            ),
        ]

    def __str__(self) -> str:
        return self.full_name


# Why a mesa is never deleted alone, one by one or in bulk.
MESA_KEPT = _("A mesa is a place in its bracket: it goes only with its whole championship.")


class MesaQuerySet(models.QuerySet["Mesa"]):
    """Mesas in bulk, refusing what ``Mesa`` refuses one by one: a queryset's ``delete`` and an
    ``update`` of a guarded field would pass ``Mesa.delete`` and ``Mesa.save`` by. What the product
    does in bulk goes through the named paths below, each keeping the guard's rule itself."""

    def delete(self) -> NoReturn:
        raise Frozen(MESA_KEPT, code="mesa_kept")

    def update(self, **fields: Any) -> int:
        # An update names concrete fields only.
        names = {cast("models.Field[Any, Any]", self.model._meta.get_field(name)).attname for name in fields}
        guarded = names & set(Mesa.GUARDED_FIELDS)
        if guarded:
            raise Frozen(
                gettext("The mesas' %(fields)s change one mesa at a time, by its acts, never in bulk.")
                % {"fields": ", ".join(sorted(guarded))},
                code="mesa_guarded",
            )
        return super().update(**fields)

    def remove_unstarted(self) -> tuple[int, dict[str, int]]:
        """Delete these mesas, none of them started (the draw's correction before play): no claim,
        appeal or signature holds them. Refused whole when one has started."""
        if self.exclude(**Mesa.NOT_STARTED).exists():
            raise Frozen(MESA_KEPT, code="mesa_kept")
        return super().delete()

    def settle_pairs(self, pair_a_id: int | None, pair_b_id: int | None, status: str) -> int:
        """Seat these pairs at those of the mesas that have not started (the bracket adapter's
        write-back), ready or waiting (``status``); the number of mesas changed."""
        assert status in (Mesa.Status.WAITING, Mesa.Status.READY)
        return super(MesaQuerySet, self.filter(**Mesa.NOT_STARTED)).update(
            pair_a_id=pair_a_id, pair_b_id=pair_b_id, status=status
        )

    def make_ready(self) -> int:
        """The waiting mesas among these whose two pairs are known, ready (a round's start); how many."""
        waiting = self.filter(status=Mesa.Status.WAITING, pair_a__isnull=False, pair_b__isnull=False)
        return super(MesaQuerySet, waiting).update(status=Mesa.Status.READY)


class Mesa(models.Model):
    class Bracket(models.TextChoices):
        WINNERS = "W", _("Winners' bracket")
        LOSERS = "L", _("Losers' bracket")
        GRAND_FINAL = "GF", _("Grand final")
        RESET = "GR", _("Grand final reset")
        THIRD = "3P", _("Third place")
        GROUP = "G", _("Group")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        READY = "ready", _("Ready")
        IN_PLAY = "in_play", _("In play")
        SUSPENDED = "suspended", _("Suspended")
        FINISHED = "finished", _("Finished")
        WALKOVER = "walkover", _("Walkover")

    class Slot(models.TextChoices):
        A = "A", "A"
        B = "B", "B"

    # Decided: finished (Art. 3g.7) or a walkover (a no-show).
    DECIDED = (Status.FINISHED, Status.WALKOVER)
    UNDECIDED = (Status.WAITING, Status.READY, Status.IN_PLAY, Status.SUSPENDED)
    # Started: in play, suspended or decided, or with a claim in its log;
    # the filter of the mesas that have not.
    NOT_STARTED = {"status__in": (Status.WAITING, Status.READY), "last_seq": 0}

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="mesas", verbose_name=_("championship")
    )
    bracket = models.CharField(_("bracket"), max_length=2, choices=Bracket.choices, default=Bracket.WINNERS)
    round = models.PositiveSmallIntegerField(_("round"))
    position = models.PositiveSmallIntegerField(_("position"))
    group = models.PositiveSmallIntegerField(_("group"), null=True, blank=True)
    pair_a = models.ForeignKey(
        Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("pair A")
    )
    pair_b = models.ForeignKey(
        Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("pair B")
    )
    winner_to = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    winner_to_slot = models.CharField(max_length=1, choices=Slot.choices, blank=True)
    loser_to = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    loser_to_slot = models.CharField(max_length=1, choices=Slot.choices, blank=True)

    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    juez = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="judged_mesas",
        verbose_name=_("juez"),
    )
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="inspected_mesas",
        verbose_name=_("inspector"),
    )
    first_dealer = models.CharField(_("first dealer"), max_length=2, default="A1")
    header = models.JSONField(
        _("rules it started with"),
        null=True,
        blank=True,
        editable=False,
        help_text="Set with the first claim, never changed: the rules the log is replayed with.",
    )

    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)
    chicas_a = models.PositiveSmallIntegerField(_("chicas of pair A"), default=0)
    chicas_b = models.PositiveSmallIntegerField(_("chicas of pair B"), default=0)
    winner = models.ForeignKey(
        Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("winner")
    )
    zapateria = models.BooleanField(_("zapatería"), default=False)
    # The engine's state after the last claim, kept with the log in one
    # transaction so that lists and boards need not replay every mesa.
    state = models.JSONField(default=dict, blank=True)
    last_seq = models.PositiveIntegerField(default=0)
    # When it got both its table and its juez: called to the table, waiting from then on.
    seated_at = models.DateTimeField(null=True, blank=True, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = MesaQuerySet.as_manager()

    class Meta:
        verbose_name = _("mesa")
        verbose_name_plural = _("mesas")
        ordering = ["championship", "bracket", "round", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "bracket", "round", "position"],
                name="mesa_place_unique",
                violation_error_message=_(
                    "This championship already has a mesa in this place of the bracket (bracket, round and position)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(pair_a__isnull=True) | Q(pair_b__isnull=True) | ~Q(pair_a=F("pair_b")),
                name="mesa_pairs_differ",
                violation_error_message=_("A mesa is played by two different pairs."),
            ),
            models.UniqueConstraint(
                fields=["championship", "table_number"],
                condition=Q(status__in=["in_play", "suspended"]),
                name="one_mesa_in_play_per_table",
                violation_error_message=_("Another mesa of this championship is in play at this table."),
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("pair_a")) | Q(winner=F("pair_b")),
                name="mesa_winner_is_one_of_its_pairs",
                violation_error_message=_("The winner must be one of the mesa's pairs."),
            ),
            # A decided mesa has a winner, and only a decided mesa has one.
            models.CheckConstraint(
                condition=Q(status__in=["finished", "walkover"], winner__isnull=False)
                | (~Q(status__in=["finished", "walkover"]) & Q(winner__isnull=True)),
                name="mesa_winner_iff_decided",
                violation_error_message=_(
                    "A decided mesa (finished or walkover) has a winner, and only a decided mesa has one."
                ),
            ),
            # Only a mesa whose two pairs are known can be played.
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "walkover"]) | Q(pair_a__isnull=False, pair_b__isnull=False),
                name="mesa_played_by_two_pairs",
                violation_error_message=_("A mesa can be ready or played only once both its pairs are known."),
            ),
            models.CheckConstraint(
                condition=Q(table_number__isnull=True) | Q(table_number__gte=1),
                name="mesa_table_from_one",
                violation_error_message=_("Tables are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=Q(winner_to__isnull=True) | ~Q(winner_to_slot=""),
                name="mesa_winner_to_has_slot",
                violation_error_message=_("Say on which side of the next mesa the winner plays."),
            ),
            models.CheckConstraint(
                condition=Q(loser_to__isnull=True) | ~Q(loser_to_slot=""),
                name="mesa_loser_to_has_slot",
                violation_error_message=_("Say on which side of the next mesa the loser plays."),
            ),
            # A juez referees one mesa at a time.
            models.UniqueConstraint(
                fields=["juez"],
                condition=Q(status__in=["in_play", "suspended"]),
                name="one_mesa_in_play_per_juez",
                violation_error_message=_("This juez is already refereeing another mesa in play."),
            ),
        ]

    def __str__(self) -> str:
        return mesa_label(self)

    # What ``save`` compares with the saved row (see *guarded mesa* above).
    RESULT_FIELDS = ("winner_id", "chicas_a", "chicas_b", "zapateria")
    GUARDED_FIELDS = ("championship_id", "header", "status", "pair_a_id", "pair_b_id", *RESULT_FIELDS)
    # ``guarded_values`` as a caller read them under the row's lock, kept for its save (the claim log's).
    as_locked: dict[str, object] | None = None

    def save(
        self, *args: Any, deciding: bool = False, as_locked: dict[str, object] | None = None, **kwargs: Any
    ) -> None:
        """Save, refusing what no caller may do (see *guarded mesa* above); ``deciding``:
        ``tournament.results.results`` writes a result. ``as_locked``: the row's ``guarded_values`` as the caller read
        them under its lock in this transaction (no one can have changed them since), checked against instead of
        reading the row again."""
        if self.pk is not None:
            update_fields = kwargs.get("update_fields")
            names = {f.attname for f in self._meta.concrete_fields if update_fields is None or f.name in update_fields}
            checked = [name for name in self.GUARDED_FIELDS if name in names]
            if checked:
                saved = as_locked
                if saved is None:
                    saved = Mesa.objects.filter(pk=self.pk).values(*{*checked, "status", "last_seq"}).first()
                if saved is not None:
                    self._check_guarded(saved, checked, deciding)
        super().save(*args, **kwargs)

    def guarded_values(self) -> dict[str, object]:
        """What ``save`` checks a change against, as this object holds it now."""
        return {name: getattr(self, name) for name in (*self.GUARDED_FIELDS, "last_seq")}

    def _check_guarded(self, saved: Mapping[str, Any], checked: list[str], deciding: bool) -> None:
        changed = {name for name in checked if saved[name] != getattr(self, name)}
        if "header" in changed and saved["header"] is not None:
            raise RulesFrozen(
                gettext("Mesa %(mesa)s keeps the rules it started with.") % {"mesa": self}, code="rules_frozen"
            )
        if "championship_id" in changed:
            raise Frozen(gettext("A mesa stays in the championship it was drawn in."), code="championship_frozen")
        result_changed = changed & set(self.RESULT_FIELDS) or (
            "status" in changed and (saved["status"] in Mesa.DECIDED or self.status in Mesa.DECIDED)
        )
        if result_changed and not deciding:
            raise Frozen(
                gettext(
                    "The result of mesa %(mesa)s is written by its claim log, a walkover or a correction, never"
                    " directly."
                )
                % {"mesa": self},
                code="result_guarded",
            )
        started = saved["status"] not in (Mesa.Status.WAITING, Mesa.Status.READY) or saved["last_seq"] > 0
        if started and changed & {"pair_a_id", "pair_b_id"}:
            raise Frozen(
                gettext("Mesa %(mesa)s has started: it keeps its pairs.") % {"mesa": self}, code="pairs_frozen"
            )

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise Frozen(MESA_KEPT, code="mesa_kept")

    def clean(self) -> None:
        """A mesa's pairs belong to its championship: the database cannot say
        so across tables, so its validation checks it here."""
        errors = {}
        for field in ("pair_a", "pair_b", "winner"):
            pair = getattr(self, field)
            if pair is not None and pair.championship_id != self.championship_id:
                errors[field] = _("This pair is registered in another championship.")
        if errors:
            raise ValidationError(errors)

    @property
    def has_started(self) -> bool:
        """See ``NOT_STARTED``: a started mesa keeps its pairs and its result needs no draw to stand."""
        return self.status not in (self.Status.WAITING, self.Status.READY) or self.last_seq > 0

    def pair(self, side: str) -> Pair | None:
        """The pair on side ``"A"`` or ``"B"``: the engine's names for them."""
        return self.pair_a if side == "A" else self.pair_b

    def rules_header(self) -> StoredHeader:
        """The header its log is replayed with: its own once it started, else its championship's now."""
        return self.header if self.header is not None else self.championship.header(self.first_dealer)

    @property
    def ruleset(self) -> RuleSet:
        """The mesa's own rule set (see :meth:`rules_header`)."""
        header = self.rules_header()
        return build_ruleset(header["ruleset"], header["settings"])

    @property
    def players_at_table(self) -> int:
        return self.rules_header()["players"]


# The ratings feature's models belong to this app: imported here so that Django registers them with it.
from tournament.ratings.models import Doubt, Person, PersonChange, Rating, RatingChange  # noqa: E402, F401

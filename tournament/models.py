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

The rules of the data are database constraints where they can be.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from refereeing.engine.rules import DEFAULT_PROFILE, PROFILES, RuleSetError, build_ruleset


class Championship(models.Model):
    class Format(models.TextChoices):
        DOUBLE = "double", _("Double elimination")
        SINGLE = "single", _("Single elimination")
        ROUND_ROBIN = "round_robin", _("Round-robin groups")

    name = models.CharField(_("name"), max_length=200)
    edition = models.CharField(_("edition"), max_length=100, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="directed_championships", verbose_name=_("Director"),
    )
    ruleset_profile = models.CharField(
        _("rule set profile"), max_length=30, default=DEFAULT_PROFILE,
        choices=[(name, name) for name in PROFILES],
    )
    ruleset_overrides = models.JSONField(_("rule set overrides"), default=dict, blank=True)
    players_per_pair = models.PositiveSmallIntegerField(
        _("players per side"), default=2, choices=[(2, _("pairs (4 players)")), (1, _("1 vs 1"))],
    )
    bracket_format = models.CharField(_("bracket format"), max_length=20, choices=Format.choices, default=Format.DOUBLE)
    third_place = models.BooleanField(_("third-place mesa"), default=False)
    group_size = models.PositiveSmallIntegerField(_("pairs per group"), default=4)
    advance_per_group = models.PositiveSmallIntegerField(_("pairs advancing per group"), default=0)
    draw_seed = models.BigIntegerField(_("random draw seed"), null=True, blank=True)
    appeal_window_minutes = models.PositiveSmallIntegerField(_("appeal window (minutes)"), default=10)
    tables = models.PositiveSmallIntegerField(
        _("tables"), default=16, help_text=_("How many physical tables the venue has, numbered from 1."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        ordering = ["-start_date", "name"]
        permissions = [("run_championship", _("Can run championships (draw, tables, results)"))]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="championship_dates_in_order"),
            models.CheckConstraint(condition=Q(tables__gte=1), name="championship_has_a_table"),
        ]

    def __str__(self):
        return f"{self.name} {self.edition}".strip()

    @property
    def ruleset(self):
        return build_ruleset(self.ruleset_profile, self.ruleset_overrides)

    def clean(self):
        from django.core.exceptions import ValidationError
        try:
            self.ruleset
        except RuleSetError as error:
            raise ValidationError({"ruleset_overrides": str(error)})

    @property
    def players_at_table(self):
        return 2 * self.players_per_pair


class Pair(models.Model):
    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="pairs")
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club or city"), max_length=120, blank=True)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["seed", "name"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "name"], name="pair_name_unique_in_championship"),
            models.UniqueConstraint(fields=["championship", "seed"], name="pair_seed_unique_in_championship"),
            models.CheckConstraint(condition=Q(seed__isnull=True) | Q(seed__gte=1), name="pair_seed_from_one"),
        ]

    def __str__(self):
        return self.name

    @property
    def representative(self):
        return next((p for p in self.players.all() if p.is_representative), None)


class Player(models.Model):
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveSmallIntegerField(_("player number"), choices=[(1, "1"), (2, "2")])
    full_name = models.CharField(_("full name"), max_length=150)
    id_number = models.CharField(_("ID number"), max_length=20, blank=True)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    is_representative = models.BooleanField(_("representative"), default=False)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["pair", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "number"], name="player_number_unique_in_pair"),
            models.UniqueConstraint(
                fields=["pair"], condition=Q(is_representative=True), name="one_representative_per_pair",
            ),
        ]

    def __str__(self):
        return self.full_name


def new_pin():
    """A short PIN the organiser prints for the table: six digits."""
    return f"{secrets.randbelow(10**6):06d}"


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

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="mesas")
    bracket = models.CharField(_("bracket"), max_length=2, choices=Bracket.choices, default=Bracket.WINNERS)
    round = models.PositiveSmallIntegerField(_("round"))
    position = models.PositiveSmallIntegerField(_("position"))
    group = models.PositiveSmallIntegerField(_("group"), null=True, blank=True)
    pair_a = models.ForeignKey(Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("pair A"))
    pair_b = models.ForeignKey(Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("pair B"))
    winner_to = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    winner_to_slot = models.CharField(max_length=1, choices=Slot.choices, blank=True)
    loser_to = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    loser_to_slot = models.CharField(max_length=1, choices=Slot.choices, blank=True)

    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    juez = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="judged_mesas", verbose_name=_("juez"),
    )
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="inspected_mesas", verbose_name=_("inspector"),
    )
    pin = models.CharField(_("PIN"), max_length=6, default=new_pin)
    first_dealer = models.CharField(_("first dealer"), max_length=2, default="A1")

    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)
    chicas_a = models.PositiveSmallIntegerField(default=0)
    chicas_b = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(Pair, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("winner"))
    zapateria = models.BooleanField(_("zapatería"), default=False)
    # The engine's state after the last claim, kept with the log in one
    # transaction so that lists and boards need not replay every mesa.
    state = models.JSONField(default=dict, blank=True)
    last_seq = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("mesa")
        verbose_name_plural = _("mesas")
        ordering = ["championship", "bracket", "round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "bracket", "round", "position"], name="mesa_place_unique"),
            models.CheckConstraint(
                condition=Q(pair_a__isnull=True) | Q(pair_b__isnull=True) | ~Q(pair_a=F("pair_b")),
                name="mesa_pairs_differ",
            ),
            models.UniqueConstraint(
                fields=["championship", "table_number"],
                condition=Q(status__in=["in_play", "suspended"]),
                name="one_mesa_in_play_per_table",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("pair_a")) | Q(winner=F("pair_b")),
                name="mesa_winner_is_one_of_its_pairs",
            ),
            # A decided mesa has a winner, and only a decided mesa has one.
            models.CheckConstraint(
                condition=Q(status__in=["finished", "walkover"], winner__isnull=False)
                | (~Q(status__in=["finished", "walkover"]) & Q(winner__isnull=True)),
                name="mesa_winner_iff_decided",
            ),
            # Only a mesa whose two pairs are known can be played.
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "walkover"])
                | Q(pair_a__isnull=False, pair_b__isnull=False),
                name="mesa_played_by_two_pairs",
            ),
            models.CheckConstraint(condition=Q(table_number__isnull=True) | Q(table_number__gte=1), name="mesa_table_from_one"),
            models.CheckConstraint(condition=Q(winner_to__isnull=True) | ~Q(winner_to_slot=""), name="mesa_winner_to_has_slot"),
            models.CheckConstraint(condition=Q(loser_to__isnull=True) | ~Q(loser_to_slot=""), name="mesa_loser_to_has_slot"),
            # A juez referees one mesa at a time.
            models.UniqueConstraint(
                fields=["juez"], condition=Q(status__in=["in_play", "suspended"]), name="one_mesa_in_play_per_juez",
            ),
        ]

    def __str__(self):
        return f"{self.get_bracket_display()} R{self.round}-{self.position}"

    def clean(self):
        """A mesa's pairs belong to its championship: the database cannot say
        so across tables, so the admin's forms check it here."""
        from django.core.exceptions import ValidationError
        errors = {}
        for field in ("pair_a", "pair_b", "winner"):
            pair = getattr(self, field)
            if pair is not None and pair.championship_id != self.championship_id:
                errors[field] = _("This pair is registered in another championship.")
        if errors:
            raise ValidationError(errors)

    def pair(self, side):
        """The pair on side ``"A"`` or ``"B"``: the engine's names for them."""
        return self.pair_a if side == "A" else self.pair_b

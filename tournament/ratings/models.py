"""Persons across championships, and their ratings from the record.

Persons (``identity``, ``merging``)
-------
person
    Someone who plays: known by cédula where one was given, otherwise by
    name and club, compared by their keys (``lookalikes.key``: case,
    accents, spaces and look-alike letters aside). Each player of a pair
    (``Player.person``) is one person; a person plays in one pair of a
    championship. The cédula stays private (never on a public page or the
    mirror: ``mirror.publication``).
doubt
    A player whose name is a known person's but whose club is another and
    who brought no cédula to tell them apart: linked to a person of their
    own until the desk says whether the two are one (``identity.resolve``).
    Never merged silently.
change
    A merge of two persons or a split of one, an act of the Comité's
    (``merging``), kept with what it moved so that it can be undone.

Ratings (``ratings``: derived, never edited)
-------
rating
    A person's strength as the Weng–Lin model (``skill``) estimates it
    after every rated mesa: a mean ``mu`` and its uncertainty ``sigma``.
    ``strength`` is the conservative estimate, ``mu - K·sigma``
    (``skill.K``), by which the ranking and the seeds order people.
rating change
    What one rated mesa made of one of its players' ratings, in the order
    the mesas ended (``at``, the mesa's end; then the mesa's id). The
    person's page draws them; a rebuild (``ratings.rebuild``) writes them
    all again from the results and gives the same figures.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.validators import TextValidator


class Person(models.Model):
    full_name = models.CharField(_("full name"), max_length=150, validators=[TextValidator("name")])
    # The club of the pair the person last played in (as ``Pair.club``).
    club = models.CharField(_("club or city"), max_length=120, blank=True, validators=[TextValidator("name")])
    # What the name and the club are compared by (``lookalikes.key``), set with them.
    name_key = models.CharField(_("name as compared"), max_length=600, editable=False, db_index=True)
    club_key = models.CharField(_("club as compared"), max_length=480, editable=False, blank=True)
    id_number = models.CharField(_("ID number"), max_length=20, blank=True, validators=[TextValidator("line")])
    # A person merged into another (``merging``) keeps its row, so that the merge can be undone and
    # an old link to its page leads to the person it became.
    merged_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("merged into")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("persons")
        ordering = ["full_name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["id_number"],
                condition=~Q(id_number=""),
                name="person_id_number_unique",
                violation_error_message=_("Another person already has this ID number."),
            ),
        ]

    def __str__(self) -> str:
        return self.full_name


class Doubt(models.Model):
    """A player who may be ``candidate`` (see *doubt* above); ``same`` is the desk's answer (None: open)."""

    player = models.OneToOneField(
        "tournament.Player", on_delete=models.CASCADE, related_name="doubt", verbose_name=_("player")
    )
    candidate = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+", verbose_name=_("may be"))
    same = models.BooleanField(_("the same person"), null=True, blank=True)
    resolved_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )

    class Meta:
        verbose_name = _("identity to confirm")
        verbose_name_plural = _("identities to confirm")

    def __str__(self) -> str:
        return f"{self.player} ≟ {self.candidate}"


class PersonChange(models.Model):
    """A merge or a split (see *change* above): ``players`` are the ids it moved from ``source`` to
    ``target``; ``id_number`` the cédula it moved with them ("" for none)."""

    class Kind(models.TextChoices):
        MERGE = "merge", _("Merge")
        SPLIT = "split", _("Split")

    kind = models.CharField(_("kind"), max_length=5, choices=Kind.choices)
    source = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+", verbose_name=_("from"))
    target = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+", verbose_name=_("to"))
    players = models.JSONField(_("players moved"), default=list)
    id_number = models.CharField(_("ID number moved"), max_length=20, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True, validators=[TextValidator("line")])
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("by")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("undone by"),
    )

    class Meta:
        verbose_name = _("change of persons")
        verbose_name_plural = _("changes of persons")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.source} → {self.target}"


class Rating(models.Model):
    person = models.OneToOneField(
        "tournament.Person", on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    strength = models.FloatField(_("strength"), db_index=True)
    mesas = models.PositiveIntegerField(_("rated mesas"))
    # The last rated mesa's place in the order (see *change*): a mesa that ends after it is rated on top.
    last_at = models.DateTimeField()
    last_mesa = models.PositiveBigIntegerField()

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.person_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    person = models.ForeignKey("tournament.Person", on_delete=models.CASCADE, related_name="rating_changes")
    mesa = models.ForeignKey("tournament.Mesa", on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    won = models.BooleanField(_("won"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["at", "mesa_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["person", "mesa"],
                name="rating_change_once_per_mesa",
                violation_error_message=_("A mesa changes a person's rating once."),
            ),
        ]
        # A person's changes are found by the unique constraint's index (person first); a rebuild from a place
        # deletes by this one. No more: each is written again by every rated mesa, four rows at a time.
        indexes = [models.Index(fields=["at", "mesa"], name="rating_change_order")]

    def __str__(self) -> str:
        return f"{self.person_id} @ {self.mesa_id}: {self.mu:.2f} ± {self.sigma:.2f}"

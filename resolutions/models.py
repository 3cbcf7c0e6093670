"""The register of the Director's resolutions (Art. 18).

Terms
-----
resolution
    The championship's Director's ruling on something the rules do not
    cover, inside an appeal or not: the situation, the ruling, the articles
    it interprets, the mesas it concerns, and optionally an ``ajuste`` of
    one mesa's points. Numbered from 1 in each championship; final: nothing
    edits or deletes one.
ajuste
    Logged at the mesa as the Director's ``ajuste`` claim through the claim
    log, so that the engine decides it like any claim; ``ajuste_seq`` is its
    entry in the mesa's log.
precedent
    A resolution imported from an earlier championship's export, so that the
    next championship starts with them. It keeps where it came from and how
    its mesas were named there; its ajuste is history, not applied again.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Championship, Mesa

SITUATION_MAX = RULING_MAX = 2000
ARTICLES_MAX = 200
PRECEDENT_MAX = 500


class Resolution(models.Model):
    championship = models.ForeignKey(
        Championship, on_delete=models.PROTECT, related_name="resolutions", verbose_name=_("championship")
    )
    number = models.PositiveIntegerField(_("number"))
    situation = models.TextField(_("situation"), max_length=SITUATION_MAX)
    ruling = models.TextField(_("ruling"), max_length=RULING_MAX)
    articles = models.CharField(_("articles interpreted"), max_length=ARTICLES_MAX, blank=True)
    mesas = models.ManyToManyField(Mesa, blank=True, related_name="resolutions", verbose_name=_("mesas concerned"))
    ajuste_mesa = models.ForeignKey(
        Mesa, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("mesa adjusted")
    )
    ajuste_pair = models.CharField(_("pair adjusted"), max_length=1, blank=True, choices=[("A", "A"), ("B", "B")])
    ajuste_points = models.SmallIntegerField(_("points adjusted"), null=True, blank=True)
    ajuste_seq = models.PositiveIntegerField(_("claim of the adjustment"), null=True, blank=True)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Director"),
    )
    decided_at = models.DateTimeField(_("decided"), default=timezone.now)
    precedent_from = models.CharField(_("precedent from"), max_length=PRECEDENT_MAX, blank=True)
    precedent_mesas = models.CharField(_("mesas there"), max_length=PRECEDENT_MAX, blank=True)
    precedent_number = models.PositiveIntegerField(_("number there"), null=True, blank=True)

    class Meta:
        verbose_name = _("resolution")
        verbose_name_plural = _("resolutions")
        ordering = ["championship", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "number"],
                name="resolution_number_unique",
                violation_error_message=_("This championship already has a resolution with this number."),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="resolution_number_from_one",
                violation_error_message=_("Resolutions are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=Q(ajuste_mesa__isnull=True, ajuste_points__isnull=True, ajuste_pair="")
                | Q(ajuste_mesa__isnull=False, ajuste_points__isnull=False, ajuste_pair__in=["A", "B"]),
                name="resolution_ajuste_whole",
                violation_error_message=_("An adjustment names its mesa, its pair and its points, or none of them."),
            ),
            models.UniqueConstraint(
                fields=["championship", "precedent_from", "precedent_number"],
                condition=Q(precedent_number__isnull=False),
                name="resolution_precedent_once",
                violation_error_message=_("This championship already holds this precedent."),
            ),
        ]

    def __str__(self):
        return _("Resolution %(number)d") % {"number": self.number}

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    """A person who plays (选手), independent of any tournament."""

    name = models.CharField(_("name"), max_length=120)
    chinese_name = models.CharField(_("Chinese name"), max_length=60, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    external_id = models.CharField(
        _("external id"),
        max_length=64,
        blank=True,
        help_text=_("Federation or rating id; unique when given."),
    )
    #: Set when a director merged this player into another (``PlayerMerge``): its entries
    #: moved there; cleared when the merge is undone.  A merged player is never matched.
    merged_into = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("merged into"),
    )

    class Meta:
        ordering = ("name", "id")
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = (
            models.UniqueConstraint(
                fields=["external_id"],
                condition=~Q(external_id=""),
                name="player_external_id_unique",
            ),
            models.CheckConstraint(
                condition=~Q(merged_into=models.F("id")), name="player_not_merged_into_itself"
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.chinese_name})" if self.chinese_name else self.name

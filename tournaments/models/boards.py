from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import seat_position_check
from tournaments.models.tournaments import Tournament


class Board(models.Model):
    """A fixed deal (牌副) for duplicate play, reproducible from its seed.

    Cards are stored in the rules library's canonical text with suits.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="boards", verbose_name=_("tournament")
    )
    number = models.IntegerField(_("number"))
    seed = models.BigIntegerField(_("seed"))
    hand_0 = models.CharField(_("hand of seat 0"), max_length=200)
    hand_1 = models.CharField(_("hand of seat 1"), max_length=200)
    hand_2 = models.CharField(_("hand of seat 2"), max_length=200)
    kitty = models.CharField(_("kitty (底牌)"), max_length=40)
    first_bidder = models.SmallIntegerField(_("first bidder"))

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="board_number_unique"),
            models.CheckConstraint(condition=Q(number__gt=0), name="board_number_positive"),
            models.CheckConstraint(condition=Q(seed__gte=0), name="board_seed_non_negative"),
            seat_position_check("first_bidder", "board_first_bidder_range"),
        )

    def __str__(self) -> str:
        return f"{self.tournament} board {self.number}"

from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.lookups import In, LessThan
from django.utils.translation import gettext_lazy as _

from tournaments.common.json_arrays import JsonArrayLength
from tournaments.common.limits import BOARD_NUMBER_MAX, HANDS_PER_ROUND_MAX
from tournaments.common.seats import SEAT_COUNTS, WILD_RANK_MAX
from tournaments.models.rounds import Round, seat_position_check
from tournaments.models.tournaments import Tournament


class Board(models.Model):
    """A fixed deal (牌副) for duplicate play, reproducible from its seed.

    Cards are stored in the rules library's canonical text with suits.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="boards", verbose_name=_("tournament")
    )
    number = models.IntegerField(_("number"), validators=[MaxValueValidator(BOARD_NUMBER_MAX)])
    seed = models.BigIntegerField(_("seed"))
    #: Each seat's cards, by seat position, in canonical text: one string a seat.
    seat_cards = models.JSONField(_("cards, by seat"))
    # blank: six players with 27 each have no kitty (six_p_no_kitty, R13.2)
    kitty = models.CharField(_("kitty (底牌)"), max_length=40, blank=True)
    #: A ``laizi`` board's wild rank (0 … 12: 3 … 2), kept from the table until the landlord
    #: is known (R11.2.1); None on the other profiles' boards.
    wild_rank = models.SmallIntegerField(_("wild rank (癞子)"), null=True, blank=True)
    #: The first bidder; in ``six_p`` the landlord, the holder of the face-up card (R13.3).
    first_bidder = models.SmallIntegerField(_("first bidder"))
    #: A ``six_p`` board's face-up card with its copy (``♥Q#3``, R13.3, R13.10); "" otherwise.
    face_up = models.CharField(_("face-up card"), max_length=8, blank=True, default="")

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="board_number_unique"),
            models.CheckConstraint(condition=Q(number__gt=0), name="board_number_positive"),
            models.CheckConstraint(
                condition=Q(number__lte=BOARD_NUMBER_MAX), name="board_number_at_most_max"
            ),
            models.CheckConstraint(condition=Q(seed__gte=0), name="board_seed_non_negative"),
            seat_position_check("first_bidder", "board_first_bidder_range"),
            models.CheckConstraint(
                condition=Q(wild_rank__range=(0, WILD_RANK_MAX)), name="board_wild_rank_range"
            ),
            models.CheckConstraint(
                condition=Q(In(JsonArrayLength("seat_cards"), list(SEAT_COUNTS))),
                name="board_hands_one_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(LessThan(F("first_bidder"), JsonArrayLength("seat_cards"))),
                name="board_first_bidder_at_table",
            ),
        )

    def __str__(self) -> str:
        return f"{self.tournament} board {self.number}"


class RoundBoard(models.Model):
    """The board played as hand ``hand_number`` at every table of a section in a round
    (duplicate, 复式: the same cards at every table, SPEC R10.4.1)."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="boards", verbose_name=_("round")
    )
    section = models.SmallIntegerField(_("section"), default=1)
    hand_number = models.IntegerField(
        _("hand number"), validators=[MaxValueValidator(HANDS_PER_ROUND_MAX)]
    )
    board = models.ForeignKey(
        Board, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("board")
    )

    class Meta:
        ordering = ("round", "section", "hand_number")
        verbose_name = _("board of a round")
        verbose_name_plural = _("boards of rounds")
        constraints = (
            models.UniqueConstraint(
                fields=["round", "section", "hand_number"], name="round_board_hand_unique"
            ),
            models.UniqueConstraint(
                fields=["round", "section", "board"], name="round_board_once_per_section"
            ),
            models.CheckConstraint(
                condition=Q(hand_number__gt=0), name="round_board_hand_number_positive"
            ),
            models.CheckConstraint(condition=Q(section__gt=0), name="round_board_section_positive"),
            models.CheckConstraint(
                condition=Q(hand_number__lte=HANDS_PER_ROUND_MAX),
                name="round_board_hand_number_at_most_max",
            ),
        )

    def __str__(self) -> str:
        return f"{self.round} S{self.section} hand {self.hand_number}: board {self.board.number}"

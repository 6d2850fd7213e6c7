"""Input forms of the director screens: they parse and label fields; every rule is the
services' (their ApplicationError is shown as the form's error)."""

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from referee.rules.six_five_scoring import MAX_BOMBS_SIX
from tournaments.common.limits import (
    HANDS_PER_ROUND_MAX,
    REGISTRATION_ORDER_MAX,
    ROUNDS_PLANNED_MAX,
    STAKE_CAP_MAX,
)
from tournaments.common.seat_names import seat_name, seat_name_lazy
from tournaments.common.seats import DEFAULT_SEATS
from tournaments.common.validation import PENALTY_POINTS_MAX
from tournaments.models import ConfirmedBy, TournamentFormat, offered_rule_profiles


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Short name (in addresses)"), max_length=80)
    rule_profile = forms.ChoiceField(
        label=_("Rules"),
        choices=offered_rule_profiles,
        help_text=_(
            "Dou Dizhu: the competition rules 2016 or the classic rules (three players); four "
            "players with two packs, or wild cards (癞子), refereed play by play. Big Three "
            "(大三 / 挖坑) is a related game for three: 52 cards without jokers, 16 each and a "
            "hole (坑) of 4, ranks 4 < … < A < 2 < 3; the digger (挖坑者) plays alone against "
            "the other two, no doubling, no bombs. Its bids go on until two passes; in the "
            "one-round form each player bids once, and if nobody bids the first bidder digs "
            "at 1 (烂挖)."
        ),
    )
    format = forms.ChoiceField(label=_("Format"), choices=TournamentFormat.choices)
    hands_per_round = forms.IntegerField(
        label=_("Hands per round"), min_value=1, max_value=HANDS_PER_ROUND_MAX, initial=6
    )
    rounds_planned = forms.IntegerField(
        label=_("Rounds planned"),
        min_value=0,
        max_value=ROUNDS_PLANNED_MAX,
        initial=0,
        required=False,
        help_text=_(
            "How many rounds the event has: the screens show “round 2 of 5” and what is "
            "left. 0 or empty: not planned."
        ),
    )
    stake_cap = forms.IntegerField(
        label=_("Stake cap (封顶)"),
        min_value=0,
        max_value=STAKE_CAP_MAX,
        required=False,
        help_text=_(
            "Five players: the largest multiplier a hand may reach (×2 a bomb and a spring, "
            "R14.7), e.g. 16 or 64; bombs are frequent with two packs. 0 or empty: no cap. "
            "The other games have no cap."
        ),
    )
    requires_confirmation = forms.BooleanField(
        label=_("Results need a second person's confirmation"), required=False
    )
    confirmed_by = forms.ChoiceField(
        label=_("Who confirms a hand"),
        choices=ConfirmedBy.choices,
        initial=ConfirmedBy.OFFICIAL,
        required=False,
    )
    separate_clubs = forms.BooleanField(label=_("Keep clubs apart"), required=False)
    is_public = forms.BooleanField(
        label=_("Public"),
        required=False,
        help_text=_(
            "Ticked, anyone can see the tournament's pages (/t/<short name>/: rounds, "
            "seating, live tables, standings). Unticked, only directors see them, as a "
            "preview. You can change this later on the tournament's page."
        ),
    )
    tiebreaks = forms.CharField(
        label=_("Tie-break chain"),
        required=False,
        help_text=_("Comma-separated, first decides first; empty: the format's default."),
    )

    def clean_rounds_planned(self) -> int:
        return self.cleaned_data.get("rounds_planned") or 0

    def clean_stake_cap(self) -> int:
        return self.cleaned_data.get("stake_cap") or 0

    def clean_confirmed_by(self) -> str:
        return self.cleaned_data.get("confirmed_by") or ConfirmedBy.OFFICIAL

    def clean_tiebreaks(self) -> list[str]:
        text = self.cleaned_data.get("tiebreaks") or ""
        return [name.strip() for name in text.split(",") if name.strip()]


class TournamentSettingsForm(TournamentForm):
    """The settings of an existing tournament; every change is logged with this reason."""

    change_reason = forms.CharField(
        label=_("Reason for the change (kept in the history)"), max_length=2000, required=False
    )


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    chinese_name = forms.CharField(label=_("Chinese name"), max_length=60, required=False)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    external_id = forms.CharField(label=_("External id"), max_length=64, required=False)


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(label=_("or paste the CSV"), widget=forms.Textarea, required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=2000)


def _doubled_text(position: int) -> str:
    return gettext("%(seat)s doubled (加倍)") % {"seat": seat_name(position)}


_doubled_label = lazy(_doubled_text, str)


class ResultForm(forms.Form):
    """A hand's result, for a table of ``seats`` seats (the hand's): the landlord among them,
    one "doubled" box a seat (``doubled_<position>``)."""

    landlord = forms.TypedChoiceField(label=_("Landlord seat"), coerce=int)
    bid = forms.TypedChoiceField(label=_("Bid"), coerce=int, choices=[(1, "1"), (2, "2"), (3, "3")])
    # six players only (``CorrectionForm``): the third copy's holder, or nobody (R13.4)
    partner = forms.TypedChoiceField(
        label=_("Partner (暗地主)"), coerce=int, empty_value=None, required=False
    )
    winner = forms.ChoiceField(
        label=_("Winner"), choices=[("landlord", _("Landlord")), ("defenders", _("Defenders"))]
    )
    redoubled = forms.BooleanField(label=_("Redoubled"), required=False)
    bombs = forms.IntegerField(label=_("Bombs"), min_value=0, max_value=13, initial=0)
    rockets = forms.IntegerField(label=_("Rockets"), min_value=0, max_value=1, initial=0)
    spring = forms.BooleanField(label=_("Spring (春天)"), required=False)
    anti_spring = forms.BooleanField(label=_("Anti-spring (反春)"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=2000)

    def __init__(self, *args: Any, seats: int = DEFAULT_SEATS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        landlord: Any = self.fields["landlord"]
        landlord.choices = [(position, seat_name_lazy(position)) for position in range(seats)]
        partner: Any = self.fields["partner"]
        partner.choices = [("", _("Nobody: the landlord played alone")), *landlord.choices]
        boxes = {
            f"doubled_{position}": forms.BooleanField(
                label=_doubled_label(position), required=False
            )
            for position in range(seats)
        }
        # the boxes go after the winner, in seat order
        order = list(self.fields)
        at = order.index("winner") + 1
        self.fields = (
            {name: self.fields[name] for name in order[:at]}
            | boxes
            | {name: self.fields[name] for name in order[at:]}
        )

    def doubled(self) -> list[bool]:
        """The "doubled" boxes, by seat (of a valid form)."""
        return [bool(self.cleaned_data[f"doubled_{p}"]) for p in range(self.seats)]

    def result_fields(self) -> dict[str, Any]:
        """The cleaned fields as the services take them: ``doubled`` one list."""
        if not getattr(self, "full_result", True):
            return dict(self.cleaned_data)
        data = {k: v for k, v in self.cleaned_data.items() if not k.startswith("doubled_")}
        return {**data, "doubled": self.doubled()}


class CorrectionForm(ResultForm):
    """A correction: every field starts from the hand's current result (``initial_of``).

    ``result_fields`` (``hands.write.result_entry_fields``): the result's fields the hand's
    rules ask; the others are not shown. A variant hand asks none (``full_result`` False):
    only what such a hand can be corrected to, passed out, with the reason; its result's
    fields would be refused (``result_from_log``). A Big Three hand asks the digger, the bid
    and the winner, and cannot be passed out (``passed_out`` False, R12.5.2)."""

    passed_out = forms.BooleanField(label=_("Passed out (流局: nobody bid)"), required=False)
    override = forms.BooleanField(
        label=_("Override the play-by-play log (the log stays beside the override)"),
        required=False,
    )

    def __init__(
        self,
        *args: Any,
        full_result: bool = True,
        result_fields: tuple[str, ...] | None = None,
        passed_out: bool = True,
        big3: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if result_fields is not None:
            full_result = "doubled" in result_fields
        self.full_result = full_result
        if not full_result and not result_fields:
            self.fields = {name: self.fields[name] for name in ("passed_out", "reason")}
            self.fields["passed_out"].required = True
        elif not full_result:  # Big Three: the digger, the bid, the winner (R12.11)
            assert result_fields is not None
            kept = (*result_fields, "override", "reason")
            self.fields = {name: self.fields[name] for name in kept if name in self.fields}
        if "partner" in self.fields and "partner" not in (result_fields or ()):
            del self.fields["partner"]
        elif "partner" in self.fields:  # six players: three packs' bombs (R13.7)
            self.fields["bombs"] = forms.IntegerField(
                label=_("Bombs"), min_value=0, max_value=MAX_BOMBS_SIX, initial=0
            )
        if not passed_out:
            self.fields.pop("passed_out", None)
        if big3:
            self.fields["landlord"].label = _("Digger (挖坑者)")
            winner: Any = self.fields["winner"]
            winner.choices = [("landlord", _("Digger (挖坑者)")), ("defenders", _("Opponents"))]
        # each input carries the value it starts from, so the page shows old → new
        for name, value in (self.initial or {}).items():
            if name in self.fields:
                text = ("true" if value else "false") if isinstance(value, bool) else str(value)
                text = "" if value is None else text
                self.fields[name].widget.attrs["data-old"] = text
        # reason last
        self.fields["reason"] = self.fields.pop("reason")

    def result_fields(self) -> dict[str, Any]:
        """The cleaned fields as the services take them: ``doubled`` one list."""
        if not self.full_result:
            return dict(self.cleaned_data)
        return super().result_fields()

    @staticmethod
    def initial_of(detail: dict[str, object]) -> dict[str, object]:
        """The form's starting values: the hand's result as it stands (six players': with
        the partner, public once the hand is closed)."""
        doubled = detail["doubled"]
        assert isinstance(doubled, list)
        six = detail.get("six")
        assert six is None or isinstance(six, dict)
        return {
            **({"partner": six["partner"]} if six is not None else {}),
            "landlord": detail["landlord"] if detail["landlord"] is not None else 0,
            "bid": detail["bid"] or 1,
            "winner": detail["winner"] or "landlord",
            **{f"doubled_{p}": bool(d) for p, d in enumerate(doubled)},
            "redoubled": bool(detail["redoubled"]),
            "bombs": detail["bombs"],
            "rockets": detail["rockets"],
            "spring": bool(detail["spring"]),
            "anti_spring": bool(detail["anti_spring"]),
            "passed_out": detail["status"] == "passed_out",
        }


class PenaltyForm(forms.Form):
    entry = forms.IntegerField(
        label=_("Entry (registration number)"), min_value=1, max_value=REGISTRATION_ORDER_MAX
    )
    points = forms.IntegerField(
        label=_("Points (negative for a penalty)"),
        min_value=-PENALTY_POINTS_MAX,
        max_value=PENALTY_POINTS_MAX,
    )
    reason = forms.CharField(label=_("Reason"), max_length=2000)

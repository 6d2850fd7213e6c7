"""The console's words for a table's earlier hands and their log in words, result-only
entry with its summary, the players' PINs, and the rules a refusal names (translated on
the server, handed to the JS with the other console strings)."""

from django.utils.translation import gettext as _

from tournaments.hands.replay import RULES_MESSAGES

#: What each rule a result-only refusal can name says (``details.rule_number``: the
#: rules library's ``InvalidResult`` and ``ImpossibleResult``, SPEC §2-§8).
RULE_NUMBERS = (
    "R2.2", "R3.1", "R4.1", "R4.3", "R5.19", "R5.20", "R5.24", "R7.1", "R7.2", "R7.3", "R7.4",
    "R8.4", "R12.3", "R12.5", "R12.9", "R12.10", "R12.11.1",
)  # fmt: skip


def rule_words() -> dict[str, str]:
    return {
        "rule_named": _("Rule %(number)s: %(text)s"),
        "rule_plain": _("Rule: %(text)s"),
        "rule_R2.2": _("the landlord is one of the seats 0, 1 and 2."),
        "rule_R3.1": _("a bid is 1, 2 or 3; the landlord's bid is the base of the score."),
        "rule_R4.1": _(
            "only the farmers double (加倍), each once, against the landlord; the landlord "
            "does not double."
        ),
        "rule_R4.3": _("the landlord may redouble (再加倍) only if at least one farmer doubled."),
        "rule_R5.19": _("a bomb is four cards of one rank: one pack holds at most 13 bombs."),
        "rule_R5.20": _("the rocket is the two jokers: one pack holds one rocket."),
        "rule_R5.24": _("only bombs and rockets played as such count for the multiplier."),
        "rule_R7.1": _(
            "the hand ends when one player goes out, so the other side still holds cards: "
            "the bombs and the rocket must fit in the cards that were played (the landlord "
            "holds 20, each farmer 17)."
        ),
        "rule_R7.2": _(
            "a spring (春天) needs the landlord to win without either farmer playing a "
            "card, so every bomb and the rocket come from the landlord's 20 cards (at most 5 "
            "bombs, or 4 and the rocket)."
        ),
        "rule_R7.3": _(
            "an anti-spring (反春) needs the farmers to win while the landlord made only his "
            "opening play, so at most one bomb or the rocket is his."
        ),
        "rule_R7.4": _("spring and anti-spring exclude each other; each counts as one doubling."),
        "rule_R8.4": _("the classic rules have no doubling and no redoubling."),
        # Big Three (大三 / 挖坑, SPEC §12)
        "rule_R12.3": _("Big Three: the digger (挖坑者) is one of the seats 0, 1 and 2."),
        "rule_R12.5": _("Big Three: a bid is 1, 2 or 3; the digger's bid is the stake."),
        "rule_R12.9": _("Big Three has no bombs and no rocket: four of a rank is a quad."),
        "rule_R12.10": _("Big Three has no spring and no anti-spring."),
        "rule_R12.11.1": _("Big Three has no doubling: no double, no redouble."),
    }


def hand_strings() -> dict[str, str]:
    codes = {f"code_{code}": str(message()) for code, message in RULES_MESSAGES.items()}
    return (
        rule_words()
        | codes
        | {
            # a table's hands this round
            "hands_this_round": _("Hands this round"),
            "no_hands_yet": _("No hand yet at this table."),
            "awaiting_list": _("Still awaiting confirmation:"),
            "state_playing": _("Playing"),
            "state_awaiting": _("Awaiting confirmation"),
            "state_confirmed": _("Confirmed"),
            "state_confirmed_official": _("Confirmed by an official"),
            "state_confirmed_players": _("Confirmed by the players"),
            "state_finished": _("Finished"),
            "state_disputed": _("Disputed"),
            "state_irregular": _("Irregular: the deal does not fit the log"),
            "state_voided": _("Voided"),
            "overridden": _("director's override"),
            "back_to_table": _("Back to the table"),
            "earlier_hand": _("An earlier hand: read only."),
            "hand_unreadable": _("This hand cannot be read now (no connection)."),
            "result": _("Result"),
            "log_in_words": _("What happened"),
            # the log in words
            "ev_bid": _("%(seat)s bids %(n)s"),
            "ev_no_bid": _("%(seat)s does not bid"),
            "ev_double": _("%(seat)s doubles"),
            "ev_no_double": _("%(seat)s does not double"),
            "ev_redouble": _("%(seat)s redoubles"),
            "ev_no_redouble": _("%(seat)s does not redouble"),
            "ev_play": _("%(seat)s plays %(cards)s"),
            "ev_play_as": _("%(seat)s plays %(cards)s → %(declared)s"),
            "ev_play_hidden": _("%(seat)s plays (cards not shown)"),
            "ev_pass": _("%(seat)s passes"),
            "ev_undo": _("Undone: %(action)s — %(reason)s"),
            "ev_result": _("Result entered: %(result)s"),
            "ev_pass_out": _("Passed out (all passed): 0 for every seat"),
            "ev_correction": _("Corrected: %(result)s — %(reason)s"),
            "ev_correction_passed_out": _(
                "Corrected to passed out (0 for every seat) — %(reason)s"
            ),
            "ev_override": _("Director's override of the log: %(result)s — %(reason)s"),
            "ev_void": _("Hand voided — %(reason)s"),
            "ev_wild": _("Wild rank drawn (癞子): %(rank)s"),
            "ev_deal": _("Deal written in"),
            "ev_deal_ok": _("Deal written in: the log fits it"),
            "ev_deal_failed": _("Deal written in: action %(n)s does not fit it (%(rule)s)"),
            "ev_confirm_official": _("Confirmed by an official"),
            "ev_confirm_players": _("Confirmed by the players (%(seats)s)"),
            "ev_keep": _("Kept as played by a director — %(reason)s"),
            "ev_dispute": _("Disputed — %(reason)s"),
            "ev_irregular": _("Irregular: the written-in deal does not fit the log"),
            "ev_seat_correction": _("Seat correction: seat %(position)s — %(reason)s"),
            "ev_note": _("Note: %(text)s"),
            "ev_awaits": _("awaits confirmation"),
            # a result in words
            "comma": _(", "),
            "res_landlord": _("landlord %(seat)s"),
            "res_bid": _("bid %(n)s"),
            "res_doubled": _("doubled by %(seats)s"),
            "res_redoubled": _("redoubled"),
            "res_bombs": _("bombs: %(n)s"),
            "res_rocket": _("rocket"),
            "res_spring": _("spring"),
            "res_anti_spring": _("anti-spring"),
            "res_landlord_wins": _("the landlord wins"),
            "res_defenders_win": _("the defenders win"),
            "res_scores": _("scores %(scores)s"),
            # result-only entry: summary and confirm step
            "review_result": _("Review the result"),
            "summary_title": _("Check the result before saving"),
            "summary_scores": _("Scores (as the server computes them)"),
            "summary_offline": _("Offline: the scores will be computed on sending."),
            "summary_needs_confirmation": _("Once saved, the hand awaits confirmation."),
            "checking": _("Checking…"),
            "save": _("Save"),
            "change": _("Change"),
            "cancel": _("Cancel"),
            "none": _("none"),
            "yes": _("yes"),
            "no": _("no"),
            "doubles": _("Doubles (加倍)"),
            "rocket": _("Rocket (火箭)"),
            "spring_kind": _("Spring / anti-spring"),
            "passed_out": _("Passed out (all passed)"),
            "passed_out_question": _(
                "Record this hand as passed out? Nobody bid (流局): 0 for every seat."
            ),
            "passed_out_record": _("Record as passed out"),
            # confirmation on this phone
            "confirmed_by_players": _("Confirmed by the players."),
            "confirmed_by_official": _("Confirmed by an official."),
            "pins_title": _("Confirmation by the players"),
            "pins_help_sides": _(
                "The landlord and one farmer each type the PIN on their table card."
            ),
            "pins_help_two": _("Two players each type the PIN on their table card."),
            "pin_landlord": _("Landlord's PIN"),
            "pin_farmer": _("Farmer's PIN"),
            "pin_player": _("PIN"),
            "pins_confirm": _("Confirm the result"),
            "pins_four_digits": _("Type each player's PIN: the 4 digits on their table card."),
            "pins_offline": _(
                "No connection: the players' PINs are sent only online (they are never kept on "
                "this phone)."
            ),
            "official_confirms": _("In this tournament a second official confirms the hand."),
            "irregular_note": _(
                "Irregular: the written-in deal does not fit the log, so the hand does not count "
                "until a director keeps it as played, corrects or voids it."
            ),
            "irregular_at": _("Action %(n)s: %(rule)s"),
            "override_note": _("Director's override of the play-by-play log — %(reason)s"),
            "override_change": _("%(field)s: the log says %(log)s, the override %(override)s"),
        }
    )

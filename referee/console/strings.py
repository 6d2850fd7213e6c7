"""The console's words, translated on the server and handed to the JS as JSON (no
JavaScript catalogue to build)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.console.hand_strings import hand_strings
from tournaments.common.seat_names import seat_names
from tournaments.models import Confirmation, HandStatus


def counted(key: str, singular: str, plural: str) -> dict[str, str]:
    """A text with a count, in the reader's plural forms: ``key`` for most counts and
    ``key_one`` for one (the console's ``fmtn`` picks); ngettext finds the forms."""
    return {key: ngettext(singular, plural, 2), f"{key}_one": ngettext(singular, plural, 1)}


def big3_strings() -> dict[str, str]:
    """Big Three's own words (大三 / 挖坑, SPEC R12.2.1) where the console's differ from Dou
    Dizhu's, under the keys they replace prefixed ``big3:`` (main.js ``wordsFor`` puts them
    over the others at a Big Three table): the digger (挖坑者), his opponents, the hole (坑)."""
    words = {
        "landlord": _("Digger (挖坑者)"),
        "kitty": _("Hole (坑)"),
        "multiplier": _("Stake per opponent"),
        "winner_landlord": _("Digger"),
        "winner_defenders": _("Opponents"),
        "first_bidder": _("First bidder (♥4, or the lowest heart)"),
        "res_landlord": _("digger %(seat)s"),
        "res_landlord_wins": _("the digger wins"),
        "res_defenders_win": _("the opponents win"),
        "pins_help_sides": _("The digger and one opponent each type the PIN on their table card."),
        "pin_landlord": _("Digger's PIN"),
        "pin_farmer": _("Opponent's PIN"),
    }
    return {f"big3:{key}": text for key, text in words.items()} | {
        # the auction of each Big Three profile, said while it is under way
        "auction_big3": _(
            "The first bidder must bid 1, 2 or 3; then each in turn bids higher or passes (a "
            "seat that passed may bid again) until a bid is followed by two passes, or a 3."
        ),
        "auction_big3_one_round": _(
            "One round: each seat bids once, higher or not at all; if nobody bids, the first "
            "bidder digs at 1 (烂挖)."
        ),
    }


def six_strings() -> dict[str, str]:
    """Six players (六人斗地主, SPEC §13): the face-up card, the call and the partner as the
    table may know him (R13.11)."""
    return {
        "six:face_up": _("Face-up card"),
        "six:partner_card": _("Partner card"),
        "six:alone": _("the landlord plays alone"),
        "six:partner": _("Partner (暗地主)"),
        "six:partner_unknown": _("unknown until the partner card is played"),
        "six:call_title": _(
            "The landlord calls the partner card: the highest card he holds exactly twice "
            "(R13.4). Tap its suit and rank, then Call."
        ),
        "six:call": _("Call %(card)s"),
        "six:call_none": _("None: he plays alone (R13.5)"),
        "six:suit": _("Suit"),
        "six:revealed": _(" — the partner (暗地主) is revealed"),
        "six:partner_none": _("Nobody: the landlord played alone"),
        "six:res_partner": _("partner %(seat)s"),
        "six:shown": _("shows the partner card: the partner (暗地主)"),
        "six:landlord_seat": _(
            "Six players: the holder of the face-up card is the landlord (R13.3). For physical "
            "cards, choose his seat."
        ),
        "six:naming": _(
            "The hand is over, but the partner never played %(card)s: which seat shows its "
            "third copy? (R13.8)"
        ),
        "six:cards_hidden": _(
            "Six players: nobody but a director sees the seats' cards before the end, they "
            "would name the partner. Tap the suit, then the rank, of each card played."
        ),
    }


def console_strings() -> dict[str, str]:
    labels = {f"status_{value}": str(label) for value, label in HandStatus.choices}
    labels |= {f"confirmation_{value}": str(label) for value, label in Confirmation.choices}
    labels |= {f"seat_{position}": name for position, name in enumerate(seat_names())}
    labels |= hand_strings()
    labels |= big3_strings()
    labels |= six_strings()
    labels |= counted("cards_left_n", "%(n)s card left", "%(n)s cards left")
    labels |= counted(
        "round_complete_detail",
        "This table has played the round's %(n)s hand. A director can add a hand.",
        "This table has played the round's %(n)s hands. A director can add a hand.",
    )
    labels |= counted("more_plays", "%(n)s more play", "%(n)s more plays")
    labels |= counted(
        "ahead_follow",
        "%(passed)s passes, then %(seat)s plays:",
        "%(passed)s pass, then %(seat)s plays:",
    )
    labels |= counted(
        "ahead_label",
        "%(passed)s passes, then %(seat)s plays %(cards)s",
        "%(passed)s pass, then %(seat)s plays %(cards)s",
    )
    labels |= counted(
        "ahead_bid",
        "%(passed)s does not bid, then %(seat)s:",
        "%(passed)s do not bid, then %(seat)s:",
    )
    labels |= counted(
        "others_waiting",
        "%(n)s write typed by %(name)s waits for %(name)s to sign in on this phone: it is "
        "never sent as anybody else's.",
        "%(n)s writes typed by %(name)s wait for %(name)s to sign in on this phone: they are "
        "never sent as anybody else's.",
    )
    labels |= counted(
        "ev_announce",
        "%(seat)s announces %(n)s card left (报牌)",
        "%(seat)s announces %(n)s cards left (报牌)",
    )
    labels |= counted(
        "ev_announce_missing",
        "%(seat)s did not announce %(n)s card left (报牌 missing)",
        "%(seat)s did not announce %(n)s cards left (报牌 missing)",
    )
    return labels | {
        "my_tables": _("My tables now"),
        "no_tables": _("No table to referee now."),
        "tables_offline": _("Offline — showing your tables as of %(time)s"),
        "tables_offline_none": _("Offline: this phone has no saved list of your tables yet."),
        "round": _("Round"),
        "table": _("Table"),
        "hand": _("Hand"),
        "seat": _("Seat"),
        "open": _("Open"),
        "back": _("Back to my tables"),
        "start_hand": _("Start a hand"),
        "deal_random": _("Server deal"),
        "deal_board": _("Board"),
        "deal_physical": _("Physical cards"),
        "deal_none": _("Result only"),
        "first_bidder": _("First bidder"),
        "board_number": _("Board number"),
        "status": _("Status"),
        "turn": _("Turn"),
        "to_beat": _("To beat"),
        "nothing_to_beat": _("Nothing: a free lead"),
        "cards_left": _("Cards left"),
        "held": _("Held"),
        "kitty": _("Kitty (底牌)"),
        "landlord": _("Landlord (地主)"),
        "bid": _("Bid"),
        "multiplier": _("Stake per farmer (农民)"),
        "announcements_due": _("Announcements due (报牌)"),
        "announced": _("Announced"),
        "missing": _("Missing"),
        "pass": _("Pass"),
        "bid_n": _("Bid %(n)s"),
        "no_bid": _("No bid"),
        "double": _("Double"),
        "no_double": _("No double"),
        "redouble": _("Redouble"),
        "no_redouble": _("No redouble"),
        "play": _("Play"),
        "clear": _("Clear"),
        "notation": _("Cards (notation, e.g. 33 or 345678)"),
        "send": _("Send"),
        "undo": _("Undo last action"),
        "reason": _("Reason"),
        "reason_needed": _("Give a reason."),
        "undo_why": _("Why undo the last action?"),
        "undo_confirm": _("Undo it"),
        "result_form": _("Result only"),
        "winner": _("Winner"),
        "winner_landlord": _("Landlord"),
        "winner_defenders": _("Defenders"),
        "doubled": _("Doubled (seat)"),
        "redoubled": _("Redoubled"),
        "bombs": _("Bombs"),
        "rockets": _("Rockets"),
        "spring": _("Spring (春天)"),
        "anti_spring": _("Anti-spring (反春)"),
        "save_result": _("Save the result"),
        "scores": _("Scores"),
        "confirm": _("Confirm the hand"),
        "dispute": _("Dispute the hand"),
        "confirmation": _("Confirmation"),
        "accepted": _("Recorded."),
        "rejected": _("Rejected"),
        "offline": _(
            "Offline: actions are kept on this phone and sent when the connection returns."
        ),
        "waiting": _("Waiting to send"),
        "held_back": _("Held back after a rejection: send them again or discard them."),
        "send_waiting": _("Send now"),
        "discard_waiting": _("Discard waiting actions"),
        "sent_all": _("Everything is sent."),
        "next_hand": _("Next hand"),
        "hands_left_n": _("%(n)s left this round"),
        "round_complete": _("Round complete"),
        "legal_plays": _("Legal plays: one tap records it"),
        "no_legal_play": _("Nothing beats it: pass"),
        "cards_unknown": _("Cards unknown: tap the play or pass"),
        "completions": _("Plays with the cards tapped: one tap records it"),
        "whole_hand": _("The seat's whole hand: one tap records it"),
        "all_pass": _("Everyone passes (%(n)s): %(seat)s leads"),
        "fewer_plays": _("Fewer plays"),
        "lead_after": _("Or everyone passes (%(n)s) and %(seat)s leads: tap its cards"),
        "nobody_doubles": _("Nobody doubles (%(n)s: %(seats)s)"),
        "lead_after_doubling": _("Or nobody doubles and %(seat)s leads: tap its cards"),
        "lead_after_label": _("%(passed)s: no, then %(seat)s leads %(cards)s"),
        "longest_plays": _("The seat's longest plays: one tap records it"),
        "one_at_a_time": _(
            "One tap records each action on its own, in turn; Undo takes back one at a time."
        ),
        "cards_of": _("Cards of %(seat)s: tap a rank to add a card"),
        "wild": _("Wild (癞子)"),
        "choose_reading": _("%(cards)s: which play do the wild cards make?"),
        "as_themselves": _("each card its own rank"),
        "wild_due": _("Wild rank drawn (癞子): tap the rank turned up"),
        "wild_change": _("Wild rank typed wrong? Tap the right one (before the first play)"),
        "wild_entered": _("Wild rank drawn"),
        "stands_for": _("The wild cards stand for (as)"),
        "stands_for_hint": _("As: KK7 → KKK"),
        "small_joker": _("Small joker"),
        "big_joker": _("Big joker"),
        "log": _("Log"),
        "network_error": _("No connection: the action waits on this phone."),
        "sign_out": _("Sign out"),
        "start_waiting": _("The start of the hand waits to be sent (one tap is enough)."),
        "other_phone_first": _("Another phone recorded first."),
        "other_phone_recorded": _("It recorded:"),
        "yours_not_recorded": _("Not recorded from this phone:"),
        "provisional": _("Provisional continuation"),
        "provisional_short": _("provisional"),
        "rules_will_check": _(
            "These actions are not recorded yet: the rules will check each one when the "
            "connection returns."
        ),
        "waiting_to_send": _("waiting to send"),
        "signed_out": _(
            "You are signed out: sign in again. The waiting actions stay on this phone and "
            "are sent after you sign in."
        ),
        "sign_in_again": _("Sign in again"),
        "another_referee": _("another referee"),
        "discard_others": _("Discard the writes typed by others"),
    }

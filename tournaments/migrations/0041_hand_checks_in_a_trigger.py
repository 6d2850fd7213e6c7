"""A hand's checks but its version's run in one trigger on PostgreSQL, which an UPDATE of the
hand's snapshot and version (every referee action) does not fire: ``tournaments.common.row_checks``.
Same checks, same refusals; SQLite keeps its CHECKs."""

from django.db import migrations

from tournaments.common.row_checks import ChecksToTrigger

NAMES = [
    "hand_number_positive",
    "hand_status_known",
    "hand_rule_profile_known",
    "hand_winner_known",
    "hand_board_or_adhoc_deal",
    "hand_landlord_seat_range",
    "hand_partner_seat_range",
    "hand_partner_of_six_p_not_the_landlord",
    "hand_stake_cap_range",
    "hand_stake_cap_of_game",
    "hand_bid_range",
    "hand_bombs_non_negative",
    "hand_rockets_range",
    "hand_not_spring_and_anti_spring",
    "hand_pin_failures_non_negative",
    "hand_first_bidder_range",
    "hand_physical_cards_has_first_bidder",
    "hand_confirmation_known",
    "hand_finished_is_complete",
    "hand_scores_only_when_finished_or_passed_out",
    "hand_seats_of_profile",
    "hand_landlord_at_table",
    "hand_first_bidder_at_table",
    "hand_doubled_one_a_seat",
    "hand_doubled_flags_boolean",
    "hand_scores_one_a_seat_zero_sum",
]


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0040_fk_indexes_covered"),
    ]

    operations = [ChecksToTrigger(model_name="hand", names=NAMES)]

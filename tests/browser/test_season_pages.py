"""A club's season in a real browser (issue 34): the ladder and a player's chart, in both
languages, on a desktop and on a phone, photographed (tests/browser/artefacts/season-*.png)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.tournaments.season_builders import played_tournament, players, season_of
from tournaments.models import SeasonRating, SeasonStep
from tournaments.season.services import season_recompute

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {
        "ladder": "Season ladder",
        "points": "Season points",
        "chart": "Rating and ladder rank after each tournament",
    },
    "zh": {"ladder": "赛季排名", "points": "赛季积分", "chart": "每场比赛后的等级分与排名名次"},
}


def _season() -> Any:
    director = factories.UserFactory(username="season-director", is_staff=True)
    people = players(9, prefix="Member")
    events = [
        played_tournament(
            slug=f"night-{i}", people=people[: 6 + 3 * (i % 2)], director=director, seed=i
        )
        for i in range(1, 5)
    ]
    season = season_of("club-2026", events, club="Harbour Club")
    assert season_recompute(season_id=season.pk)
    return season


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_ladder_and_a_players_chart(language: str, new_page: Any, screenshot: Any) -> None:
    season = _season()
    words = WORDS[language]
    ladder = list(SeasonRating.objects.filter(season=season).order_by("rank"))
    page = new_page(language)
    page.goto(f"/seasons/{season.slug}/")
    expect(page.locator("h1")).to_contain_text(words["ladder"])
    rows = page.locator("#season-ladder tbody tr")
    expect(rows).to_have_count(len(ladder))
    expect(page.locator("#season-ladder thead")).to_contain_text(words["points"])
    first = rows.nth(0)
    expect(first).to_contain_text(ladder[0].player.name)
    expect(first).to_contain_text(f"{ladder[0].mu:.1f} ± {ladder[0].sigma:.1f}")
    screenshot(page, f"season-ladder-{language}")

    # The best player's page: the chart is an image with its name and description, and
    # the same numbers are in the table beside it.
    first.get_by_role("link").click()
    chart = page.get_by_role("img", name=words["chart"])
    expect(chart).to_be_visible()
    steps = list(
        SeasonStep.objects.filter(season=season, player=ladder[0].player).order_by("order")
    )
    expect(page.locator("svg.season-chart circle.rating")).to_have_count(len(steps))
    expect(page.locator("svg.season-chart circle.rank")).to_have_count(len(steps))
    table_rows = page.locator("#season-steps tbody tr")
    expect(table_rows).to_have_count(len(steps))
    for row, step in zip(table_rows.all(), steps, strict=True):
        expect(row).to_contain_text(f"{step.mu:.1f} ± {step.sigma:.1f}")
        expect(row).to_contain_text(f"{step.placing} / {step.field}")
    # side by side on a desktop: the table starts to the right of the chart
    chart_box, table_box = chart.bounding_box(), page.locator("#season-steps").bounding_box()
    assert chart_box is not None and table_box is not None
    assert table_box["x"] > chart_box["x"] + chart_box["width"] / 2
    screenshot(page, f"season-player-{language}")

    # On a phone: nothing wider than the screen, the chart above its table.
    phone = new_page(language, viewport={"width": 390, "height": 844})
    phone.goto(page.url)
    expect(phone.get_by_role("img", name=words["chart"])).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    screenshot(phone, f"season-player-phone-{language}")
    phone.goto(f"/seasons/{season.slug}/")
    expect(phone.locator("#season-ladder tbody tr")).to_have_count(len(ladder))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, f"season-ladder-phone-{language}")

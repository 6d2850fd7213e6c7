"""The public standings' ``?page=``: any text a spectator can type gives a page, never an error."""

import pytest

from tournaments.public.standings import STANDINGS_PAGE, standings_page

ROWS = [f"row {n}" for n in range(1, 251)]  # three pages of 100


@pytest.mark.parametrize(
    ("asked", "number", "first"),
    [
        ("", 1, "row 1"),
        ("2", 2, "row 101"),
        ("3", 3, "row 201"),
        ("4", 3, "row 201"),  # past the last: the last
        ("9999999999999", 1, "row 1"),  # too long to be a page: the first
        ("0", 1, "row 1"),
        ("-1", 1, "row 1"),
        ("abc", 1, "row 1"),
        ("²", 1, "row 1"),  # a Unicode digit is no page number
        ("1.5", 1, "row 1"),
    ],
)
def test_a_page_asked_by_any_text(asked: str, number: int, first: str) -> None:
    rows, shown, pages = standings_page(ROWS, asked, everyone=False)
    assert (shown, pages, rows[0], len(rows) <= STANDINGS_PAGE) == (number, 3, first, True)


def test_all_and_the_big_screen_show_everyone() -> None:
    assert standings_page(ROWS, "all", everyone=False) == (ROWS, 0, 3)
    assert standings_page(ROWS, "2", everyone=True) == (ROWS, 0, 3)
    assert standings_page([], "5", everyone=False) == ([], 1, 1)

"""Phrases kept before translation (tournaments.common.phrases): what is stored reads back the
same, and renders through whatever catalogue and seat names the reader has."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.common.phrases import Lines, Phrase, SeatRef, from_json, render, to_json

names = st.sampled_from(["a", "b", "seat", "entry"])
leaves = st.one_of(
    st.integers(-(10**6), 10**6), st.text(max_size=8), st.builds(SeatRef, st.integers(0, 2))
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(tuple),
        st.builds(
            Phrase,
            st.text(max_size=12),
            st.dictionaries(names, inner, max_size=2).map(lambda d: tuple(d.items())),
        ),
    ),
    max_leaves=8,
)
texts = st.lists(st.lists(values, max_size=3).map(tuple), max_size=4).map(tuple)


@given(texts)
def test_what_is_stored_reads_back_the_same(lines: Lines) -> None:
    assert from_json(to_json(lines)) == lines


def test_a_text_renders_in_the_readers_words() -> None:
    lines = (
        (
            Phrase.of("Table %(number)s: %(seats)s", number=1, seats=(
                Phrase.of("%(seat)s: %(entry)s", seat=SeatRef(0), entry="#3"),
                Phrase.of("%(seat)s: %(entry)s", seat=SeatRef(1), entry="#1"),
            )),
            ".",
        ),
    )  # fmt: skip
    assert render(lines) == "Table 1: seat 0: #3, seat 1: #1."
    chinese = {"Table %(number)s: %(seats)s": "第 %(number)s 桌：%(seats)s", ", ": "、"}
    assert (
        render(lines, translate=lambda t: chinese.get(t, t), seat_name=lambda p: "东南西"[p])
        == "第 1 桌：东: #3、南: #1."
    )


def test_anything_else_is_not_phrases() -> None:
    for text in ("random draw; seed 5.", "", "[]", '{"phrases": [[true]]}', '{"phrases": 3}'):
        assert from_json(text) is None

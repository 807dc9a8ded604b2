"""The engine's edges: whatever comes in, only the engine's own errors come out.

A bad seat or player count is an ``IllegalMove`` or a ``RulesetError``, a
replay of anything but a possible game a ``ReplayError``; stored events are
read back only if they are exactly what ``to_json`` writes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import (
    DRAW,
    QUIT,
    Card,
    CardDrawn,
    IllegalMove,
    Match,
    ReplayError,
    RoundDealt,
    Ruleset,
    RulesetError,
    build_deck,
    event_from_json,
    explicit_deal,
)

SETTINGS = settings(max_examples=200, deadline=None)

# Anything a caller or a database might hand over instead of a small int.
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
    st.integers(-3, 8).map(float),
    st.integers(-3, 8).map(str),
)


def started(players: int = 3) -> Match:
    match = Match(Ruleset(), players)
    match.deal(seed=5)
    return match


@SETTINGS
@given(count=st.one_of(junk, st.integers(-5, 12)))
def test_a_player_count_that_is_not_a_small_int_is_a_ruleset_error(count: Any) -> None:
    try:
        Match(Ruleset(), count)
    except RulesetError as error:
        assert str(error)
    else:
        assert type(count) is int and 2 <= count <= 6


@SETTINGS
@given(seat=junk)
def test_a_seat_that_is_not_an_int_is_an_illegal_move_and_changes_nothing(seat: Any) -> None:
    match = started()
    before = match.snapshot()
    for action in (DRAW, QUIT, *match.legal_actions()):
        with pytest.raises(IllegalMove):
            match.apply(seat, action)
        assert not match.can(seat, action)
    with pytest.raises(IllegalMove):
        match.view(seat)
    assert match.snapshot() == before


@SETTINGS
@given(events=st.lists(st.one_of(junk, st.just(CardDrawn(seat=0))), min_size=1, max_size=3))
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_a_replay_of_things_that_are_not_events_is_a_replay_error(events: list[Any]) -> None:
    first = started(2).events[0]
    with pytest.raises(ReplayError):
        Match.replay(Ruleset(), 2, [first, *events, "not an event"])
    with pytest.raises(ReplayError):
        Match.replay(Ruleset(), 2, [*events, first])


def test_a_replay_of_something_that_is_not_a_list_of_events_is_a_replay_error() -> None:
    for events in (None, 3, CardDrawn(seat=0)):
        with pytest.raises(ReplayError):
            Match.replay(Ruleset(), 2, events)  # type: ignore[arg-type]


# ---------------------------------------------------------------- event_from_json
def _valid_events() -> list[dict[str, Any]]:
    match = started(3)
    match.apply(match.to_move or 0, match.legal_actions()[0])
    match.apply(match.to_move or 0, QUIT)
    return [e.to_json() for e in match.events]


VALID = _valid_events()


@pytest.mark.parametrize(
    ("field", "value"),
    [("seat", 1.9), ("seat", 1.0), ("seat", True), ("seat", "1"), ("seat", None)],
)
def test_a_move_with_a_seat_that_is_not_an_int_is_refused(field: str, value: Any) -> None:
    for data in VALID[1:]:
        with pytest.raises(ReplayError):
            event_from_json({**data, field: value})


@pytest.mark.parametrize("card", [True, False, 1.0, "1", 8, None, [1]])
def test_a_card_that_is_not_exactly_a_card_is_refused(card: Any) -> None:
    deal = VALID[0]
    with pytest.raises(ReplayError):
        event_from_json({"kind": "play", "seat": 0, "card": card})
    with pytest.raises(ReplayError):
        event_from_json({**deal, "top": card})
    with pytest.raises(ReplayError):
        event_from_json({**deal, "draw_pile": [card, *deal["draw_pile"][1:]]})
    hands = [list(h) for h in deal["hands"]]
    hands[1][0] = card
    with pytest.raises(ReplayError):
        event_from_json({**deal, "hands": hands})


def _mutations(data: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``data`` with one field set to junk, taken away, or a field added."""
    keys = sorted(data)
    return st.one_of(
        st.builds(lambda k, v: {**data, k: v}, st.sampled_from(keys), junk),
        st.builds(lambda k: {n: v for n, v in data.items() if n != k}, st.sampled_from(keys)),
        st.builds(lambda v: {**data, "extra": v}, junk),
    )


@SETTINGS
@given(data=st.sampled_from(VALID).flatmap(_mutations))
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_an_event_is_read_back_only_if_it_is_exactly_what_to_json_wrote(
    data: dict[str, Any],
) -> None:
    try:
        event = event_from_json(data)
    except ReplayError:
        return
    assert event.to_json() == data, f"{data!r} was read as {event!r}"


def test_every_event_to_json_writes_reads_back_equal() -> None:
    for data in VALID:
        assert event_from_json(data).to_json() == data


# ---------------------------------------------------------------- deals
def test_a_deal_with_cards_the_rulesets_deck_does_not_have_is_refused() -> None:
    deck = sorted(build_deck(Ruleset(party=False, komarami=False)))
    hands = [deck[0:6], deck[6:12]]
    top, pile = deck[12], deck[13:]
    Match(Ruleset(), 2).start_round(explicit_deal(hands, top, pile))
    # A hand-made position may leave cards out.
    Match(Ruleset(), 2).start_round(explicit_deal(hands, top, pile[1:]))

    wrong = [
        explicit_deal(hands, top, [*pile, Card.LLAMA]),  # a ninth llama
        explicit_deal(hands, top, [*pile[1:], Card.PINK_LLAMA]),  # the Party's card
        explicit_deal(hands, Card.ONE_PLUS, pile),  # a Plus card, also the Party's
    ]
    for dealt in wrong:
        match = Match(Ruleset(), 2)
        with pytest.raises(ReplayError, match="deck doesn't have"):
            match.start_round(dealt)
        assert match.events == [] and match.round is None
        with pytest.raises(ReplayError):
            Match.replay(Ruleset(), 2, [dealt])
    party = sorted(build_deck(Ruleset(party=True, komarami=False)))
    Match(Ruleset(party=True), 2).start_round(
        explicit_deal([party[0:6], party[6:12]], party[12], party[13:])
    )
    seven = explicit_deal(hands, top, pile)  # eight llamas: Lato z Komarami has seven
    with pytest.raises(ReplayError):
        Match(Ruleset(komarami=True), 2).start_round(seven)


@pytest.mark.parametrize(
    "change",
    [
        {"starter": 1.0},
        {"starter": True},
        {"starter": "0"},
        {"starter": 5},
        {"round_no": 1.0},
        {"hands": ((1, 2),)},
        {"top": 4},
        {"draw_pile": None},
    ],
)
def test_a_deal_with_a_field_of_the_wrong_kind_is_refused(change: dict[str, Any]) -> None:
    good = started(2).events[0]
    assert isinstance(good, RoundDealt)
    fields = {
        "round_no": good.round_no,
        "hands": good.hands,
        "top": good.top,
        "draw_pile": good.draw_pile,
        "starter": good.starter,
        **change,
    }
    match = Match(Ruleset(), 2)
    with pytest.raises(ReplayError):
        match.start_round(RoundDealt(**fields))
    assert match.events == []


# ---------------------------------------------------------------- rulesets from anything
@SETTINGS
@given(data=junk)
def test_a_ruleset_from_json_that_is_not_a_dict_is_a_ruleset_error(data: Any) -> None:
    try:
        Ruleset.from_json(data)
    except RulesetError as error:
        assert str(error)
    else:
        assert isinstance(data, dict)


@pytest.mark.parametrize("data", ["x", None, 3, ["no_drama"], b"{}"])
def test_ruleset_from_json_of_a_string_or_none_is_a_ruleset_error(data: Any) -> None:
    with pytest.raises(RulesetError, match=r"^The table options must be a mapping"):
        Ruleset.from_json(data)


@pytest.mark.parametrize("ruleset", ["base", None, 3, {"party": True}, Ruleset])
def test_a_match_with_something_that_is_not_a_ruleset_is_a_ruleset_error(ruleset: Any) -> None:
    with pytest.raises(RulesetError, match=r"^A game needs a Ruleset"):
        Match(ruleset, 3)

"""The buttons' custom ids (bot.frontend.custom_ids): every id the bot makes reads back as
what it was made from, and nothing else is taken for one of them."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.frontend.custom_ids import (
    BOARD_ORDERS,
    MAX_STORED,
    BoardId,
    ButtonId,
    HintButtonId,
    LobbyButtonId,
    MoveId,
    ReplayAction,
    ReplayId,
    SeatId,
    TableButtonId,
    fits_store,
    parse,
)
from data.records import ALL_TIME
from game import Card

STORED = st.integers(0, MAX_STORED)


def round_trip(made: ButtonId) -> ButtonId | None:
    custom_id = made.custom_id
    assert custom_id.startswith("lama:") and len(custom_id) <= 100  # Discord's limit
    return parse(custom_id.removeprefix("lama:"))


@given(
    st.sampled_from([LobbyButtonId, HintButtonId, TableButtonId]).flatmap(
        lambda family: st.builds(family, st.sampled_from(sorted(family.ACTIONS)), STORED)
    )
)
def test_a_games_button_reads_back_as_made(made: ButtonId) -> None:
    assert round_trip(made) == made


@given(st.sampled_from(["draw", "quit"]), STORED, STORED)
def test_a_draw_or_quit_reads_back_as_made(action: str, game_id: int, stamp: int) -> None:
    made = MoveId(action, game_id, stamp)  # type: ignore[arg-type]
    assert round_trip(made) == made


@given(STORED, STORED, st.sampled_from(list(Card)))
def test_a_card_played_reads_back_as_made(game_id: int, stamp: int, card: Card) -> None:
    made = MoveId("play", game_id, stamp, card)
    assert round_trip(made) == made


@given(STORED, st.integers(0, 5))
def test_a_seat_reads_back_as_made(game_id: int, seat: int) -> None:
    assert round_trip(SeatId(game_id, seat)) == SeatId(game_id, seat)


@given(
    st.integers(-MAX_STORED, MAX_STORED),  # minus a group DM's id: a place of its own
    STORED,
    st.sampled_from(BOARD_ORDERS),
    st.one_of(st.just(ALL_TIME), STORED),
)
def test_a_leaderboard_page_reads_back_as_made(
    place: int, page: int, order: str, season: int
) -> None:
    made = BoardId(place, page, order, season)
    assert round_trip(made) == made


@given(STORED, STORED, st.sampled_from(get_args(ReplayAction)))
def test_a_replay_button_reads_back_as_made(game_id: int, step: int, action: str) -> None:
    made = ReplayId(game_id, step, action)  # type: ignore[arg-type]
    assert round_trip(made) == made


@given(
    st.one_of(
        st.text(max_size=60), st.from_regex(r"[a-z]{3,6}(:-?[0-9]{1,20}){1,4}", fullmatch=True)
    )
)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_any_other_text_is_no_button_or_one_the_bot_could_have_made(body: str) -> None:
    """A forged or foreign id is None, never an exception; one that parses is an id the
    bot makes (written perhaps otherwise: leading zeros, an id from before the seasons)."""
    parsed = parse(body)
    assert parsed is None or round_trip(parsed) == parsed


def test_board_ids_parse() -> None:
    assert parse("board:123:4:2:all") == BoardId(123, 4, "average", ALL_TIME)
    assert parse("board:123:4:3:1772323200") == BoardId(123, 4, "rating", 1772323200)
    assert BoardId(123, 4, "rating", 1772323200).custom_id == "lama:board:123:4:3:1772323200"
    assert BoardId(123, 0, "wins").custom_id == "lama:board:123:0:0:all"
    assert parse("board:123:4:4:all") is None  # no such order
    assert parse("board:123:4:3:-1") is None
    assert parse("board:123:4") is None
    assert parse("board:123") is None


def test_ids_from_before_the_seasons_keep_their_meaning() -> None:
    """A board posted before the ratings pages on by its old order, over all time."""
    assert parse("board:123:4:2") == BoardId(123, 4, "average", ALL_TIME)
    assert parse("board:123:4:0") == BoardId(123, 4, "wins", ALL_TIME)
    assert parse("board:123:4:3") is None  # the old ids had no rating order


def test_no_number_past_the_stores_integers_is_parsed_from_a_custom_id() -> None:
    assert parse(f"review:{MAX_STORED}") == HintButtonId("review", MAX_STORED)
    assert parse(f"review:{MAX_STORED + 1}") is None
    assert parse(f"draw:1:{MAX_STORED + 1}") is None
    assert not fits_store(MAX_STORED + 1) and not fits_store(-1) and fits_store(0)


def test_a_group_dms_leaderboard_pages_turn() -> None:
    """A place outside a server has a negative id: its leaderboard's Previous and Next
    carry it, and a click on them must be understood, not taken for a forged button."""
    board = BoardId(-1456074443980800027, 2, "rating", ALL_TIME)

    assert parse(board.custom_id.removeprefix("lama:")) == board

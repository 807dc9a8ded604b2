"""Which moves a table message lists (bot.frontend.listing): every move since it last
listed is listed or counted, at least the last few are listed, the newest last, and with
nothing new the listing stays as it was (no edit for nothing)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.frontend.listing import Listing, moves_to_list
from bot.frontend.views.table import SHOWN_MOVES
from bot.service.play.table import MoveLine, MoveLog


def listed_before(line: MoveLine, listing: Listing) -> bool:
    return any(line is each for each in listing.lines)  # by identity, as the table does


@given(st.lists(st.integers(0, 40), min_size=1, max_size=10))
def test_every_move_since_the_last_listing_is_listed_or_counted(batches: list[int]) -> None:
    recent = MoveLog()
    listing = moves_to_list(recent, None)
    for moves in batches:
        since = listing.end
        for i in range(moves):
            recent.append(MoveLine(seat=i % 3, kind="draw"))
        new = moves_to_list(recent, listing)
        fresh = [line for line in new.lines if not listed_before(line, listing)]
        assert len(fresh) + new.unlisted >= recent.total - since, "none goes missing unsaid"
        if moves:  # (with none, the listing stays as it was, its count too)
            assert new.unlisted <= recent.total - since, "none counted that was listed"
        assert new.end == recent.total
        assert len(new.lines) >= min(SHOWN_MOVES, len(recent)), "at least the last few"
        if recent:
            assert new.lines[-1] is recent[-1], "the newest last"
        listing = new


@given(st.integers(0, 40))
def test_nothing_new_lists_the_same_moves(moves: int) -> None:
    recent = MoveLog(MoveLine(seat=i % 2, kind="draw") for i in range(moves))
    listing = moves_to_list(recent, moves_to_list(MoveLog(), None))
    again = moves_to_list(recent, listing)
    assert again.lines == listing.lines and again.unlisted == listing.unlisted


def test_a_table_with_no_listing_known_lists_every_move_kept() -> None:
    """After a restart the moves the table showed are not known: it lists all there are."""
    recent = MoveLog(MoveLine(seat=0, kind="draw") for _ in range(5))
    assert moves_to_list(recent, None).lines == list(recent)

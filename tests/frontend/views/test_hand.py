"""The hand's view (bot.frontend.views.hand): what quitting costs under each house rule."""

from __future__ import annotations

import pytest

from bot.frontend.faces import PLAIN
from bot.frontend.views.hand import hand_view
from bot.service.play.table import Seat, Status, Table
from game import Card, ChipBack, Match, Ruleset
from testkit.deals import whole_deal
from testkit.simcord_play import text_blocks


def quit_cost(ruleset: Ruleset, hand: list[Card]) -> str:
    """What the hand of the player to move says beside Quit."""
    match = Match(ruleset, 2)
    match.start_round(whole_deal([hand, [Card.THREE, Card.FOUR]], Card.ONE, [Card.TWO])(match))
    seats = [Seat(1, None, "ann"), Seat(2, None, "bob")]
    table = Table(1, 9, 50, 1, ruleset, 0, "en", seats, status=Status.RUNNING, match=match)
    shown = hand_view(table, 0, "en", PLAIN)
    return next(t for t in text_blocks(shown) if t.startswith("Quitting now"))


@pytest.mark.parametrize(
    ("chip_back", "then"),
    [
        (ChipBack.LARGEST, "none, and you give back a chip if you have one."),
        (ChipBack.WHITE, "none, and you give back one white chip if you have any."),
        (ChipBack.NONE, "none (no chip comes back)."),
    ],
)
def test_the_no_drama_hint_gives_back_the_chip_the_rules_give_back(
    chip_back: ChipBack, then: str
) -> None:
    """Left with nothing but the No Drama card, the holder gives back what an emptied hand
    gives back (game.scoring.chip_returned): under "no chip" the hint promised one."""
    said = quit_cost(Ruleset.compose("no_drama", chip_back=chip_back), [Card.SIX])
    assert said == (
        "Quitting now would cost 6 points.\n"
        f"If the No Drama card is still yours when the round ends, {then}"
    )

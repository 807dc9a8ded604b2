"""The dealer: scripted deals first, then seeded ones."""

from __future__ import annotations

from bot.service.play.dealer import Dealer
from game import Card, Match, Ruleset
from testkit.deals import whole_deal


def test_scripted_deals_come_first_then_the_seed_source() -> None:
    seeds = iter([11, 12])
    dealer = Dealer(lambda: next(seeds))
    dealer.scripted.append(whole_deal([[Card.ONE] * 6, [Card.TWO] * 6], Card.THREE))
    scripted = Match(Ruleset(), 2)
    dealer.deal(scripted)
    assert scripted.view(0).hand.count(Card.ONE) == 6
    seeded, again = Match(Ruleset(), 2), Match(Ruleset(), 2)
    dealer.deal(seeded)
    again.deal(11)
    assert seeded.view(0).hand == again.view(0).hand
    dealer.seed_source = lambda: 99  # a benchmark replays its own deals
    replayed, expected = Match(Ruleset(), 2), Match(Ruleset(), 2)
    dealer.deal(replayed)
    expected.deal(99)
    assert replayed.view(1).hand == expected.view(1).hand

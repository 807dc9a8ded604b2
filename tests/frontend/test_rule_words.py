"""What is played, in words: the editions, each house rule and the threshold, in four languages."""

from __future__ import annotations

import pytest

from bot.frontend.custom_ids import parse_rule, rule_value
from bot.frontend.words import (
    house_rule_options,
    rule_value_text,
    rules_text,
    variant_badges,
)
from bot.i18n import CATALOGS
from game import Ruleset
from game.rules import DIMENSIONS, ChipBack, LlamaCost

PARTY_HOUSE = Ruleset.compose("party", hand_size=7, llama_cost=LlamaCost.EACH)


@pytest.mark.parametrize(
    ("locale", "line"),
    [
        (
            "en",
            "🎉 Party Edition · 🏠 Llamas cost 10 each · 🏠 hands of 7 cards"
            " · 🏁 ends at 40 points",
        ),
        (
            "de",
            "🎉 Party Edition · 🏠 jedes Lama kostet 10 · 🏠 7 Karten auf der Hand"
            " · 🏁 endet bei 40 Minuspunkten",
        ),
        (
            "es-ES",
            "🎉 Party Edition · 🏠 cada llama cuesta 10 · 🏠 manos de 7 cartas"
            " · 🏁 termina a los 40 puntos",
        ),
        (
            "pl",
            "🎉 Party Edition · 🏠 każda lama kosztuje 10 · 🏠 7 kart w ręce"
            " · 🏁 koniec przy 40 pkt",
        ),
    ],
)
def test_the_line_says_the_edition_each_house_rule_and_the_threshold(
    locale: str, line: str
) -> None:
    assert variant_badges(locale, PARTY_HOUSE) == line


def test_an_edition_without_house_rules_reads_as_before() -> None:
    assert variant_badges("en", Ruleset()) == "🏁 ends at 40 points"
    assert variant_badges("en", Ruleset(komarami=True, threshold=1)) == (
        "🦟 Lato z Komarami · 🏁 ends at 1 point"
    )
    assert "House rules" not in rules_text("en", Ruleset(party=True))


@pytest.mark.parametrize(
    ("locale", "heading", "sentences"),
    [
        (
            "en",
            "🏠 **House rules**",
            ["Each Llama left in a hand costs 10.", "Each player is dealt 7 cards a round."],
        ),
        (
            "de",
            "🏠 **Hausregeln**",
            ["Jedes Lama auf der Hand kostet 10.", "Jeder bekommt pro Runde 7 Karten."],
        ),
        (
            "es",
            "🏠 **Reglas de la casa**",
            [
                "Cada llama que queda en la mano cuesta 10.",
                "Cada jugador recibe 7 cartas por ronda.",
            ],
        ),
        (
            "pl",
            "🏠 **Zasady domowe**",
            [
                "Każda lama, która zostaje w ręce, kosztuje 10.",
                "Każdy gracz dostaje w rundzie 7 kart.",
            ],
        ),
    ],
)
def test_the_rules_explain_each_house_rule_after_the_editions(
    locale: str, heading: str, sentences: list[str]
) -> None:
    shown = rules_text(locale, PARTY_HOUSE)
    party = shown.index("🎉 **Party Edition:**")
    house = shown.index(heading)
    assert party < house < shown.index(sentences[0]) < shown.index(sentences[1])
    assert shown.index(sentences[1]) < shown.index("🏁")


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_every_value_the_lobby_offers_has_words_and_a_sentence(locale: str) -> None:
    for dimension in DIMENSIONS:
        words = [rule_value_text(locale, dimension.name, v) for v in dimension.choices]
        assert all(words) and len(set(words)) == len(words), (dimension.name, words)
        for value in dimension.choices:
            ruleset = Ruleset().with_changes(**{dimension.name: value})
            shown = rules_text(locale, ruleset)
            if ruleset.house_rules:
                assert shown.count("\n• ") == len(ruleset.house_rules), shown


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_the_select_offers_every_other_value_within_discords_limits(locale: str) -> None:
    for ruleset in (Ruleset(), PARTY_HOUSE, Ruleset(komarami=True, no_drama=True)):
        options = house_rule_options(locale, ruleset)
        offered = {(o.name, o.value) for o in options}
        expected = {
            (d.name, v) for d in DIMENSIONS for v in d.choices if getattr(ruleset, d.name) != v
        }
        assert offered == expected
        assert 0 < len(options) <= 25
        for option in options:
            assert option.label[0] == option.label[0].upper()
            assert 0 < len(option.label) <= 100 and 0 < len(option.description) <= 100
            assert parse_rule(rule_value(option.name, option.value)) == (
                option.name,
                option.value,
            )


def test_a_forged_rule_value_is_no_rule() -> None:
    for forged in ("hand_size=40", "colour=blue", "hand_size", "plus_cards=1", "=", ""):
        assert parse_rule(forged) is None


@pytest.mark.parametrize("chip_back", list(ChipBack))
def test_the_chip_back_rule_says_the_no_drama_holder_follows_it(chip_back: ChipBack) -> None:
    """The No Drama holder left with no card gives back what an emptied hand does
    (game.scoring.chip_returned); the edition's own words say "a chip", so the house
    rule's sentence says it replaces that too."""
    shown = rules_text("en", Ruleset.compose("no_drama", chip_back=chip_back))
    if chip_back is ChipBack.LARGEST:  # the edition's own rule: no house rule to explain
        assert "🏠" not in shown
    else:
        assert "No Drama card left with no card" in shown.split("🏠", 1)[1]

"""How cards and chips look in messages: the application's emojis, or plain ones.

The bot holds the faces its messages use now (``LamaBot.faces``); the
``cogs.emojis`` extension replaces them once the application's emojis are there.
Rows of cards and a seat's chips are drawn with them here too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import discord

from bot import art
from game import BLACK, PINK, WHITE, Card, Chips, Ruleset, build_deck

_KEYCAPS = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣"}
_CHIPS = {PINK: "🩷", BLACK: "⚫", WHITE: "⚪"}
_BACK = "🂠"


def plain_card(card: Card) -> str:
    """The card as standard emojis (what the bot shows without its own)."""
    if card is Card.LLAMA:
        return "🦙"
    if card is Card.PINK_LLAMA:
        return "🩷🦙"
    face = _KEYCAPS[card.number]
    return f"{face}➕" if card.is_plus else face


@dataclass
class Faces:
    """How cards and chips look in messages: the application's emojis once they
    are all there, else plain ones. ``emojis`` maps an art name to its emoji."""

    emojis: dict[str, discord.Emoji] = field(default_factory=dict)

    def _own(self, name: str) -> discord.Emoji | None:
        return self.emojis.get(name)

    def card(self, card: Card) -> str:
        own = self._own(art.card_name(card))
        return str(own) if own is not None else plain_card(card)

    def button(self, card: Card) -> discord.Emoji | str | None:
        """A button takes exactly one emoji: the card's own, or the keycap or llama
        (nothing for a plain Plus card; the pink Llama's "🩷🦙" is two emojis,
        which Discord refuses on a button, so it gets the llama)."""
        own = self._own(art.card_name(card))
        if own is not None:
            return own
        if card is Card.PINK_LLAMA:
            return "🦙"
        return None if card.is_plus else plain_card(card)

    def image(self, card: Card) -> str | None:
        """A picture of the card for a thumbnail, if the bot has its own emojis."""
        own = self._own(art.card_name(card))
        return own.url if own is not None else None

    def no_drama_card(self) -> str:
        own = self._own(art.NO_DRAMA)
        return str(own) if own is not None else "🎭"

    def back(self) -> str:
        own = self._own(art.BACK)
        return str(own) if own is not None else _BACK

    def back_button(self) -> discord.Emoji | None:
        return self._own(art.BACK)  # the plain card back is no emoji a button takes

    def chip(self, value: int) -> str:
        own = self._own(art.CHIP_NAMES[value])
        return str(own) if own is not None else _CHIPS[value]


#: The look before (or without) the application's emojis.
PLAIN = Faces()


def chip_icons(faces: Faces, ruleset: Ruleset, points: int) -> str:
    """The chips a seat holds, e.g. " (⚫1 ⚪4)"; empty with no chips."""
    chips = Chips.of(points, pink_chips=ruleset.pink_chips)
    held = [(chips.pink, 20), (chips.black, 10), (chips.white, WHITE)]
    shown = " ".join(f"{faces.chip(value)}{n}" for n, value in held if n)
    return f" ({shown})" if shown else ""


def card_row(
    faces: Faces, cards: Iterable[Card], named: Callable[[Card], str] | None = None
) -> str:
    """Cards as a row of faces, equal cards grouped: "1️⃣×2 4️⃣ 🦙×3"; with ``named``,
    as their names instead (shorter than custom emojis)."""
    counts = Counter(cards)
    order = sorted(counts, key=lambda c: (c.is_llama, c.number, c))
    face = faces.card if named is None else named
    return " ".join(face(c) + (f"×{counts[c]}" if counts[c] > 1 else "") for c in order)


def deck_row(faces: Faces, ruleset: Ruleset) -> str:
    """Every kind of card the game is played with, one face each."""
    kinds = card_row(faces, set(build_deck(ruleset)))
    return f"{kinds} {faces.no_drama_card()}" if ruleset.no_drama_card else kinds

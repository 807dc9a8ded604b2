"""The words of messages: card, seat and rules texts, errors and numbers in a person's language."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import discord
from babel.dates import format_interval, format_skeleton
from babel.numbers import format_decimal

from bot.i18n import language_of, text
from bot.service import MoveRefused, ServiceError
from bot.service.play.table import Seat, Table, ai_number, only_person
from data.records import CANCELLED, FORMER_PLAYER, IDLE_GAME, former_player
from game import Card, IllegalMove, Ruleset
from game.rules import DIMENSIONS, PRESETS


def card_name(locale: str, card: Card, ruleset: Ruleset) -> str:
    """A card's name as the edition in play calls it (Lato z Komarami's llamas are
    mosquitoes, "komary", in Polish)."""
    if card is Card.LLAMA:
        return text(
            locale, "card.llama_komarami" if "komarami" in ruleset.presets else "card.llama"
        )
    if card is Card.PINK_LLAMA:
        return text(locale, "card.pink_llama")
    return card.label


#: Unicode's bidirectional controls (marks, embeddings, overrides, isolates): in a name
#: they would turn the rest of its line around, "10 points" shown as "stniop 01". A name's
#: own letters keep their direction without them.
_BIDI_CONTROLS = dict.fromkeys(
    map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)


def plain_name(name: str) -> str:
    """A display name for a message: it can't bold, hide or link anything, nor ping
    anyone (a user, a role, @everyone or @here), show as a channel or command, or
    turn the text after it around."""
    name = name.translate(_BIDI_CONTROLS)
    name = discord.utils.escape_mentions(discord.utils.escape_markdown(name))
    # "<@", "<#", "</", "<:"…: Discord's markup, broken with a zero-width space.
    return name.replace("<", "<\u200b")


def stored_name(locale: object, name: str) -> str:
    """A seat's stored name as the reader sees it: a forgotten person's seat, which the
    store names :data:`~data.records.FORMER_PLAYER` in English, and an AI seat, stored
    as "AI 1" (see :func:`~bot.service.play.table.ai_name`), in their language.

    For names read without their seat (a game's winners, a chart's lines); someone
    whose display name was one of those word for word reads as a former player or an AI too.
    """
    if name == FORMER_PLAYER:
        return text(locale, "seat.former")
    number = ai_number(name)
    return name if number is None else text(locale, "seat.ai_name", number=number)


def seat_name(locale: str, seat: Seat) -> str:
    """A seat's name for markdown (see :func:`plain_name`); a forgotten person's in the
    reader's language, and not as an AI, though one plays it on in a running game; an
    AI seat's in the reader's language, with its strength. A person keeps the name
    they have, whatever it looks like."""
    if former_player(seat.user_id, seat.name):
        return plain_name(text(locale, "seat.former"))
    if seat.user_id is None and seat.ai is not None:
        name = plain_name(stored_name(locale, seat.name))
        return text(locale, "seat.ai", name=name, strength=text(locale, f"ai.{seat.ai.value}"))
    return plain_name(seat.name)


def variant_badges(locale: str, ruleset: Ruleset) -> str:
    """What is played, on one line: the editions, each house rule, the threshold
    ("🎉 Party Edition · 🏠 hands of 7 cards · 🏁 ends at 40 points")."""
    badges = [text(locale, f"variant.{name}") for name in ruleset.presets]
    badges += [
        f"🏠 {rule_value_text(locale, name, getattr(ruleset, name))}"
        for name in ruleset.house_rules
    ]
    badges.append(text(locale, "variant.threshold", count=ruleset.threshold))
    return " · ".join(badges)


def _rule_key(prefix: str, name: str, value: Any) -> tuple[str, dict[str, Any]]:
    """The catalog key (and its count) of a dimension's value: ``house.hand_size`` with
    the count for a number, ``house.plus_cards.on`` for a switch, ``house.llama_cost.each``."""
    if isinstance(value, bool):
        return f"{prefix}.{name}.{'on' if value else 'off'}", {}
    if isinstance(value, int):
        return f"{prefix}.{name}", {"count": value}
    return f"{prefix}.{name}.{getattr(value, 'value', value)}", {}


def rule_value_text(locale: str, name: str, value: Any) -> str:
    """A rule dimension's value in a few words: "hands of 7 cards", "Llamas cost 10 each"."""
    key, params = _rule_key("house", name, value)
    return text(locale, key, **params)


def rule_sentence(locale: str, name: str, value: Any) -> str:
    """A house rule as /lama rules explains it: "Each player is dealt 7 cards a round." """
    key, params = _rule_key("rules.house", name, value)
    return text(locale, key, **params)


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One choice of the lobby's house rules select: a dimension's other value."""

    name: str
    value: Any
    label: str  # the value in words, capitalised
    description: str  # the dimension, and its value now


def house_rule_options(locale: str, ruleset: Ruleset) -> list[RuleOption]:
    """Every value the lobby offers that ``ruleset`` doesn't have, dimension by dimension
    (at most one fewer than the choices of each: 14 today, within Discord's 25)."""
    options = []
    for dimension in DIMENSIONS:
        now = getattr(ruleset, dimension.name)
        rule = text(locale, f"rule.{dimension.name}")
        current = rule_value_text(locale, dimension.name, now)
        about = text(locale, "lobby.house_rule_now", rule=rule, value=current)[:100]
        for value in dimension.choices:
            if value != now:
                words = rule_value_text(locale, dimension.name, value)
                label = (words[:1].upper() + words[1:])[:100]
                options.append(RuleOption(dimension.name, value, label, about))
    return options


def timer_text(locale: str, seconds: int) -> str:
    return (
        text(locale, "timer.off") if seconds <= 0 else text(locale, "timer.seconds", count=seconds)
    )


def rules_text(locale: str, ruleset: Ruleset | None) -> str:
    """/lama rules: the base game, then the game's editions, its house rules (each in a
    sentence: they replace what the rules before say) and its threshold; without a game,
    the editions one may choose (every one of :data:`~game.rules.PRESETS`)."""
    parts = [text(locale, "rules.base")]
    if ruleset is not None:
        for name in ruleset.presets:
            parts.append(text(locale, f"rules.{name}"))
        if ruleset.house_rules:
            lines = [text(locale, "rules.house")]
            for name in ruleset.house_rules:
                lines.append("• " + rule_sentence(locale, name, getattr(ruleset, name)))
            parts.append("\n".join(lines))
        parts.append(text(locale, "rules.threshold", count=ruleset.threshold))
    else:
        editions = ", ".join(text(locale, f"variant.{key}") for key in PRESETS)
        parts.append(text(locale, "rules.variants_all", editions=editions))
    return "\n\n".join(parts)


def error_text(locale: object, error: Exception, ruleset: Ruleset | None = None) -> str:
    """What went wrong, for the player; cards named as ``ruleset`` (the game's
    edition) names them."""
    if isinstance(error, MoveRefused):  # its reason says why
        return error_text(locale, error.reason, ruleset)
    if isinstance(error, ServiceError):
        return text(locale, error.key, **error.params)
    if isinstance(error, IllegalMove):
        params = {k: _param(locale, v, ruleset) for k, v in error.params.items()}
        key = f"illegal.{error.code}"
        try:
            return text(locale, key, **params)
        except KeyError:
            return str(error)
    raise error


def _param(locale: object, value: Any, ruleset: Ruleset | None) -> Any:
    if isinstance(value, Card):
        return card_name(str(getattr(locale, "value", locale)), value, ruleset or Ruleset())
    return value


# ---------------------------------------------------------------- numbers
def number(locale: object, value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals, written as the language writes numbers
    (Babel's: "2.8", "2,8"); rounded half to even, as Python rounds."""
    if digits <= 0:
        return format_decimal(round(value), format="0", locale=language_of(locale))
    pattern = "0." + "0" * digits
    return format_decimal(round(value, digits), format=pattern, locale=language_of(locale))


def percent(locale: object, rate: float) -> str:
    """A rate (0.5) as a whole percentage ("50%", "50 %"), the sign as the catalog puts it."""
    return text(locale, "stats.percent", value=number(locale, rate * 100, 0))


def points(locale: str, value: float, *, fine: bool = False) -> str:
    """Expected points as a whole number, or to a tenth (``fine``)."""
    return number(locale, value, 1 if fine else 0)


def signed(change: int) -> str:
    """A rating change as players read it: "+18", "−5" (a true minus sign), "±0"."""
    if change > 0:
        return f"+{change}"
    return f"\u2212{-change}" if change < 0 else "\u00b10"


def end_key(table: Table, reason: str | None) -> str:
    """The key of what a cancelled table says of its end: ``reason``, a cancel that is
    rated all the same saying so (see :meth:`~bot.service.ratings.Rater.cancel_rating`),
    an idle game of one person against AIs saying its own wait."""
    key = reason or table.end_reason or CANCELLED
    if key == IDLE_GAME and only_person(table) is not None:
        return "closed.idle_game_alone"  # its own, shorter wait (Timing.alone_game_idle)
    return "closed.cancelled_rated" if key == CANCELLED and table.rated_end else key


def leaving_cost(locale: str, table: Table, user_id: int, key: str = "done.leave_rating") -> str:
    """What leaving (or cancelling, ``key``) took from the person's rating, said after the
    answer once the game it ended is rated ("" before: a game going on is rated at its
    end; a cancel before anyone else moved is not rated)."""
    seat = table.seat_of(user_id)
    change = table.rating_changes.get(seat) if seat is not None else None
    if change is None:
        return ""
    return " " + text(locale, key, change=f"**{signed(change)}**")


# ---------------------------------------------------------------- dates
def _day(at: int) -> date:
    return datetime.fromtimestamp(at, UTC).date()


def season_label(locale: object, start: int, end: int) -> str:
    """A season [start, end) (unix seconds, UTC) by its dates, as the language writes
    them (Babel's): a calendar month by its name ("March 2026", "marzec 2026"), any
    other by its first and last day ("Mar 3 – 16, 2026")."""
    # Its last day is the one its last second falls in: a season that ends at 14:30 runs
    # into that day, one that ends at midnight stops the day before.
    first, last = _day(start), _day(end - 1)
    language = language_of(locale)
    whole_month = (
        first.day == 1
        and (last + timedelta(days=1)).day == 1
        and (last.year, last.month) == (first.year, first.month)
    )
    if whole_month:
        return format_skeleton("yMMMM", first, locale=language)
    if last <= first:
        return format_skeleton("yMMMd", first, locale=language)
    return format_interval(first, last, "yMMMd", locale=language)

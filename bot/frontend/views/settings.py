"""A server's settings as words: /lama settings show, channels allowed, the season in force."""

from __future__ import annotations

from bot.i18n import language_of, text
from bot.service.house_rules import OWN
from bot.service.ratings.seasons import Season
from data import ServerSettings

from ..replies import Interaction
from ..words import timer_text

#: At most this many channels on a server's list (each is named in the refusals).
MAX_CHANNELS = 25


def channel_list(locale: object, channels: tuple[int, ...]) -> str:
    """The allowed channels as mentions, or "every channel" when none are listed."""
    if not channels:
        return text(locale, "settings.channels.every")
    return ", ".join(f"<#{channel_id}>" for channel_id in channels)


def allowed_here(interaction: Interaction, channels: tuple[int, ...]) -> bool:
    """Whether /lama new may open a table here: any channel if none are listed, else a
    listed channel or a thread of one."""
    if not channels:
        return True
    if interaction.channel_id in channels:
        return True
    parent = getattr(interaction.channel, "parent_id", None)
    return parent is not None and parent in channels


def settings_text(
    locale: object,
    settings: ServerSettings,
    *,
    guild_locale: object,
    bot_timer: int,
    season: Season | None = None,
    saved_rules: int = 0,
) -> str:
    """Every setting of the server, one line each, with the defaults said as such
    (``saved_rules``: how many house rules it saved)."""
    if settings.language is None:
        name = text(locale, f"language.{language_of(guild_locale)}")
        language = text(locale, "settings.show.language_default", language=name)
    else:
        language = text(locale, f"language.{settings.language}")
    if settings.turn_timer is None:
        timer = text(locale, "settings.show.default", value=timer_text(str(locale), bot_timer))
    else:
        timer = timer_text(str(locale), settings.turn_timer)
    hints_on = True if settings.hints is None else settings.hints
    hints = text(locale, "settings.show.on" if hints_on else "settings.show.off")
    if settings.hints is None:
        hints = text(locale, "settings.show.default", value=hints)
    lines = [
        text(locale, "settings.show.title"),
        text(locale, "settings.show.language", value=language),
        text(locale, "settings.show.timer", value=timer),
        text(locale, "settings.show.hints", value=hints),
        text(locale, "settings.show.channels", value=channel_list(locale, settings.channels)),
    ]
    if season is not None:
        lines.append(
            text(
                locale,
                "settings.show.season",
                length=season_length_text(locale, season),
                end=f"<t:{season.end}:f>",
            )
        )
    board = settings.house_rules_board or OWN
    lines.append(
        text(
            locale,
            "settings.show.house_rules",
            board=text(locale, f"house.show.{board}"),
            count=saved_rules,
        )
    )
    return "\n".join(lines)


def season_length_text(locale: object, season: Season) -> str:
    """How long the server's seasons last: so many days, or a calendar month."""
    if season.days is None:
        return text(locale, "season.monthly")
    return text(locale, "season.days", count=season.days)


def season_text(
    locale: object, season: Season, *, started: bool = False, changed: bool = False
) -> str:
    """The season in force: its length, start and end (Discord shows the times in the
    reader's own time zone and language)."""
    key = "settings.season.started" if started else "settings.season.set"
    lines = [text(locale, key)] if changed else []
    lines.append(
        text(
            locale,
            "settings.season.now",
            length=season_length_text(locale, season),
            start=f"<t:{season.start}:f>",
            end=f"<t:{season.end}:f>",
        )
    )
    return "\n".join(lines)

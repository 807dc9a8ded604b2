"""Discord's limits at the worst a real server can produce: six seats with 32-character
names that escaping doubles, every variant, the highest end threshold, every language.

SimCord refuses a message over a limit as Discord does (40 components, 4,000 characters
of text, a button's 80, a custom id's 100 …), but not an autocomplete's answer: that is
checked here with :func:`choices_within_limits`. What a layout loses to :func:`fit` (a
line cut, "…") is a player's missing information, so the tests check it is all there.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord

from bot.frontend.faces import Faces
from bot.frontend.views.layout import MAX_COMPONENTS, MAX_TEXT, component_count, text_length
from bot.frontend.views.replay import replay_view
from bot.service.replay import build_replay
from data.records import GameRecord, SeatRecord
from game import DRAW, MAX_PLAYERS, Match, Ruleset
from game.rules import MAX_THRESHOLD
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401  (the fixture)

LOCALES = ["en-US", "de", "es-ES", "pl"]
#: Discord's longest display name (32 characters), each of which markdown escaping doubles.
LONGEST_NAME = "*_" * 16


def choices_within_limits(choices: list[dict[str, Any]]) -> None:
    """An autocomplete's answer as Discord takes it: at most 25 choices, each named in 1
    to 100 characters, a string value at most 100."""
    assert len(choices) <= 25
    for choice in choices:
        assert 1 <= len(choice["name"]) <= 100, choice
        if isinstance(choice["value"], str):
            assert len(choice["value"]) <= 100, choice


def faces(env: simcord.Env) -> Faces:
    return env.bot.faces  # type: ignore[attr-defined, no-any-return]


def long_game(seed: int) -> Match:
    """Six seats, every variant, to the highest threshold, drawing whenever they may:
    long hands, many rounds and the highest totals, every kind of chip."""
    rng = random.Random(seed)
    match = Match(Ruleset(True, True, True, threshold=MAX_THRESHOLD), MAX_PLAYERS)
    while not match.over:
        match.deal(rng.randrange(2**32))
        while match.in_round:
            legal = match.legal_actions()
            move = DRAW if DRAW in legal and rng.random() < 0.85 else rng.choice(legal)
            seat = match.to_move
            assert seat is not None
            match.apply(seat, move)
    return match


def record_of(match: Match) -> GameRecord:
    seats = tuple(
        SeatRecord(seat, 1000 + seat, None, LONGEST_NAME) for seat in range(match.players)
    )
    return GameRecord(
        id=2**63 - 1,
        guild_id=1,
        channel_id=2,
        table_message_id=None,
        host_id=1000,
        ruleset=match.ruleset,
        status="finished",
        turn_timer=0,
        turn_deadline=None,
        language=None,
        created_at=0.0,
        updated_at=0.0,
        seats=seats,
        events=tuple(match.events),
        finished_at=1.0,
    )


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_step_of_the_longest_replay_shows_every_seat_and_the_standings(
    simcord_env: simcord.Env, locale: str
) -> None:
    replay = build_replay(record_of(long_game(3)))
    for number in range(len(replay.steps)):
        view = replay_view(replay, number, locale, faces(simcord_env))
        assert component_count(view) <= MAX_COMPONENTS and text_length(view) <= MAX_TEXT
        shown = [i.content for i in view.walk_children() if hasattr(i, "content")]
        assert not [t for t in shown if t.endswith("…")], f"step {number}: cut to fit"
        seats = "\n".join(shown)
        assert seats.count("\n└ ") == MAX_PLAYERS, f"step {number}: a seat's hand is missing"
    assert "\n6. " in seats, "the last step's standings, every place"


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_season_length_typed_too_long_still_gets_its_suggestions(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,  # noqa: F811
    locale: str,
) -> None:
    """Discord refuses an answer with a value over 100 characters ("Loading options
    failed"): a number of days no season can last is not suggested, the usual ones are."""
    locales.user(alice, locale)
    typed = "9" * 150
    choices = await alice.autocomplete(channel, "lama settings season", "length", typed)
    choices_within_limits(choices)
    assert [c["value"] for c in choices] == ["monthly", "7", "14", "30", "90", "365"]
    out_of_range = await alice.autocomplete(channel, "lama settings season", "length", "366")
    assert "366" not in [c["value"] for c in out_of_range]


@pytest.mark.parametrize("typed", ["²", "1" * 5000])
async def test_a_season_length_python_cannot_read_as_a_number_still_gets_suggestions(
    channel: simcord.ChannelHandle, alice: simcord.MemberActor, typed: str
) -> None:
    """A superscript digit, or more digits than Python turns into a number: before, the
    suggestions failed on them (a ValueError), and Discord showed none."""
    choices = await alice.autocomplete(channel, "lama settings season", "length", typed)
    assert [c["value"] for c in choices] == ["monthly", "7", "14", "30", "90", "365"]

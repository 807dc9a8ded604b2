"""Discord's limits at the worst a real server can produce: six seats with 32-character
names that escaping doubles, every variant, the highest end threshold, every language.

SimCord refuses a message over a limit as Discord does (40 components, 4,000 characters
of text, a button's 80, a custom id's 100 …), but not an autocomplete's answer: that is
checked here with :func:`choices_within_limits`. What a layout loses to :func:`fit` (a
line cut, "…") is a player's missing information, so the tests check it is all there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import discord
import pytest
import simcord
from simcord.components import COMPONENTS_V2_FLAG, validate_components

from bot.frontend.faces import Faces
from bot.frontend.views.hand import hand_view
from bot.frontend.views.history import HISTORY_SIZE, history_view
from bot.frontend.views.lobby import lobby_view
from bot.frontend.views.replay import replay_view
from bot.frontend.views.table import MAX_MOVE_ROWS, table_view
from bot.i18n import text
from bot.service.history.replay import build_replay
from bot.service.play.table import RECENT_MOVES, MoveLine, Seat, Status, Table
from data.records import GameRecord, HistoryRow, SeatRecord
from game import DRAW, MAX_PLAYERS, Action, Match, Play, Ruleset
from game.ai import Strength
from game.rules import MAX_THRESHOLD
from testkit.records import finished_record
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow  # the longest games and replays, in four languages

LOCALES = ["en-US", "de", "es-ES", "pl"]
#: Discord's longest display name (32 characters), each of which markdown escaping doubles.
LONGEST_NAME = "*_" * 16
#: Every variant, to the highest end threshold.
EVERY_VARIANT = Ruleset(no_drama=True, party=True, komarami=True, threshold=MAX_THRESHOLD)


def choices_within_limits(choices: list[dict[str, Any]]) -> None:
    """An autocomplete's answer as Discord takes it: at most 25 choices, each named in 1
    to 100 characters, a string value at most 100."""
    assert len(choices) <= 25
    for choice in choices:
        assert 1 <= len(choice["name"]) <= 100, choice
        if isinstance(choice["value"], str):
            assert len(choice["value"]) <= 100, choice


def within_discords_limits(view: discord.ui.LayoutView) -> list[str]:
    """The texts of ``view``, once SimCord's checks of a message (Discord's limits) pass
    on it, and none was cut to fit."""
    validate_components(view.to_components(), flags=COMPONENTS_V2_FLAG)
    shown = [i.content for i in view.walk_children() if isinstance(i, discord.ui.TextDisplay)]
    assert not [t for t in shown if t.endswith("…")], "cut to fit"
    return shown


def no_call(*_: object) -> None:
    pass


def faces(env: simcord.Env) -> Faces:
    return env.bot.faces  # type: ignore[attr-defined, no-any-return]


def long_game(seed: int, each: Callable[[Match, int, Action], object] = no_call) -> Match:
    """Six seats, every variant, to the highest threshold, drawing whenever they may:
    long hands, many rounds and the highest totals, every kind of chip. ``each`` is
    called after every move with the match, the seat that moved and its move."""
    rng = random.Random(seed)
    match = Match(EVERY_VARIANT, MAX_PLAYERS)
    while not match.over:
        match.deal(rng.randrange(2**32))
        while match.in_round:
            legal = match.legal_actions()
            move = DRAW if DRAW in legal and rng.random() < 0.85 else rng.choice(legal)
            seat = match.to_move
            assert seat is not None
            match.apply(seat, move)
            each(match, seat, move)
    return match


def record_of(match: Match) -> GameRecord:
    seats = tuple(
        SeatRecord(seat, 1000 + seat, None, LONGEST_NAME) for seat in range(match.players)
    )
    return finished_record(
        seats,
        match.events,
        id=2**63 - 1,
        channel_id=2,
        host_id=1000,
        ruleset=match.ruleset,
        finished_at=1.0,
    )


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_step_of_the_longest_replay_shows_every_seat_and_the_standings(
    simcord_env: simcord.Env, locale: str
) -> None:
    replay = build_replay(record_of(long_game(3)))
    for number in range(len(replay.steps)):
        shown = within_discords_limits(replay_view(replay, number, locale, faces(simcord_env)))
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


def worst_table(match: Match, locale: str) -> Table:
    """Six seats of the longest names: four playing, one away, one kicked (an AI plays it
    on); hints on, an hour's turn timer."""
    seats = [Seat(1000 + i, None, LONGEST_NAME) for i in range(match.players)]
    seats[4] = replace(seats[4], away=True)
    seats[5] = replace(seats[5], ai=Strength.HARD)
    return Table(
        game_id=2**63 - 1,
        guild_id=1,
        channel_id=2,
        host_id=1000,
        ruleset=match.ruleset,
        turn_timer=3600,
        locale=locale,
        seats=seats,
        status=Status.RUNNING,
        hints=True,
        match=match,
        turn_deadline=2.0**33,
    )


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_longest_game_keeps_its_table_and_hands_whole_within_discords_limits(
    simcord_env: simcord.Env, locale: str
) -> None:
    """Every seat, every hand's cards and buttons, the scoring and the standings are
    shown whole at every point of the game; only the oldest moves are summed up."""
    tables: list[Table] = []
    checked: list[int] = []

    def check(match: Match, seat: int, move: Action) -> None:
        if not tables:
            tables.append(worst_table(match, locale))
        table = tables[0]
        card = int(move.card) if isinstance(move, Play) else None
        kind = "play" if card is not None else "draw" if move == DRAW else "timeout"
        table.recent.append(MoveLine(seat, kind, card))
        if len(match.events) % 5 and match.in_round:
            return
        # The default list; every line kept, after a million moves never listed.
        for moves, unlisted in ((None, 0), (list(table.recent), 10**6)):
            drawn = table_view(table, faces(simcord_env), moves, unlisted=unlisted)
            shown = within_discords_limits(drawn)
            if match.in_round:
                assert sum(t.startswith(("▶️", "▫️")) for t in shown) == MAX_PLAYERS
            listed = next(t for t in shown if t.startswith(f"**{text(locale, 'table.recent')}**"))
            assert listed.count("\n") <= MAX_MOVE_ROWS, "the oldest moves summed up in a row"
            if unlisted:  # counted first, with the kept lines summed up before the first shown
                counts = range(unlisted, unlisted + RECENT_MOVES + 1)
                first = listed.split("\n")[1]
                assert any(first == text(locale, "table.more_moves", count=n) for n in counts)
        checked.append(len(table.recent))
        for reader in range(MAX_PLAYERS):
            hand = within_discords_limits(hand_view(table, reader, locale, faces(simcord_env)))
            if match.in_round and match.round is not None and match.round.hands[reader]:
                assert any("\n# <:" in t for t in hand), "the hand's cards"

    match = long_game(3, check)
    assert len(checked) > 30 and max(checked) == RECENT_MOVES
    table = tables[0]
    table.status = Status.FINISHED
    table.rating_changes = {seat: -999 for seat in range(MAX_PLAYERS)}
    final = "\n".join(within_discords_limits(table_view(table, faces(simcord_env))))
    assert max(match.points) >= MAX_THRESHOLD and "\n6. " in final
    for reader in range(MAX_PLAYERS):
        within_discords_limits(hand_view(table, reader, locale, faces(simcord_env)))


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_fullest_lobby_and_history_stay_whole(
    simcord_env: simcord.Env, locale: str
) -> None:
    """A lobby of three people and the three AI strengths with every option on; ten games
    of /lama history, each won by four players of the longest names (a tie)."""
    people = [Seat(10**18 + i, None, LONGEST_NAME) for i in range(3)]
    ais = [Seat(None, strength, f"AI {n}") for n, strength in enumerate(Strength, 1)]
    lobby = replace(
        worst_table(Match(EVERY_VARIANT, MAX_PLAYERS), locale),
        seats=people + ais,
        status=Status.LOBBY,
    )
    within_discords_limits(lobby_view(lobby, faces(simcord_env)))
    games = [
        HistoryRow(2**63 - 1 - i, 2.0**33, MAX_PLAYERS, 999, MAX_PLAYERS, True, (LONGEST_NAME,) * 4)
        for i in range(HISTORY_SIZE)
    ]
    listed = within_discords_limits(history_view(locale, faces(simcord_env), LONGEST_NAME, games))
    assert sum(t.count(f"#{2**63 - 1}") for t in listed) == 1 and len(listed) == HISTORY_SIZE + 2

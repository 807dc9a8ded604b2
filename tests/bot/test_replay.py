"""/lama replay through SimCord: a finished game step by step, privately, for who may see it.

The game: in round 1 alice draws a 2, bob plays his 4, alice her 5, bob quits with his
Llama (10) and alice, last in the round, quits with a 2 and a 3 (5). In round 2 alice
plays her only card, a 6, and gives a white chip back (4); bob's Llama takes him to 20,
past the threshold of 15. Eight steps: two deals and six moves.
"""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest
import simcord

from bot.config import Settings
from bot.frontend.faces import Faces
from bot.frontend.views.layout import (
    COLOR_OVER,
    COLOR_ROUND_OVER,
    COLOR_TABLE,
    MAX_COMPONENTS,
    MAX_TEXT,
    component_count,
    text_length,
)
from bot.frontend.views.replay import replay_view
from bot.i18n import text
from bot.service.play.table import Table
from data import EVERYTHING
from game import Card
from testkit.simcord_play import (
    accent,
    custom_ids,
    forged,
    is_components_v2,
    service,
    table_message,
    texts,
    two_player_game,
)
from testkit.slow_store import held
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401  (the fixture)
from tests.bot.stats.games import C, Round, insert_random_game, play_rigged_game
from tests.process.common import restart

GAME = [
    Round(
        hands=[[C.THREE, C.FIVE], [C.FOUR, C.LLAMA]],
        top=C.THREE,
        pile=[C.TWO],
        moves=[(0, "draw"), (1, C.FOUR), (0, C.FIVE), (1, "quit"), (0, "quit")],
    ),
    Round(hands=[[C.SIX], [C.LLAMA]], top=C.FIVE, moves=[(0, C.SIX)]),
]
STEPS = 8
SEEN = discord.PermissionOverwrite(view_channel=True)
HIDDEN = discord.PermissionOverwrite(view_channel=False)


def faces(env: simcord.Env) -> Faces:
    return env.bot.faces  # type: ignore[attr-defined, no-any-return]


def row(env: simcord.Env, *cards: Card) -> str:
    """A hand as the replay shows it: the bot's card emojis, in order."""
    return " ".join(faces(env).card(card) for card in cards)


def buttons(message: Any) -> dict[str, tuple[str, bool]]:
    """The replay's buttons by label: (custom_id, disabled)."""
    return {label: (cid, disabled) for cid, label, disabled in custom_ids(message)}


def step_line(message: Any) -> str:
    found = re.search(r"Step \d+ of \d+ · round \d+", texts(message))
    assert found, texts(message)
    return found[0]


@pytest.fixture
async def finished(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> Table:
    table = await play_rigged_game(simcord_env, channel, [alice, bob], GAME, threshold=15)
    await simcord_env.advance_time(3)
    return table


async def open_replay(
    player: simcord.MemberActor, channel: simcord.ChannelHandle, **options: Any
) -> simcord.results.ResponseMessage:
    result = await player.slash(channel, "lama replay", **options)
    assert result.response is not None and result.ephemeral, "a replay is private"
    assert is_components_v2(result.response)
    return result.response


async def click(
    player: simcord.MemberActor, message: Any, label: str
) -> simcord.results.ResponseMessage:
    cid, disabled = buttons(message)[label]
    assert not disabled, f"{label} is disabled"
    result = await player.click(message, custom_id=cid)
    assert result.response is not None and result.response.ephemeral
    return result.response


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_stepping_through_a_finished_game(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    finished: Table,
) -> None:
    env, game = simcord_env, finished.game_id
    shown = await open_replay(alice, channel, game=game)
    assert f"🎬 Replay of game #{game}" in texts(shown)
    assert step_line(shown) == "Step 1 of 8 · round 1"
    # Every hand open from the deal on, and who starts.
    assert f"**alice** · 0 points — to move\n└ {row(env, C.THREE, C.FIVE)}" in texts(shown)
    assert f"**bob** · 0 points\n└ {row(env, C.FOUR, C.LLAMA)}" in texts(shown)
    assert "▶️ **New round dealt; alice starts**" in texts(shown)
    assert accent(shown) == COLOR_TABLE.value
    first = buttons(shown)
    assert first["First"][1] and first["Back"][1], "nothing before the first step"
    assert not first["Next"][1] and not first["Last"][1] and not first["Next round"][1]

    # Next: the draw, with the card drawn (the game is over: no secret).
    shown = await click(alice, shown, "Next")
    assert step_line(shown) == "Step 2 of 8 · round 1"
    assert f"alice drew {faces(env).card(C.TWO)} 2" in texts(shown)
    assert f"**alice** · 0 points\n└ {row(env, C.TWO, C.THREE, C.FIVE)}" in texts(shown)
    assert f"**bob** · 0 points — to move\n└ {row(env, C.FOUR, C.LLAMA)}" in texts(shown)

    # Next twice, then Back: the step before, bob's 4 on top.
    shown = await click(alice, shown, "Next")
    shown = await click(alice, shown, "Next")
    assert f"alice played {faces(env).card(C.FIVE)} 5" in texts(shown)
    shown = await click(alice, shown, "Back")
    assert step_line(shown) == "Step 3 of 8 · round 1"
    assert f"Top card: {faces(env).card(C.FOUR)} **4**" in texts(shown)
    assert f"**bob** · 0 points\n└ {row(env, C.LLAMA)}" in texts(shown)

    # Next round: the second deal, after round 1's scoring.
    shown = await click(alice, shown, "Next round")
    assert step_line(shown) == "Step 7 of 8 · round 2"
    assert "▶️ **New round dealt; alice starts**" in texts(shown)
    assert "**alice** · 5 points" in texts(shown) and "**bob** · 10 points" in texts(shown)
    assert buttons(shown)["Next round"][1], "no round after the last"

    # Back to round 1's end: its scoring, every hand as it was scored.
    shown = await click(alice, shown, "Back")
    assert step_line(shown) == "Step 6 of 8 · round 1"
    assert "▶️ **alice quit the round**" in texts(shown)
    scoring = texts(shown).split("**Round 1 — scoring**", 1)[1]
    assert f"**alice**: {row(env, C.TWO, C.THREE)} → 2 + 3 = **5**" in scoring
    assert f"**bob**: {row(env, C.LLAMA)} → " in scoring and "= **10**" in scoring
    assert accent(shown) == COLOR_ROUND_OVER.value

    # Last: the game's end, its scoring, the winner and the standings.
    shown = await click(alice, shown, "Last")
    assert step_line(shown) == "Step 8 of 8 · round 2"
    assert f"▶️ **alice played {faces(env).card(C.SIX)} 6**" in texts(shown)
    assert "**Round 2 — scoring**" in texts(shown)
    assert "game over**\n🏆 The winner is **alice**!" in texts(shown)
    assert "1. alice — 4 points" in texts(shown) and "2. bob — 20 points" in texts(shown)
    assert accent(shown) == COLOR_OVER.value
    last = buttons(shown)
    assert last["Next"][1] and last["Last"][1] and last["Next round"][1]

    # First: back to the deal.
    shown = await click(alice, shown, "First")
    assert step_line(shown) == "Step 1 of 8 · round 1"
    # The buttons of one message never share an id, disabled ones included.
    ids = [cid for cid, _label, _disabled in custom_ids(shown)]
    assert len(ids) == len(set(ids)) == 5


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_without_a_number_the_askers_latest_game_here(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    finished: Table,
) -> None:
    # A newer game of alice's in another server doesn't count; bob's game here is his latest.
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    await insert_random_game(store, 4242, [(alice.id, "alice"), (None, "Bot")], random.Random(1))
    for player in (alice, bob):
        shown = await open_replay(player, channel)
        assert f"🎬 Replay of game #{finished.game_id}" in texts(shown), player.name
        assert step_line(shown) == "Step 1 of 8 · round 1"
    carol = guild.add_member(simcord_env.create_user("carol"))
    none = await carol.slash(channel, "lama replay")
    assert none.response is not None and none.ephemeral
    assert none.response.content == text("en", "replay.none")


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_one_may_not_replay_gets_one_same_private_answer(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Another server's game, a game in a channel the asker can't see, a game still
    running and a number no game has: the same answer, so none of them is given away."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    await insert_random_game(store, 4242, [(1, "x"), (2, "y")], random.Random(1))
    [foreign] = await store.stats.history(4242, 1, limit=1, sight=EVERYTHING)
    assert guild.me is not None
    secret = guild.create_text_channel(
        "secret",
        overwrites={guild.default_role: HIDDEN, guild.me: SEEN, alice: SEEN, bob: SEEN},
    )
    hidden = await play_rigged_game(simcord_env, secret, [alice, bob], GAME, threshold=15)
    running = await two_player_game(simcord_env, alice, bob, channel)
    carol = guild.add_member(simcord_env.create_user("carol"))
    for game in (foreign.game_id, hidden.game_id, running.game_id, 987_654):
        result = await carol.slash(channel, "lama replay", game=game)
        assert result.response is not None and result.ephemeral, game
        assert result.response.content == text("en", "replay.unknown", game=game)
        assert not result.response.components

    # Alice sees #secret: she may replay its game, from any channel of the server.
    shown = await open_replay(alice, channel, game=hidden.game_id)
    assert f"#{hidden.game_id}" in texts(shown)

    # A replay button of the hidden game, clicked by carol (a copied message): refused too.
    cid = buttons(shown)["Next"][0]
    result = await carol.click(forged(simcord_env, channel, cid), custom_id=cid)
    assert result.response is not None and result.ephemeral
    assert result.response.content == text("en", "replay.unknown", game=hidden.game_id)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_replay_buttons_work_anywhere_in_the_server_and_nowhere_else(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    finished: Table,
) -> None:
    """A replay is private: its buttons are not held to the game's channel (as a table's
    are), but to its server, and to who may see the game."""
    cid = f"lama:replay:{finished.game_id}:1:next"
    side = guild.create_text_channel("side")
    result = await alice.click(forged(simcord_env, side, cid), custom_id=cid)
    assert result.response is not None and result.ephemeral
    assert step_line(result.response) == "Step 2 of 8 · round 1"

    # Alice is in another server too: there, this server's game is no game of hers to see.
    other = simcord_env.create_guild("Elsewhere", owner=simcord_env.create_user("mallory"))
    there = other.create_text_channel("games")
    alice_there = other.add_member(alice.user)
    for custom_id in (cid, f"lama:replay:{finished.game_id}:0:open"):
        result = await alice_there.click(forged(simcord_env, there, custom_id), custom_id=custom_id)
        assert result.response is not None and result.ephemeral
        assert result.response.content == text("en", "replay.unknown", game=finished.game_id)
        assert not result.response.components


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_forged_step_is_answered_clearly(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    finished: Table,
) -> None:
    game = finished.game_id
    for step in (STEPS, 10**18):
        cid = f"lama:replay:{game}:{step}:next"
        result = await alice.click(forged(simcord_env, channel, cid), custom_id=cid)
        assert result.response is not None and result.ephemeral
        assert result.response.content == text(
            "en", "replay.no_step", game=game, step=step + 1, count=STEPS
        )
    # A step past what the store's numbers hold, or an action we never made: unknown.
    for cid in (f"lama:replay:{game}:{2**63}:next", f"lama:replay:{game}:1:skip"):
        result = await alice.click(forged(simcord_env, channel, cid), custom_id=cid)
        assert result.response is not None and result.ephemeral
        assert result.response.content == text("en", "error.unknown_button")


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_finished_table_offers_the_replay(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    finished: Table,
) -> None:
    table = table_message(channel)
    [replay] = [cid for cid, label, _ in custom_ids(table) if label == "Replay"]
    assert replay == f"lama:replay:{finished.game_id}:0:open"
    # Anyone reading the channel may watch it, privately, in a message of their own.
    dave = guild.add_member(simcord_env.create_user("dave"))
    result = await dave.click(table, custom_id=replay)
    assert result.response is not None and result.ephemeral
    assert step_line(result.response) == "Step 1 of 8 · round 1"
    assert table_message(channel).id == table.id, "the table stays as it is"
    shown = await click(dave, result.response, "Next")
    assert step_line(shown) == "Step 2 of 8 · round 1"


async def test_the_replay_in_the_askers_language(
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    finished: Table,
    locales: Locales,  # noqa: F811
) -> None:
    german = locales.user(alice, "de")
    shown = await open_replay(german, channel, game=finished.game_id)
    assert f"🎬 Wiederholung von Spiel #{finished.game_id}" in texts(shown)
    assert "Schritt 1 von 8 · Runde 1" in texts(shown)
    assert {"Anfang", "Zurück", "Weiter", "Ende", "Nächste Runde"} == set(buttons(shown))
    polish = locales.user(alice, "pl")
    result = await polish.slash(channel, "lama replay", game=999_999)
    assert result.response is not None
    assert result.response.content == text("pl", "replay.unknown", game=999_999)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_forgotten_seat_is_the_former_player_in_the_askers_language(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    finished: Table,
    locales: Locales,  # noqa: F811
) -> None:
    """alice, the winner, is forgotten: bob's replay, history and chart call her seat
    the former player in his language, not in the English the store keeps."""
    await service(simcord_env).store.forget.forget_user(alice.id)
    german = locales.user(bob, "de")
    shown = await open_replay(german, channel, game=finished.game_id)
    last = await click(german, shown, "Ende")
    assert "ehemaliger Spieler" in texts(shown) and "ehemaliger Spieler" in texts(last)
    spanish = locales.user(bob, "es")
    history = await spanish.slash(channel, "lama history")
    assert history.response is not None and "exjugador" in texts(history.response)
    polish = locales.user(bob, "pl")
    chart = await polish.slash(channel, "lama chart", game_id=finished.game_id)
    assert chart.response is not None and "były gracz" in texts(chart.response)
    for message in (shown, last, history.response, chart.response):
        assert "former player" not in texts(message)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_game_option_offers_the_askers_latest_games(
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    finished: Table,
) -> None:
    choices = await alice.autocomplete(channel, "lama replay", "game", "")
    assert [c["value"] for c in choices] == [finished.game_id]
    assert choices[0]["name"].startswith(f"Game #{finished.game_id} · ")
    assert choices[0]["name"].endswith("place 1 of 2")
    typed = await alice.autocomplete(channel, "lama replay", "game", str(finished.game_id))
    assert [c["value"] for c in typed] == [finished.game_id]
    assert await alice.autocomplete(channel, "lama replay", "game", "999999") == []


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_replay_button_works_after_a_restart(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    finished: Table,
) -> None:
    shown = await open_replay(alice, channel, game=finished.game_id)
    shown = await click(alice, shown, "Next")
    await restart(simcord_env, settings)
    # The restarted bot keeps nothing of it: the button's id says the game and the step.
    shown = await click(alice, shown, "Next")
    assert step_line(shown) == "Step 3 of 8 · round 1"
    assert f"bob played {faces(simcord_env).card(C.FOUR)} 4" in texts(shown)
    result = await alice.click(table_message(channel), label="Replay")
    assert result.response is not None and step_line(result.response) == "Step 1 of 8 · round 1"


async def test_every_step_of_a_six_seat_game_fits_discords_limits(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """Six long names, every hand open in the card emojis, and the scoring: within 4,000
    characters and 40 components at every step, the long hands named when they must be."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    names = [(alice.id, "A" * 32), *((None, f"{'Ж' * 30}{n}") for n in range(5))]
    await insert_random_game(
        store, guild.id, names, random.Random(5), threshold=60, channel_id=channel.id
    )
    [row_] = await store.stats.history(guild.id, alice.id, limit=1, sight=EVERYTHING)
    replay = await simcord_env.bot.service.replays.replay(row_.game_id, guild_id=guild.id, person=0)  # type: ignore[attr-defined]
    assert replay is not None and len(replay.steps) > 50
    longest = 0
    for number in range(len(replay.steps)):
        view = replay_view(replay, number, "en", faces(simcord_env))
        assert component_count(view) <= MAX_COMPONENTS
        assert text_length(view) <= MAX_TEXT
        longest = max(longest, text_length(view))
    assert longest > 1500, "a test of long layouts"


@pytest.mark.slow  # waits ACK_AFTER (1.5 s) twice in real time
async def test_a_slow_or_failing_store_still_answers_the_click(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    finished: Table,
) -> None:
    """A replay the bot doesn't keep, read from a locked store: the click is acknowledged
    in time and then answered, or told privately that the replay couldn't be loaded."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    cid = f"lama:replay:{finished.game_id}:2:open"
    # Holds past SimCord's settle window (5 s): they wait for the test to move the clock.
    with held(store.games, "load_game", 6.0):
        result = await alice.click(forged(simcord_env, channel, cid), custom_id=cid)
        await simcord_env.advance_time(7)
    assert result.acknowledged and result.deferred, "Discord would show 'This interaction failed'"
    [shown] = result.followups
    assert shown.ephemeral and step_line(shown) == "Step 3 of 8 · round 1"

    carol = guild.add_member(simcord_env.create_user("carol"))
    with held(store.stats, "finished_channels", 6.0, fails=True):
        result = await carol.click(forged(simcord_env, channel, cid), custom_id=cid)
        await simcord_env.advance_time(7)
    assert result.acknowledged
    [told] = result.followups
    assert told.ephemeral and told.content == text("en", "replay.failed")

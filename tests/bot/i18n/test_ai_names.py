"""An AI seat's name in the reader's language: "KI 1" to a German reader, "IA 1" to a
Spanish one, wherever the bot shows it (lobby, table, hand, results, history, chart,
replay), though the store keeps the one language-neutral "AI 1"."""

from __future__ import annotations

import re

import pytest
import simcord

from bot.i18n import text
from bot.service.timing import Timing
from game import Card as C
from testkit.simcord_play import open_lobby, rig, service, table_message, texts

from .conftest import Locales

#: The AI waits before it moves, so alice's hand shows it on turn: longer than SimCord's
#: settle timeout, so only advance_time lets it move.
PAUSE = 10.0


@pytest.mark.parametrize("timing", [Timing(ai_delay=PAUSE)], ids=["AI pause 10 s"])
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_german_server_shows_its_ai_seat_in_german_everywhere(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
) -> None:
    locales.guild(guild, "de")
    german = locales.user(alice, "de")
    # The AI starts and plays its only card: it wins, alice pays 10 for her llama.
    rig(simcord_env, [[C.LLAMA], [C.THREE]], C.THREE, [], starter=1)
    table = await open_lobby(simcord_env, german, channel, threshold=5)
    await german.select(table_message(channel), ["easy"])
    lobby = table_message(channel)
    assert "KI 1 (Leicht)" in texts(lobby)
    await german.click(lobby, label="Starten")
    running = table_message(channel)
    assert "KI 1" in texts(running)
    hand = await german.click(running, label="Meine Hand zeigen")
    assert hand.response is not None and "KI 1" in texts(hand.response), "whose turn it is"
    await simcord_env.advance_time(PAUSE + 1)
    assert table.status.value == "finished"
    results = table_message(channel)
    assert "KI 1" in texts(results)

    history = await german.slash(channel, "lama history")
    assert history.response is not None and "KI 1" in texts(history.response)
    chart = await german.slash(channel, "lama chart", game_id=table.game_id)
    assert chart.response is not None and "KI 1" in texts(chart.response)
    replay = await german.slash(channel, "lama replay", game=table.game_id)
    assert replay.response is not None and "KI 1" in texts(replay.response)

    stored = await service(simcord_env).store.games.load_game(table.game_id)
    assert stored is not None and stored.seats[1].name == "AI 1", "the store's name is neutral"
    for message in (lobby, running, hand.response, results, history.response, chart.response):
        assert "AI 1" not in texts(message), texts(message)
    assert "AI 1" not in texts(replay.response)


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_the_leaderboard_calls_the_ai_what_the_seats_call_it(language: str) -> None:
    """A Polish reader saw "AI 1" at the table but "SI Trudny" on the leaderboard."""
    word = text(language, "seat.ai_name", number=1).replace("1", "").strip()
    assert word in text(language, "board.ai", strength="X").split()
    assert word in re.split(r"[\s-]", text(language, "board.rating_footer", page=1, pages=1))

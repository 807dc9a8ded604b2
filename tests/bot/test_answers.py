"""Every click and command gets an answer Discord accepts: in time, and even when
something fails on the bot's side ("This interaction failed" is never the answer)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.frontend.pings import Pings
from bot.i18n import text
from bot.service.play.table import Status, Table
from testkit.simcord_play import (
    one_move_from_the_end,
    open_lobby,
    service,
    shown_at,
    table_message,
    take_simple_turn,
    texts,
    title,
    two_player_game,
)

from .i18n.conftest import Locales, locales  # noqa: F401  (a fixture, found by name)

#: Seconds Discord takes for each call: more than the 3 s an answer may take, and past
#: SimCord's settle window (5 s), so the slow call waits for the test to move the clock.
SLOW = 6.0


@pytest.fixture
def slow_discord(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call it, and taking the turn ping down takes longer than 3 s, as on a slow Discord."""
    clear = Pings.clear

    async def slow(self: Pings, table: Table, **kwargs: Any) -> None:
        await asyncio.sleep(SLOW)
        await clear(self, table, **kwargs)

    return lambda: monkeypatch.setattr(Pings, "clear", slow)


@pytest.mark.slow  # waits ACK_AFTER (1.5 s) in real time
@pytest.mark.parametrize(
    ("who", "command", "answer"),
    [
        ("alice", "lama cancel", "cancelled"),
        ("alice", "lama leave", "the game was ended"),
        ("bob", "lama kick", "An AI now plays for alice"),
    ],
)
async def test_closing_a_game_is_answered_in_time_however_slow_discord_is(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    slow_discord: Callable[[], None],
    who: str,
    command: str,
    answer: str,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    # bob's seat goes to an AI: alice is the last human, so each command ends the game.
    await alice.slash(channel, "lama kick", member=bob)
    actor = alice if who == "alice" else bob
    options = {"member": alice} if command == "lama kick" else {}
    if who == "bob":
        table.host_id = bob.id  # the host handed on to bob, say; he kicks alice
    slow_discord()

    result = await actor.slash(channel, command, **options)
    await simcord_env.advance_time(SLOW)  # the answer comes once the slow call is done

    assert result.acknowledged and result.ephemeral
    assert result.response is not None and answer in result.response.content
    assert table.status is Status.CANCELLED


@pytest.mark.slow  # waits ACK_AFTER (1.5 s) in real time
async def test_the_cancel_button_is_answered_in_time_however_slow_discord_is(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    slow_discord: Callable[[], None],
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    slow_discord()
    result = await alice.click(table_message(channel), label="Cancel")
    await simcord_env.advance_time(SLOW)  # the table shows it once the slow call is done
    assert result.acknowledged
    assert table.status is Status.CANCELLED
    assert "cancelled" in texts(table_message(channel))


async def test_a_command_that_fails_unexpectedly_gets_a_readable_answer(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await two_player_game(simcord_env, alice, bob, channel)
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=500)

    result = await alice.slash(channel, "lama hand")

    assert result.acknowledged and result.ephemeral
    assert result.response is not None
    assert result.response.content.startswith("Something went wrong")
    assert len(simcord_env.errors) == 1, "and the failure is logged"


@pytest.mark.cooldowns
async def test_a_lobby_discord_failed_to_post_does_not_hold_the_channel(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Discord refuses the answer that would post the lobby (a 500): nobody can see it, so
    it must not keep the channel busy, nor cost its host the wait between tables."""
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=500)

    failed = await alice.slash(channel, "lama new")

    assert failed.response is not None and failed.response.content.startswith(
        "Discord didn't take the lobby's message, so no lobby was opened."
    )
    assert service(simcord_env).registry.table_in(channel.id) is None, "no invisible lobby stays"
    assert "Discord refused its lobby's message" in caplog.text, "the failure is logged"
    again = await alice.slash(channel, "lama new")
    assert again.response is not None and not again.ephemeral, "posted at once"
    assert title(table_message(channel)) == "🦙 L.A.M.A. — lobby"


@pytest.mark.cooldowns
async def test_a_rematch_discord_failed_to_post_can_be_pressed_again(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    """Discord refuses the answer that would post the Rematch's lobby: nobody saw that
    lobby, so the Rematch is not used up by it, and the person is told to press it again."""
    finished = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert finished.status is Status.FINISHED
    await simcord_env.advance_time(3)
    final = table_message(channel)
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=500)

    failed = await locales.user(bob, "de").click(final, label="Rematch")

    assert failed.response is not None and failed.response.ephemeral
    assert "Revanche" in failed.response.content
    assert service(simcord_env).registry.table_in(channel.id) is None, "no invisible lobby stays"
    again = await bob.click(final, label="Rematch")
    assert again.response is not None and not again.ephemeral, "posted at once"
    rematch = service(simcord_env).registry.table_in(channel.id)
    assert rematch is not None and rematch.status is Status.LOBBY
    assert [s.user_id for s in rematch.seats] == [alice.id, bob.id]


async def test_a_join_whose_answer_discord_failed_still_shows_on_the_lobby(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The Join is saved, then Discord refuses the click's answer that would edit the
    lobby (a 500): bob has a seat, so the lobby must come to show him all the same."""
    table = await open_lobby(simcord_env, alice, channel)
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=500)

    await bob.click(table_message(channel), label="Join")
    await simcord_env.advance_time(5)

    assert table.seat_of(bob.id) is not None
    assert f"<@{bob.id}>" in texts(table_message(channel)), "the lobby shows bob seated"


async def test_a_lobby_posted_whose_reading_back_failed_stays_open(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Discord posts the lobby, then fails the read of the message posted (a 500): the
    lobby is in the channel with its buttons, so it stays open and bob's Join works."""
    simcord_env.inject_error("GET", "/webhooks/*/*/messages/@original", status=500)

    posted = await alice.slash(channel, "lama new")

    assert posted.response is not None and not posted.ephemeral
    table = service(simcord_env).registry.table_in(channel.id)
    assert table is not None and table.status is Status.LOBBY, "the lobby posted stays open"
    assert shown_at(simcord_env, table) == table_message(channel).id
    joined = await bob.click(table_message(channel), label="Join")
    assert joined.acknowledged
    assert table.seat_of(bob.id) is not None
    assert f"<@{bob.id}>" in texts(table_message(channel))


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
async def test_a_join_whose_answer_discord_failed_is_told_it_was_done(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    locales: Locales,  # noqa: F811
    language: str,
) -> None:
    """Discord refuses the Join's answer (a 500) after the seat is saved: bob has joined,
    so he is told it was done, in his language, not that it didn't work."""
    table = await open_lobby(simcord_env, alice, channel)
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=500)

    result = await locales.user(bob, language).click(table_message(channel), label="Join")

    assert table.seat_of(bob.id) is not None
    assert result.response is not None and result.ephemeral
    assert result.response.content == text(language, "done.shown_soon")
    assert result.response.content != text(language, "error.unexpected")
    assert not simcord_env.errors, "nothing failed on the bot's side"

"""Words that misled a new player (issue 42): a second Rematch, the AI seats' names,
the lobby's Add AI select."""

from __future__ import annotations

import pytest
import simcord

from bot.service.play.table import Status
from testkit.simcord_play import (
    components,
    one_move_from_the_end,
    open_lobby,
    service,
    shown_at,
    table_message,
    take_simple_turn,
)


def answer(result: simcord.InteractionResult) -> str:
    """What a click was told, privately."""
    assert result.response is not None and result.ephemeral
    return str(result.response.content)


@pytest.mark.cooldowns
async def test_a_second_rematch_says_where_the_new_game_is_not_to_wait(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Rematch works once: "try again in 20 seconds" could never work."""
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert table.status is Status.FINISHED
    finished = table_message(channel)
    await alice.click(finished, label="Rematch")
    lobby = service(simcord_env).registry.table_in(channel.id)
    assert lobby is not None and shown_at(simcord_env, lobby) is not None
    link = f"https://discord.com/channels/{guild.id}/{channel.id}/{shown_at(simcord_env, lobby)}"
    for clicker in (alice, bob):  # alice within her 20 s, bob without a wait
        said = answer(await clicker.click(finished, label="Rematch"))
        assert "try again" not in said
        assert said == f"A Rematch works once, and a newer game is already open here: {link}"


def add_ai_select(message: object) -> dict[str, object]:
    (select,) = [c for c in components(message) if c.get("type") == 3]
    return select


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_add_ai_select_shows_its_placeholder_again_once_an_ai_is_added(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    """A client keeps a select's pick while the select is the same component (its id):
    after "Easy" was added the select went on showing "Easy", not "Add an AI player…".
    Each lobby the select is a new component, nothing picked, its placeholder shown."""
    await open_lobby(simcord_env, alice, channel)
    before = add_ai_select(table_message(channel))
    await alice.select(table_message(channel), ["easy"])
    after = add_ai_select(table_message(channel))
    assert after["id"] != before["id"]
    assert after["placeholder"] == "Add an AI player…"
    assert not any(option.get("default") for option in after["options"])  # type: ignore[attr-defined]
    await alice.select(table_message(channel), ["hard"])
    assert add_ai_select(table_message(channel))["id"] not in (before["id"], after["id"])

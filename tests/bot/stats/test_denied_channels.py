"""An answer is public only if everyone reading it may see every game's channel in it:
a role's or a member's overwrite that denies a channel counts, not only @everyone's.

Alice and bob play in ``#games``, which ``@everyone`` may see, but a role (``muted``,
carol's) or a member (dave) may not. Alice asks in the open ``#lama-table``, where carol
and dave read: her answer about that game is hers alone.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from .games import play_rigged_game
from .test_private_channels import ASKED, QUICK

DENIED = discord.PermissionOverwrite(view_channel=False)


@pytest.mark.parametrize("denied", ["role", "member"])
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_an_answer_about_a_channel_a_reader_here_is_denied_is_private(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    denied: str,
) -> None:
    muted = guild.create_role("muted")
    bob = guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"), roles=[muted])
    dave = guild.add_member(simcord_env.create_user("dave"))
    target: Any = muted if denied == "role" else dave
    games = guild.create_text_channel("games", overwrites={target: DENIED})
    game = await play_rigged_game(simcord_env, games, [alice, bob], QUICK)
    await simcord_env.advance_time(3)
    kept_out = carol if denied == "role" else dave
    listing = await kept_out.slash(channel, "lama history", member=alice)
    assert listing.response is not None and listing.ephemeral, "nothing of it for them"

    chart: tuple[str, dict[str, Any]] = ("lama chart", {"game_id": game.game_id})
    for command, options in [*ASKED, chart]:
        result = await alice.slash(channel, command, **options)
        assert result.response is not None and result.ephemeral, command
        # In #games itself everyone reading may see it.
        result = await alice.slash(games, command, **options)
        assert result.response is not None and not result.ephemeral, command


async def test_a_deny_for_those_who_cannot_read_here_either_keeps_the_answer_public(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    alice: simcord.MemberActor,
) -> None:
    # Most servers deny a muted role many channels alike: where it reads neither, an answer
    # about the one channel is seen by nobody kept out of the other.
    muted = guild.create_role("muted")
    bob = guild.add_member(simcord_env.create_user("bob"))
    guild.add_member(simcord_env.create_user("carol"), roles=[muted])
    games = guild.create_text_channel("games", overwrites={muted: DENIED})
    lounge = guild.create_text_channel("lounge", overwrites={muted: DENIED})
    await play_rigged_game(simcord_env, games, [alice, bob], QUICK)
    await simcord_env.advance_time(3)
    for command, options in ASKED:
        result = await alice.slash(lounge, command, **options)
        assert result.response is not None and not result.ephemeral, command

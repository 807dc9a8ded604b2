"""Mentions only where meant: lobbies list their players without pinging them, a
display name pings nobody wherever it shows, and the turn ping pings the player to
move alone."""

from __future__ import annotations

import discord
import pytest
import simcord

from game import Card as C
from testkit.simcord_play import (
    one_move_from_the_end,
    open_lobby,
    play_to_the_end,
    rig,
    shown_at,
    table_message,
    texts,
    two_player_game,
)


def pinged(env: simcord.Env, message: discord.Message) -> tuple[list[int], list[int], bool]:
    """Whom Discord notified for ``message``: users, roles, and @everyone/@here."""
    stored = env.backend.messages[message.channel.id][message.id]
    return stored.ping_user_ids, stored.ping_role_ids, stored.mention_everyone


NOBODY: tuple[list[int], list[int], bool] = ([], [], False)


async def test_the_client_pings_nobody_unless_a_message_names_whom(
    simcord_env: simcord.Env,
) -> None:
    mentions = simcord_env.bot.allowed_mentions
    assert mentions is not None
    assert mentions.to_dict() == discord.AllowedMentions.none().to_dict()


async def test_a_lobby_lists_its_players_without_pinging_them(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await open_lobby(simcord_env, alice, channel)
    await bob.click(table_message(channel), label="Join")
    lobby = table_message(channel)
    assert alice.mention in texts(lobby) and bob.mention in texts(lobby)
    assert pinged(simcord_env, lobby) == NOBODY


async def test_a_rematch_lobby_pings_none_of_the_previous_players(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await play_to_the_end(table, [alice, bob], channel)
    await bob.click(table_message(channel), label="Rematch")
    rematch = table_message(channel)
    assert alice.mention in texts(rematch)
    assert pinged(simcord_env, rematch) == NOBODY


async def test_a_role_in_a_nickname_pings_nobody_when_the_table_is_posted_again(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    role = guild.create_role("llama-fans", mentionable=True)
    nick = f"<@&{role.id}> @everyone <@{alice.id}>"
    mallory = guild.add_member(simcord_env.create_user("mallory"), nick=nick)
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, mallory, channel)
    old = table_message(channel)
    simcord_env.backend.delete_message(channel.id, old.id)  # an admin tidies up
    hand = (await alice.slash(channel, "lama hand")).response
    await alice.click(hand, label="Play 2")
    await simcord_env.advance_time(3)
    again = table_message(channel)
    assert again.id != old.id and shown_at(simcord_env, table) == again.id
    assert pinged(simcord_env, again) == NOBODY
    assert f"<@&{role.id}>" not in texts(again) and "@everyone" not in texts(again)


async def test_the_turn_ping_pings_the_player_to_move_alone(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    await two_player_game(simcord_env, alice, bob, channel)
    [ping] = [m for m in channel.history() if m.content.startswith(alice.mention)]
    assert pinged(simcord_env, ping) == ([alice.id], [], False)


#: Unicode's bidirectional controls: an override or embedding in a name would turn the
#: rest of its line around ("10 points" read as "stniop 01").
BIDI_CONTROLS = "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_nickname_cannot_turn_the_rest_of_a_table_line_around(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    mallory = guild.add_member(simcord_env.create_user("mallory"), nick="\u202emallory\u2067")
    await two_player_game(simcord_env, alice, mallory, channel)
    await simcord_env.advance_time(3)
    shown = texts(table_message(channel))
    assert "**mallory** · 0 points" in shown, shown
    assert not set(BIDI_CONTROLS) & set(shown), "a control of the name reached the table"

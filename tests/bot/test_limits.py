"""Limits per person: cooldowns on tables, rematches, hints, reviews, stats and charts;
a few lobbies per host and server; the host removing a joiner; a Rematch used once."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.service.play.table import Status
from testkit.simcord_play import (
    forged,
    one_move_from_the_end,
    open_lobby,
    service,
    table_message,
    take_simple_turn,
    texts,
)
from tests.simcord_fixtures import DEV_GUILD_ID


def answer(result: simcord.InteractionResult) -> str:
    assert result.ephemeral and result.response is not None
    return str(result.response.content)


@pytest.mark.cooldowns
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_stats_wait_a_few_seconds_per_person_and_charts_their_own(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await alice.slash(channel, "lama stats")
    for command in ("lama stats", "lama leaderboard", "lama history"):
        refused = await alice.slash(channel, command)
        assert answer(refused) == "You're doing that too often. Please try again in 5 seconds."
    assert "too often" not in answer(await alice.slash(channel, "lama chart"))
    assert "too often" in answer(await alice.slash(channel, "lama chart"))
    assert "too often" not in answer(await bob.slash(channel, "lama stats"))  # someone else
    await simcord_env.advance_time(5)
    assert "too often" not in answer(await alice.slash(channel, "lama stats"))


@pytest.mark.cooldowns
async def test_a_leaderboards_pages_turn_at_most_once_a_second_per_person(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Each page turned reads the board (the heaviest read of the stats): someone
    clicking Next as fast as they can must not keep the store busy for everyone."""

    async def next_page(who: simcord.MemberActor) -> simcord.InteractionResult:
        # A board message of its own each time: a page turned edits the one clicked.
        board = forged(simcord_env, channel, f"lama:board:{DEV_GUILD_ID}:1:3:all")
        return await who.click(board, label="Forged")

    assert "too often" not in str((await next_page(alice)).response)
    refused = await next_page(alice)
    assert answer(refused) == "You're doing that too often. Please try again in 1 second."
    assert "too often" not in str((await next_page(bob)).response)
    await simcord_env.advance_time(1)
    assert "too often" not in str((await next_page(alice)).response)


@pytest.mark.cooldowns
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_refused_review_or_table_costs_no_wait(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    # Nothing to review yet: asked again, the same answer, not "too often".
    nothing = answer(await alice.slash(channel, "lama review"))
    assert "nothing to review" in nothing
    assert answer(await alice.slash(channel, "lama review")) == nothing
    # A lobby refused (the turn timer too short) starts no wait for the next one.
    assert "too often" not in answer(await alice.slash(channel, "lama new", turn_timer=5))
    table = await open_lobby(simcord_env, alice, channel)
    await alice.click(table_message(channel), label="Cancel")
    assert table.status is Status.CANCELLED
    refused = await alice.slash(channel, "lama new")
    assert answer(refused) == "You're doing that too often. Please try again in 20 seconds."
    await simcord_env.advance_time(20)
    await open_lobby(simcord_env, alice, channel)


@pytest.mark.cooldowns
async def test_a_leaderboard_asked_with_options_that_do_not_go_together_costs_no_wait(
    channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    """An old order asked for one season is refused before anything is read: the board
    asked again at once, the way the refusal says, is shown, not "too often"."""
    refused = answer(await alice.slash(channel, "lama leaderboard", order="wins", season="current"))
    assert refused.startswith("Wins, win rate and average count every finished game over all time.")
    again = await alice.slash(channel, "lama leaderboard", order="wins", season="all")
    assert "too often" not in str(again.response)


@pytest.mark.cooldowns
async def test_a_new_table_refused_in_a_channel_not_allowed_costs_no_wait(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """The wait is reserved as /lama new is checked (a double submit is refused) and
    given back when the table is refused after all."""
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    await mod.slash(channel, "lama settings channel", channel=channel, allowed=True)
    other = guild.create_text_channel("chatter")
    refused = answer(await alice.slash(other, "lama new"))
    assert refused.startswith("Tables can't be opened in this channel.")
    assert "too often" not in answer(await alice.slash(other, "lama new"))
    await open_lobby(simcord_env, alice, channel)
    assert "too often" in answer(await alice.slash(other, "lama new"))


@pytest.mark.cooldowns
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_lobby_changes_wait_two_seconds_per_person(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Join, Leave, Add AI, Remove AI and Hints each save the lobby: one person's come
    at most one every two seconds, so nobody can flood the store and the table's edits;
    someone else's change isn't held up by theirs."""
    table = await open_lobby(simcord_env, alice, channel)
    await bob.click(table_message(channel), label="Join")
    too_soon = "You're doing that too often. Please try again in 2 seconds."
    left = await bob.click(table_message(channel), label="Leave")  # deferred: a follow-up
    assert [m.content for m in left.followups if m.ephemeral] == [too_soon]
    await alice.select(table_message(channel), ["easy"])  # alice's own wait starts
    assert answer(await alice.click(table_message(channel), label="Remove AI")) == too_soon
    assert [s.user_id for s in table.seats] == [alice.id, bob.id, None]
    await simcord_env.advance_time(2)
    await bob.click(table_message(channel), label="Leave")
    await alice.click(table_message(channel), label="Hints: on")
    assert answer(await alice.click(table_message(channel), label="Hints: off")) == too_soon
    assert answer(await alice.click(table_message(channel), label="Remove AI")) == too_soon
    assert [s.user_id for s in table.seats] == [alice.id, None] and not table.hints
    await simcord_env.advance_time(2)
    await alice.click(table_message(channel), label="Remove AI")
    assert [s.user_id for s in table.seats] == [alice.id]


async def test_a_host_opens_at_most_three_lobbies_in_a_server_threads_included(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    for name in ("one", "two"):
        simcord_env.backend.create_thread(channel.id, f"lama-{name}", alice.id)
    places = [channel, *channel.threads, guild.create_text_channel("more")]
    for place in places[:3]:
        await open_lobby(simcord_env, alice, place)
    refused = await alice.slash(places[3], "lama new")
    assert answer(refused) == (
        "You already keep 3 channels busy in this server: the lobbies you host and the "
        "games you play alone against AIs count alike. Finish, leave or cancel one first. "
        "An untimed game against AIs nobody moves in ends after 6 hours."
    )
    assert service(simcord_env).registry.table_in(places[3].id) is None
    await open_lobby(simcord_env, bob, places[3])  # someone else still may


async def test_a_lobby_left_by_its_host_is_not_inherited_past_three(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    await bob.click(table_message(channel), label="Join")
    for name in ("one", "two", "three"):
        await open_lobby(simcord_env, bob, guild.create_text_channel(name))
    await alice.click(table_message(channel), label="Leave")
    await simcord_env.advance_time(3)
    assert table.status is Status.CANCELLED
    hosted = [t for t in service(simcord_env).registry.tables() if t.host_id == bob.id and t.live]
    assert len(hosted) == 3
    assert "everyone still here already hosts as many lobbies as they may" in texts(
        table_message(channel)
    )


async def test_the_host_removes_a_joiner_with_kick_and_they_cannot_join_again(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    table = await open_lobby(simcord_env, alice, channel)
    for player in (bob, carol):
        await player.click(table_message(channel), label="Join")
    refused = await carol.slash(channel, "lama kick", member=bob)
    assert answer(refused) == "Only the host can do that."
    before = len(channel.history())
    done = await alice.slash(channel, "lama kick", member=bob)
    assert answer(done) == "bob is no longer in the lobby."
    await simcord_env.advance_time(3)
    assert [s.user_id for s in table.seats] == [alice.id, carol.id]
    lobby = table_message(channel)
    assert bob.mention not in texts(lobby) and carol.mention in texts(lobby)
    # Told nothing publicly beyond the lobby's update.
    assert len(channel.history()) == before
    again = await bob.click(lobby, label="Join")
    assert answer(again) == "The host removed you from this lobby."
    assert table.seat_of(bob.id) is None


async def test_a_finished_tables_rematch_works_once_even_after_a_cancel(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    finished = table_message(channel)
    await bob.click(finished, label="Rematch")
    await bob.slash(channel, "lama cancel")
    again = await alice.click(finished, label="Rematch")
    assert answer(again).startswith("This table's Rematch was already used")
    assert service(simcord_env).registry.table_in(channel.id) is None

"""The finished table shows each person's rating change ("+18", "−5") once the game is rated; an
AI seat's none."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.frontend.words import signed
from bot.service.play.table import Status
from bot.service.ratings.rating_scale import shown, shown_change
from bot.service.ratings.seasons import season_at
from game import Card as C
from testkit.simcord_play import (
    enabled,
    open_hand,
    open_lobby,
    rig,
    table_message,
    take_simple_turn,
    text_blocks,
)

from .games import Round, play_rigged_game

# Seat 0 empties at once; seat 1's Llama costs 10: seat 0 wins 0 to 10.
QUICK = [Round(hands=[[C.THREE], [C.LLAMA]], moves=[(0, C.THREE)])]


def standings(message: object) -> list[str]:
    block = next(b for b in text_blocks(message) if b.startswith("**Standings**"))
    return block.splitlines()[1:]


async def test_the_finished_table_shows_each_persons_rating_change(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    bob = guild.add_member(simcord_env.create_user("bob"))
    table = await play_rigged_game(simcord_env, channel, [alice, bob], QUICK)
    await simcord_env.advance_time(3)
    # What the store says the game did, in its season, on the shown scale.
    season = season_at([], simcord_env.now().timestamp()).key
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    changes = {
        c.seat: shown_change(c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
        for c in await store.ratings.rating_changes(table.game_id)
        if c.season == season
    }
    assert changes[0] > 0 > changes[1], changes
    ratings = {
        c.seat: shown(c.mu_after, c.sigma_after)
        for c in await store.ratings.rating_changes(table.game_id)
        if c.season == season
    }
    assert table.rating_changes == changes
    # The new rating and what the game did to it: "rating −132" alone read as the rating.
    winner, loser = standings(table_message(channel))
    assert winner.startswith("1. alice — 0 points") and winner.endswith(
        f" · rating **{ratings[0]}** (+{changes[0]})"
    )
    assert loser.startswith("2. bob — 10 points")
    assert loser.endswith(f" · rating **{ratings[1]}** (\u2212{-changes[1]})")  # a true minus


async def test_an_ai_seat_shows_no_rating_change(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    rig(simcord_env, [[C.THREE], [C.LLAMA]], C.THREE, [], starter=0)
    table = await open_lobby(simcord_env, alice, channel, threshold=5)
    await alice.select(table_message(channel), ["easy"])
    await alice.click(table_message(channel), label="Start")
    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(3)
    mine, ai = standings(table_message(channel))
    assert table.rating_changes and mine.endswith(f"({signed(table.rating_changes[0])})")
    assert "rating" in mine and "rating" not in ai


async def test_leaving_a_game_against_ais_says_what_it_cost(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    """alice, alone against an AI, leaves: the game ends and is rated as her loss, and
    the answer to her /lama leave says what it took from her rating."""
    table = await open_lobby(simcord_env, alice, channel)
    await alice.select(table_message(channel), ["easy"])
    await alice.click(table_message(channel), label="Start")
    done = await alice.slash(channel, "lama leave")
    assert done.response is not None and done.response.ephemeral
    change = table.rating_changes.get(0)
    assert change is not None and change < 0, table.rating_changes
    assert done.response.content == (
        "You left the game. Every seat is now played by an AI, so the game was ended. "
        f"Your rating here changed by **{signed(change)}**: leaving counts as finishing last."
    )


async def test_cancelling_a_game_against_ais_says_what_it_cost(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    """alice, alone against an AI, cancels: as the only person playing, that is her
    leaving, rated as her loss, and the answer says what it took from her rating."""
    rig(simcord_env, [[C.TWO, C.FIVE, C.SIX], [C.THREE, C.FOUR, C.SIX]], C.ONE, [], starter=0)
    table = await open_lobby(simcord_env, alice, channel)
    await alice.select(table_message(channel), ["easy"])
    await alice.click(table_message(channel), label="Start")
    await take_simple_turn(alice, channel)  # a cancel before her first move isn't rated
    await simcord_env.advance_time(3)
    done = await alice.slash(channel, "lama cancel")
    assert done.response is not None and done.response.ephemeral
    change = table.rating_changes.get(0)
    assert change is not None and change < 0, table.rating_changes
    assert done.response.content == (
        f"The game was cancelled. Your rating here changed by **{signed(change)}**: "
        "a game cancelled after moves were made is rated as it stood, and whoever cancels "
        "it while playing finishes last, as if they had left."
    )


@pytest.mark.slow  # waits in real time within SimCord's settle window
async def test_cancelling_with_the_lobbys_cancel_still_shown_says_what_it_cost(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    """Discord refused the Start click's edit and the bot's edits after it: the table
    still shows the lobby, its Cancel with it.  alice, alone against an AI, clicks that
    Cancel: the running game is cancelled as her leaving, rated as her loss, and she is
    told what it took from her rating, as /lama cancel tells her."""
    rig(simcord_env, [[C.TWO, C.FIVE, C.SIX], [C.THREE, C.FOUR, C.SIX]], C.ONE, [], starter=0)
    table = await open_lobby(simcord_env, alice, channel)
    await alice.select(table_message(channel), ["easy"])
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=500)
    simcord_env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", times=None)
    simcord_env.inject_error("PATCH", "/webhooks/*", times=None)
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(5)
    assert table.status is Status.RUNNING
    # Her first move (a cancel before it isn't rated), from /lama hand: the table shows
    # no hand button.
    hand: Any = (await alice.slash(channel, "lama hand")).response
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(3)
    done = await alice.click(table_message(channel), label="Cancel")
    assert table.status is Status.CANCELLED
    change = table.rating_changes.get(0)
    assert change is not None and change < 0, table.rating_changes
    told = [m.content for m in done.followups if m.ephemeral]
    assert told[-1:] == [
        f"The game was cancelled. Your rating here changed by **{signed(change)}**: "
        "a game cancelled after moves were made is rated as it stood, and whoever cancels "
        "it while playing finishes last, as if they had left."
    ]


async def test_a_kick_on_a_players_winning_turn_leaves_their_rating_and_their_win(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """The issue's case: alice draws; bob, on his turn, holds the card that wins the game;
    alice kicks him. The AI that takes his seat plays it and the seat wins: the finished
    table shows it first, bob's rating untouched (±0), and alice's loss to it."""
    bob = guild.add_member(simcord_env.create_user("bob"))
    rig(simcord_env, [[C.FIVE, C.SIX], [C.THREE]], C.THREE, [C.ONE], starter=0)
    table = await open_lobby(simcord_env, alice, channel, threshold=5)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    await take_simple_turn(alice, channel)  # she can only draw
    assert table.to_move == 1
    kicked = await alice.slash(channel, "lama kick", member=bob)
    assert kicked.response is not None and kicked.response.content == (
        "An AI now plays for bob. They were still playing, so this game leaves their "
        "rating as it is, and their seat still ranks by what it scores."
    )
    await simcord_env.advance_time(5)
    assert table.status is Status.FINISHED
    first, second = standings(table_message(channel))
    # The new rating beside its change (issue 42's wording): bob's untouched.
    assert first.startswith("1. bob — 0 points") and first.endswith(" (\u00b10)")
    change = table.rating_changes[0]
    assert change < 0 and second.startswith("2. alice — 12 points")
    assert second.endswith(f" ({signed(change)})")


async def test_a_host_cancelling_once_others_moved_is_told_it_counts_and_the_table_says_so(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """alice and bob each made a move; alice, the host, cancels: the game isn't erased.
    She is told what it cost her, and the closed table says how it is rated."""
    bob = guild.add_member(simcord_env.create_user("bob"))
    rig(simcord_env, [[C.TWO, C.FIVE, C.SIX], [C.THREE, C.FOUR, C.SIX]], C.ONE, [], starter=0)
    table = await open_lobby(simcord_env, alice, channel)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    await take_simple_turn(alice, channel)
    await take_simple_turn(bob, channel)
    done = await alice.slash(channel, "lama cancel")
    assert done.response is not None and done.response.ephemeral
    change = table.rating_changes.get(0)
    assert change is not None and change < 0 < table.rating_changes[1], table.rating_changes
    assert done.response.content == (
        f"The game was cancelled. Your rating here changed by **{signed(change)}**: a game "
        "cancelled after moves were made is rated as it stood, and whoever cancels it "
        "while playing finishes last, as if they had left."
    )
    await simcord_env.advance_time(3)
    assert "rated as it stood" in " ".join(text_blocks(table_message(channel)))

"""The bot token's REST budget: few calls per move, and nothing lost when Discord
answers 429 or fails.

A call made with an interaction token (the click's answer, its followups, an
open hand's refresh) goes to ``/interactions/…/callback`` or
``/webhooks/{application id}/{token}/…`` and does not count against the bot
token's 50 requests a second; every other call does.
"""

from __future__ import annotations

import asyncio
import itertools

import pytest
import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.frontend.views.table import table_view
from bot.limiter import Limiter, Priority
from bot.service.play.table import Status, Table
from data import PingRecord
from game import Card as C
from game.events import CardDrawn, CardPlayed, PlayerQuit
from testkit.simcord_play import (
    bot_token_calls,
    custom_ids,
    enabled,
    fail_table_edits,
    last_moves,
    one_move_from_the_end,
    open_hand,
    open_lobby,
    pings,
    rig,
    service,
    shown_at,
    table_message,
    take_simple_turn,
    texts,
    two_player_game,
)
from tests.process.common import restart
from tests.simcord_fixtures import fresh_bot


def live_messages(channel: simcord.ChannelHandle) -> list[int]:
    """The public messages in ``channel`` with a button of the game that may be pressed."""
    return [
        m.id
        for m in channel.history()
        if not m.flags.ephemeral and any(cid.startswith("lama:") for cid in enabled(m, ""))
    ]


def turn(player: simcord.MemberActor) -> str:
    """The ping of a turn without a timer."""
    return f"{player.mention}, it's your turn"


async def duel(
    env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> tuple[Table, simcord.MemberActor]:
    """alice and bob, no turn timer, alice to move, the table shown."""
    bob = guild.add_member(env.create_user("bob"))
    rig(env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(env, alice, bob, channel, turn_timer=0)
    await env.advance_time(3)
    return table, bob


@pytest.mark.slow  # waits out the retries' backoff in real time
async def test_a_table_edit_that_gets_429_again_and_again_still_shows_the_move(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    _table, bob = await duel(simcord_env, guild, channel, alice)
    fail_table_edits(simcord_env, channel, times=5)

    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(120)

    assert "alice played" in last_moves(channel)


@pytest.mark.parked_retries  # the retries wait for the clock, not in real time
async def test_a_table_edit_failing_with_5xx_is_tried_again_with_the_latest_state(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    _table, bob = await duel(simcord_env, guild, channel, alice)
    fail_table_edits(simcord_env, channel, times=3, status=503)

    await take_simple_turn(alice, channel)
    await take_simple_turn(bob, channel)
    await simcord_env.advance_time(120)

    shown = last_moves(channel)
    assert "alice played" in shown and "bob played" in shown


@pytest.mark.parked_retries  # the retries wait for the clock, not in real time
async def test_a_ping_whose_delete_fails_is_taken_down_later(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table, bob = await duel(simcord_env, guild, channel, alice)
    assert pings(channel) == [turn(alice)]
    # Taking alice's ping down fails, whichever token it is taken down with.
    simcord_env.inject_error("DELETE", "*", status=429, times=4)

    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(120)

    assert table.to_move == 1
    assert pings(channel) == [turn(bob)]


@pytest.mark.parked_retries  # Discord refuses every deletion until the restart
async def test_a_ping_that_could_not_be_taken_down_before_a_restart_is_taken_down_after(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    await alice.select(table_message(channel), ["easy"])
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(10)
    [standing] = [m for m in channel.history() if m.content.startswith(alice.mention)]
    # Discord refuses every deletion from now until the bot is restarted.
    simcord_env.inject_error("DELETE", "*", status=503, times=None)
    await take_simple_turn(alice, channel)  # the AI's turn: alice's ping should go
    await simcord_env.advance_time(10)
    assert table.to_move == 0 and standing.id in [m.id for m in channel.history()]

    await restart(simcord_env, settings)
    simcord_env.backend.faults.clear()
    await simcord_env.advance_time(10)

    assert standing.id not in [m.id for m in channel.history()]


@pytest.mark.parked_retries  # Discord refuses every deletion until the restart
async def test_a_replaced_ping_that_could_not_be_taken_down_before_a_restart_is_after(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """The next ping's id is stored while the old one's deletion is still being tried:
    the old one is stored as well, and a restart takes it down."""
    table, bob = await duel(simcord_env, guild, channel, alice)
    [standing] = [m.id for m in channel.history() if m.content.startswith(alice.mention)]
    # Discord answers every deletion with 429 from now until the bot is restarted.
    simcord_env.inject_error("DELETE", "*", status=429, times=None)
    await take_simple_turn(alice, channel)  # bob's ping goes up, alice's should go
    await simcord_env.advance_time(10)
    assert table.to_move == 1 and standing in [m.id for m in channel.history()]

    await restart(simcord_env, settings)
    simcord_env.backend.faults.clear()
    await simcord_env.advance_time(10)

    assert standing not in [m.id for m in channel.history()]
    assert pings(channel) == [turn(bob)]
    [fresh] = [m.id for m in channel.history() if m.content.startswith(bob.mention)]
    stored = await service(simcord_env).store.pings.standing_pings()
    assert [p.message_id for p in stored] == [fresh], "stored: the ping standing, no other"


async def test_a_ping_in_an_archived_thread_goes_once_the_next_ping_is_sent(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """Discord refuses a deletion in an archived thread (400, 50083) until a message sent
    there unarchives it: the next ping does, and the old one goes after it."""
    table, bob = await duel(simcord_env, guild, channel, alice)
    [standing] = [m.id for m in channel.history() if m.content.startswith(alice.mention)]
    # Whichever token tries first, the thread is archived: both attempts are refused.
    simcord_env.inject_error(
        "DELETE",
        f"*/messages/{standing}",
        status=400,
        code=50083,
        message="Thread is archived",
        times=2,
    )

    await take_simple_turn(alice, channel)  # bob's ping unarchives the thread
    await simcord_env.advance_time(10)

    assert table.to_move == 1
    assert pings(channel) == [turn(bob)]
    [fresh] = [m.id for m in channel.history() if m.content.startswith(bob.mention)]
    stored = await service(simcord_env).store.pings.standing_pings()
    assert [p.message_id for p in stored] == [fresh]


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_ping_refused_missing_access_is_kept_for_a_restart_to_take_down(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """A channel hidden from the bot (403) as its game ends: the last ping can't be taken
    down now; it stays stored, and once the channel is shown again a restart takes it
    down (it is not tried again and again meanwhile)."""
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    [standing] = [m.id for m in channel.history() if m.content.startswith(alice.mention)]
    simcord_env.inject_error(
        "DELETE", "*/messages/*", status=403, code=50001, message="Missing Access", times=None
    )
    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])  # the game is over
    await simcord_env.advance_time(600)
    assert table.status is Status.FINISHED
    assert standing in [m.id for m in channel.history()]
    refused = [r for r in simcord_env.http_requests if r.method == "DELETE"]
    assert len(refused) <= 2, "refused for good: not tried again and again"
    stored = await service(simcord_env).store.pings.standing_pings()
    assert [p.message_id for p in stored] == [standing]

    # Shown again while the bot is down.
    await restart(simcord_env, settings, while_down=simcord_env.backend.faults.clear)
    await simcord_env.advance_time(10)

    assert standing not in [m.id for m in channel.history()]
    assert await service(simcord_env).store.pings.standing_pings() == []


async def test_a_left_ping_refused_in_an_archived_thread_goes_after_the_next_ping(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """The restarted bot's attempt at the ping the last run left is refused (50083): the
    game going on takes it down after its next ping there (the resumed table's own, or
    the next turn's), not at the next restart."""
    table, bob = await duel(simcord_env, guild, channel, alice)
    [standing] = [m.id for m in channel.history() if m.content.startswith(alice.mention)]

    def archived() -> None:
        simcord_env.inject_error(
            "DELETE", f"*/messages/{standing}", status=400, code=50083, message="archived"
        )

    await restart(simcord_env, settings, while_down=archived)
    await simcord_env.advance_time(10)
    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(10)

    resumed = service(simcord_env).registry.table(table.game_id)
    assert resumed is not None and resumed.to_move == 1
    assert standing not in [m.id for m in channel.history()]
    assert pings(channel) == [turn(bob)]


class Noted(Limiter):
    """The bot's limiter, noting the task and priority of every call it lets through."""

    def __init__(self, rate: float) -> None:
        super().__init__(rate)
        self.granted: list[tuple[str, Priority]] = []

    async def acquire(self, priority: Priority = Priority.TABLE) -> None:
        await super().acquire(priority)
        task = asyncio.current_task()
        self.granted.append((task.get_name() if task else "", priority))


async def test_pings_left_by_the_last_run_wait_behind_the_live_tables(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """Taking down the pings a stopped bot left standing is cosmetic: when calls have to
    wait, the live tables' edits and pings go first (after an outage there may be
    thousands of left pings, each with a channel look-up)."""
    table, bob = await duel(simcord_env, guild, channel, alice)
    left = {990_000 + k for k in range(6)}  # pings of an earlier run, long deleted
    for message_id in left:
        ping = PingRecord(table.game_id, guild.id, channel.id, message_id)
        await service(simcord_env).store.pings.add_ping(ping)
    old = simcord_env.bot
    assert isinstance(old, LamaBot)
    await old.close()
    lama = fresh_bot(settings, old)
    limiter = lama.limiter = Noted(settings.rest_budget)
    await simcord_env.restart_bot(lama)
    await simcord_env.advance_time(10)

    deleted = {
        int(r.path.rsplit("/", 1)[-1])
        for r in simcord_env.http_requests
        if r.method == "DELETE" and r.path.startswith(f"/channels/{channel.id}/messages/")
    }
    assert left <= deleted, "every left ping is taken down"
    taking_down = [p for name, p in limiter.granted if name.startswith("lama-unping-left")]
    assert len(taking_down) >= len(left)
    assert set(taking_down) == {Priority.COSMETIC}, taking_down


@pytest.mark.parked_retries  # the retries wait for the clock, not in real time
async def test_a_ping_that_gets_429_is_sent_all_the_same(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    _table, bob = await duel(simcord_env, guild, channel, alice)
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages", status=429, times=3)
    simcord_env.inject_error("POST", "/webhooks/*/*", status=429, times=3)

    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(120)

    assert pings(channel) == [turn(bob)]


async def test_past_a_quarter_hour_without_a_click_the_bot_token_edits_the_table_and_pings(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Discord (and SimCord) refuse a click's token after 15 minutes: a ping it sent is
    taken down with it before then (nothing else could where the bot is no member), and
    where the bot is a member, as here, the bot token pings again, edits the table and
    takes the pings down, without trying the token that ran out."""
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=16 * 60)
    await simcord_env.advance_time(3)
    [first] = [m.id for m in channel.history() if m.content.startswith(alice.mention)]
    before = len(simcord_env.http_requests)

    # Nobody clicks: alice is warned at 15 minutes 30, runs out of time at 16.
    await simcord_env.advance_time(16 * 60 + 5)

    assert table.to_move == 1 and "alice ran out of time" in last_moves(channel)
    [ping] = pings(channel)
    assert ping.startswith(f"{bob.mention}, it's your turn")
    calls = simcord_env.http_requests[before:]
    tokens = [f"{c.method} {c.path}" for c in calls if c.path.startswith("/webhooks/")]
    assert len(tokens) == 1 and tokens[0].startswith("DELETE /webhooks/")
    assert tokens[0].endswith(f"/messages/{first}"), "alice's ping, taken down by its token"
    made = [f"{c.method} {c.path}" for c in bot_token_calls(simcord_env, calls)]
    assert f"PATCH /channels/{channel.id}/messages/{shown_at(simcord_env, table)}" in made
    posts = made.count(f"POST /channels/{channel.id}/messages")
    assert posts == 3, "alice's ping again, the warning, bob's ping"
    assert first not in [m.id for m in channel.history()]


HUMAN_MOVES = (CardPlayed, CardDrawn, PlayerQuit)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_in_a_games_first_quarter_hour_the_start_clicks_token_edits_the_table(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.FOUR] * 3 + [C.FIVE] * 3] * 2, C.FOUR, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    await simcord_env.advance_time(10)
    before = len(simcord_env.http_requests)
    players = {alice.id: alice, bob.id: bob}

    for _ in range(6):
        seat = table.to_move
        assert seat is not None
        await simcord_env.advance_time(6)
        await take_simple_turn(players[table.seats[seat].user_id or 0], channel)
    await simcord_env.advance_time(10)

    assert "bob played" in last_moves(channel) and "alice played" in last_moves(channel)
    assert bot_token_calls(simcord_env, simcord_env.http_requests[before:]) == []


HUMAN_MOVES = (CardPlayed, CardDrawn, PlayerQuit)


def human_moves(table: Table) -> int:
    assert table.match is not None
    humans = {seat for seat, s in enumerate(table.seats) if s.user_id is not None}
    return sum(1 for e in table.match.events if isinstance(e, HUMAN_MOVES) and e.seat in humans)


@pytest.mark.real_pacing
@pytest.mark.simcord(settle_timeout=120)
async def test_a_whole_game_of_humans_and_an_ai_costs_at_most_a_tenth_of_a_bot_call_a_move(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    service(simcord_env).dealer.seed_source = itertools.count(
        1
    ).__next__  # the same deals every run
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0, threshold=10)
    for player in (bob, carol):
        await player.click(table_message(channel), label="Join")
    await alice.select(table_message(channel), ["easy"])
    await alice.click(table_message(channel), label="Start")
    # Past the first quarter of an hour: the tokens of the clicks that opened
    # and started the table have run out, as in most of a long game. (The first
    # move then takes the ping from the start down with the bot token.)
    await simcord_env.advance_time(16 * 60)
    await take_simple_turn(alice, channel)
    players = {p.id: p for p in (alice, bob, carol)}
    thinking = itertools.cycle([3, 6, 9, 4, 8, 5, 7])  # seconds a human takes
    await simcord_env.advance_time(next(thinking))
    before, moves_before = len(simcord_env.http_requests), human_moves(table)

    for _ in range(600):
        if table.status is not Status.RUNNING:
            break
        seat = table.to_move
        assert seat is not None
        user = table.seats[seat].user_id
        assert user is not None, "an AI's turn is over within the time a human thinks"
        await take_simple_turn(players[user], channel)
        await simcord_env.advance_time(next(thinking))
    await simcord_env.advance_time(30)

    assert table.status is Status.FINISHED
    moves = human_moves(table) - moves_before
    calls = bot_token_calls(simcord_env, simcord_env.http_requests[before:])
    edits = [c for c in calls if c.method == "PATCH"]
    print(f"{moves} human moves: {len(calls)} bot-token calls, {len(calls) / moves:.2f} a move")
    # Past its first quarter hour the table rides on the clicks' tokens too: it is posted
    # anew with a newer click's before the one that posted it runs out (it was 1.00).
    assert len(calls) <= 0.1 * moves, [(c.method, c.path) for c in calls]
    assert len(edits) == len(calls), "pings, their deletions and the chart use the clicks' tokens"
    # And the table shows how the game ended, with no ping left standing, and it is the
    # one message of the game with buttons (the tables before it point to it).
    assert "Rematch" in [label for _, label, _ in custom_ids(table_message(channel))]
    assert pings(channel) == []
    assert live_messages(channel) == [table_message(channel).id]


async def test_a_stretch_of_ai_moves_ends_in_one_ping_for_the_human_after_it(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    await bob.click(table_message(channel), label="Join")
    for strength in ("easy", "easy"):
        await alice.select(table_message(channel), [strength])
    rig(simcord_env, [[C.FOUR, C.FIVE, C.SIX, C.ONE, C.TWO, C.THREE]] * 4, C.FOUR, [C.ONE] * 4)
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(8)
    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(8)  # alice looks away while bob thinks
    before = len(simcord_env.http_requests)

    await take_simple_turn(bob, channel)  # then both AI seats move, then alice
    await simcord_env.advance_time(5)

    assert table.to_move == 0
    posted = [
        c.json.get("content", "")
        for c in simcord_env.http_requests[before:]
        if c.method == "POST" and isinstance(c.json, dict) and "<@" in str(c.json.get("content"))
    ]
    assert [p.strip() for p in posted] == [turn(alice)], "one ping, none for the AI turns"
    assert pings(channel) == [turn(alice)]


FAULTS = (  # every kind of bot-token call the table makes, and the pings' followups
    ("PATCH", "/channels/*/messages/*"),
    ("DELETE", "*"),
    ("POST", "/channels/*/messages"),
    ("POST", "/webhooks/*/*"),
)


@pytest.mark.slow  # a whole game under 429s, in real time
@pytest.mark.simcord(settle_timeout=120)
async def test_a_game_under_a_storm_of_429s_ends_with_the_table_and_pings_right(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    service(simcord_env).dealer.seed_source = itertools.count(
        1
    ).__next__  # the same deals every run
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0, threshold=100)
    await bob.click(table_message(channel), label="Join")
    await alice.select(table_message(channel), ["easy"])
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(16 * 60)  # the Start click's token has run out
    players = {p.id: p for p in (alice, bob)}
    faults = itertools.cycle(FAULTS)
    thinking = itertools.cycle([1, 3, 6, 2, 8])

    for _ in range(24):
        assert table.status is Status.RUNNING
        method, path = next(faults)
        simcord_env.inject_error(method, path, status=429, times=2)
        seat = table.to_move
        assert seat is not None
        await take_simple_turn(players[table.seats[seat].user_id or 0], channel)
        await simcord_env.advance_time(next(thinking))
    simcord_env.backend.faults.clear()
    await simcord_env.advance_time(120)  # every retry is done by now

    assert texts(table_message(channel)) == texts(table_view(table, simcord_env.bot.faces))
    seat = table.to_move
    assert seat is not None
    mover = players[table.seats[seat].user_id or 0]
    assert pings(channel) in ([], [turn(mover)]), "at most the mover's ping stands"


async def test_a_click_past_ten_minutes_posts_the_table_anew_and_the_old_one_points_to_it(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The token that posted the table runs out at 15 minutes: a move clicked on a hand
    after ten posts the table anew with its own token, silently, and the old message
    becomes one line pointing to the new one, all without the bot token; a click on the
    table itself when its token runs out brings it up to date in place."""
    rig(simcord_env, [[C.FOUR] * 3 + [C.FIVE] * 3] * 2, C.FOUR, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    old = table_message(channel).id
    await simcord_env.advance_time(11 * 60)
    before = len(simcord_env.http_requests)

    hand = await alice.slash(channel, "lama hand")  # her hand, not on the table
    assert hand.ephemeral and hand.response is not None
    await alice.click(hand.response, custom_id=enabled(hand.response, "lama:play:")[0])
    await simcord_env.advance_time(5)

    new = table_message(channel)
    assert new.id != old and new.id == shown_at(simcord_env, table)
    assert new.flags.suppress_notifications
    assert "alice played" in last_moves(channel)
    [pointer] = [m for m in channel.history() if m.id == old]
    assert texts(pointer).startswith("↪️ This game's table moved:")
    assert texts(pointer).endswith(f"/{channel.id}/{new.id}")
    assert live_messages(channel) == [new.id]
    assert bot_token_calls(simcord_env, simcord_env.http_requests[before:]) == []

    # Eleven minutes on, bob's Show my hand on the table takes it over in place.
    await simcord_env.advance_time(11 * 60)
    await take_simple_turn(bob, channel)
    await simcord_env.advance_time(5)
    assert "bob played" in last_moves(channel) and table_message(channel).id == new.id
    assert live_messages(channel) == [new.id]
    assert bot_token_calls(simcord_env, simcord_env.http_requests[before:]) == []


async def test_a_ping_whose_token_gets_429_waits_for_it_instead_of_the_bot_token(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """A 429 on the interaction endpoints is waited out: the ping goes out with a click's
    token a little later, never traded for a bot-token call."""
    _table, bob = await duel(simcord_env, guild, channel, alice)
    simcord_env.inject_error("POST", "/webhooks/*/*", status=429, times=1)
    before = len(simcord_env.http_requests)

    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(30)

    assert pings(channel) == [turn(bob)]
    calls = simcord_env.http_requests[before:]
    posts = [c for c in bot_token_calls(simcord_env, calls) if c.method == "POST"]
    assert posts == [], "the ping waited for the token instead"

"""Play anywhere: a game in a group DM and in a server without the bot, on interaction tokens alone.

The app is installed to a person (the kit's ``install``); the bot is no member there, so its
token can do nothing (the kit refuses and counts every such call). Everything a game shows
rides on the clicks' interaction tokens: the lobby and the table as answers and followups,
edited by their own token, posted anew by a newer click's token before that one runs out.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import pytest
import simcord
from simcord.results import InteractionResult

from bot.client import LamaBot
from bot.config import Settings
from bot.frontend.pacing import Pacing
from bot.service.play.table import Status, Table
from bot.service.timing import Timing
from game import Card as C
from testkit.anywhere import Anywhere, Place
from testkit.simcord_play import enabled, rig, service, shown_at, texts, title
from tests.simcord_fixtures import fresh_bot, globally_synced_bot

MOVES = ("lama:play:", "lama:draw:", "lama:quit:")


@pytest.fixture
def simcord_bot(
    settings: Settings, timing: Timing, pacing: Pacing, cooldowns: dict[str, float] | None
) -> LamaBot:
    return globally_synced_bot(settings, timing, pacing, cooldowns)


def live_table(kit: Anywhere, place: Place) -> int:
    """The one public message of the place with buttons to press: the game's table."""
    [table] = kit.live(place)
    return table.id


async def move(kit: Anywhere, person: Any, place: Place) -> None:
    """Show my hand on the table, then its first move that may be made."""
    clicked = await kit.click(person, place, live_table(kit, place), label="Show my hand")
    # The hand answers, or (the table's token ran out: the click took it over in place)
    # comes as a private followup.
    hand = clicked.response if clicked.ephemeral else clicked.followups[-1]
    assert hand is not None and hand.ephemeral
    for prefix in MOVES:
        ids = enabled(hand, prefix)
        if ids:
            await kit.click(person, place, hand, custom_id=ids[0])
            return
    raise AssertionError("no move on the hand")


async def play_out(
    env: simcord.Env, kit: Anywhere, place: Place, table: Table, people: dict[int, Any]
) -> None:
    """Everyone takes simple turns, a few virtual seconds apart, until the game is over."""
    for _ in range(300):
        if table.status is not Status.RUNNING:
            return
        seat = table.to_move
        assert seat is not None
        user = table.seats[seat].user_id
        if user is None:  # an AI seat: its pause
            await env.advance_time(5)
            continue
        await move(kit, people[user], place)
        await env.advance_time(3)
    raise AssertionError("the game did not end")


@dataclass
class Duel:
    """ann (who installed the app) and ben (who didn't) at a table in their group DM."""

    place: Place
    ann: simcord.UserHandle
    ben: simcord.UserHandle
    table: Table
    start: InteractionResult  # the Start click, whose token posted the table

    @property
    def people(self) -> dict[int, simcord.UserHandle]:
        return {self.ann.id: self.ann, self.ben.id: self.ben}


async def group_dm_game(env: simcord.Env, kit: Anywhere, *, short: bool = False) -> Duel:
    """ann opens a table in her group DM with ben (no turn timer), ben joins, ann starts:
    ``short``, a game of one quick round (ann holds 4 and 5), else a long first round."""
    ann, ben = env.create_user("ann"), env.create_user("ben")
    place = kit.group_dm(ann, ben)
    kit.install(ann)  # only ann installed the app: ben plays through the buttons
    if short:
        rig(env, [[C.FOUR, C.FIVE], [C.SIX] * 3], C.FOUR, [C.ONE] * 4)
        lobby = await kit.slash(ann, place, "lama new", turn_timer=0, threshold=1)
    else:
        rig(env, [[C.FOUR] * 3 + [C.FIVE] * 3] * 2, C.FOUR, [C.ONE] * 8)
        lobby = await kit.slash(ann, place, "lama new", turn_timer=0)
    assert not lobby.ephemeral and lobby.response is not None
    await kit.click(ben, place, lobby.response, label="Join")
    start = await kit.click(ann, place, lobby.response, label="Start")
    table = service(env).registry.table_in(place.channel_id)
    assert table is not None
    return Duel(place, ann, ben, table, start)


def no_refusals(kit: Anywhere) -> None:
    calls = kit.calls
    assert (calls.refused, calls.dead_token, calls.followup_cap) == (0, 0, 0)


async def test_a_whole_game_in_a_group_dm_makes_no_bot_token_call(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    game = await group_dm_game(simcord_env, anywhere, short=True)
    place, ann, ben = game.place, game.ann, game.ben
    table = service(simcord_env).registry.table_in(place.channel_id)
    assert table is not None and table.guild_id == -place.channel_id  # a place of its own
    await play_out(simcord_env, anywhere, place, table, {ann.id: ann, ben.id: ben})
    await simcord_env.advance_time(10)

    assert table.status is Status.FINISHED
    [shown] = [m for m in anywhere.shown(place) if m.id == live_table(anywhere, place)]
    assert "game over" in title(simcord_env.backend.get_message(place.channel_id, shown.id))
    assert anywhere.calls.bot_total - anywhere.calls.bot[None] == 0, "no bot-token call"
    no_refusals(anywhere)


async def test_a_whole_game_in_a_server_without_the_bot_makes_no_bot_token_call(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    place = anywhere.botless_server()
    guild = anywhere.guild(place)
    ann = guild.add_member(simcord_env.create_user("ann"))
    ben = guild.add_member(simcord_env.create_user("ben"))
    anywhere.install(ann)
    rig(simcord_env, [[C.FOUR, C.FIVE], [C.SIX] * 3], C.FOUR, [C.ONE] * 4)

    lobby = await anywhere.slash(ann, place, "lama new", turn_timer=0, threshold=1)
    assert not lobby.ephemeral and lobby.response is not None
    await anywhere.click(ben, place, lobby.response, label="Join")
    await anywhere.click(ann, place, lobby.response, label="Start")
    table = service(simcord_env).registry.table_in(place.channel_id)
    assert table is not None and table.guild_id == guild.id
    await play_out(simcord_env, anywhere, place, table, {ann.id: ann, ben.id: ben})
    await simcord_env.advance_time(10)

    assert table.status is Status.FINISHED
    assert anywhere.calls.at(place)[0] == 0, "no bot-token call"
    no_refusals(anywhere)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_group_dm_table_lives_past_a_quarter_hour_on_the_clicks_tokens(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    """Moves a few minutes apart for 40 minutes: the table is posted anew with a newer
    click's token before the one that posted it runs out; no token is used dead, no
    sixth followup is asked of a click, and one message has live buttons all along."""
    game = await group_dm_game(simcord_env, anywhere)
    place, ann, ben, table = game.place, game.ann, game.ben, game.table
    people = {ann.id: ann, ben.id: ben}
    tables = {live_table(anywhere, place)}

    for _ in range(12):
        seat = table.to_move
        assert seat is not None and table.status is Status.RUNNING
        await simcord_env.advance_time(200)
        user = table.seats[seat].user_id
        if user == ann.id:  # she installed the app: /lama hand, then a move on it
            hand = await anywhere.slash(ann, place, "lama hand")
            assert hand.ephemeral and hand.response is not None
            ids = [i for prefix in MOVES for i in enabled(hand.response, prefix)]
            await anywhere.click(ann, place, hand.response, custom_id=ids[0])
        else:  # ben has only the buttons: Show my hand on the table
            await move(anywhere, people[user or 0], place)
        await simcord_env.advance_time(5)
        tables.add(live_table(anywhere, place))  # exactly one, each time

    assert len(tables) >= 2, "posted anew as the game went on"
    shown = simcord_env.backend.get_message(place.channel_id, live_table(anywhere, place))
    assert shown.id == shown_at(simcord_env, table)
    assert anywhere.calls.bot_total - anywhere.calls.bot[None] == 0
    no_refusals(anywhere)
    for old in tables - {shown.id}:
        pointer = simcord_env.backend.get_message(place.channel_id, old)
        assert texts(pointer).startswith("↪️ This game's table moved:")


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_table_nobody_clicked_for_a_quarter_hour_waits_and_a_click_brings_it_back(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    game = await group_dm_game(simcord_env, anywhere)
    place, ann, ben, table = game.place, game.ann, game.ben, game.table
    frozen = live_table(anywhere, place)

    await simcord_env.advance_time(16 * 60)  # nobody clicks

    waiting = simcord_env.backend.get_message(place.channel_id, frozen)
    assert "catches up at the next click" in texts(waiting)
    seat = table.to_move
    assert seat is not None
    player = {ann.id: ann, ben.id: ben}[table.seats[seat].user_id or 0]
    await move(anywhere, player, place)
    await simcord_env.advance_time(5)

    # The click on the table itself took it over in place.
    assert live_table(anywhere, place) == shown_at(simcord_env, table) == frozen
    fresh = simcord_env.backend.get_message(place.channel_id, frozen)
    assert "catches up" not in texts(fresh) and "played" in texts(fresh)
    assert anywhere.calls.bot_total - anywhere.calls.bot[None] == 0
    no_refusals(anywhere)


async def test_a_token_dead_before_its_time_is_not_tried_again_and_the_next_click_reposts(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    game = await group_dm_game(simcord_env, anywhere)
    place, ann, ben, table, start = game.place, game.ann, game.ben, game.table, game.start
    first = live_table(anywhere, place)
    anywhere.kill(start)  # the token that edits the table dies early (401)

    people = {ann.id: ann, ben.id: ben}
    for _ in range(3):
        seat = table.to_move
        assert seat is not None
        player = people[table.seats[seat].user_id or 0]
        if first not in [m.id for m in anywhere.live(place)]:
            await move(anywhere, player, place)  # the old table points to the new by now
            await simcord_env.advance_time(5)
            continue
        hand = await anywhere.click(player, place, first, label="Show my hand")
        if hand.ephemeral:  # the first: the table is not posted anew yet
            assert hand.response is not None
            ids = [i for prefix in MOVES for i in enabled(hand.response, prefix)]
            await anywhere.click(player, place, hand.response, custom_id=ids[0])
        else:  # the old table, clicked after it was posted anew: it points there now
            assert "table is further down" in str(hand.followups[0].content)
            await move(anywhere, player, place)
        await simcord_env.advance_time(5)

    assert anywhere.calls.dead_token <= 1, "a dead token is never tried again"
    assert live_table(anywhere, place) == shown_at(simcord_env, table) != first
    shown = simcord_env.backend.get_message(place.channel_id, shown_at(simcord_env, table))
    assert texts(shown).count("played") + texts(shown).count("drew") >= 2
    pointer = simcord_env.backend.get_message(place.channel_id, first)
    assert texts(pointer).startswith("↪️ This game's table moved:")


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_restart_in_the_middle_of_a_group_dm_game_loses_nothing(
    simcord_env: simcord.Env, anywhere: Anywhere, settings: Settings
) -> None:
    game = await group_dm_game(simcord_env, anywhere, short=True)
    place, ann, ben = game.place, game.ann, game.ben
    game_id = service(simcord_env).registry.table_in(place.channel_id).game_id  # type: ignore[union-attr]
    old = simcord_env.bot
    assert isinstance(old, LamaBot)
    pinged = [m.id for m in anywhere.shown(place) if m.content.startswith("<@")]
    assert pinged, "the first turn's ping, sent with the Start click's token"

    await old.close()  # frees its shard lease, as a stopped process does
    await simcord_env.restart_bot(fresh_bot(dataclasses.replace(settings, dev_guild_id=None), old))
    await simcord_env.advance_time(5)

    # Only the token that sent it can take it down here: the restarted bot did.
    assert not set(pinged) & {m.id for m in anywhere.shown(place)}

    resumed = service(simcord_env).registry.table_in(place.channel_id)
    assert resumed is not None and resumed.game_id == game_id
    assert resumed.status is Status.RUNNING
    await play_out(simcord_env, anywhere, place, resumed, {ann.id: ann, ben.id: ben})
    assert resumed.status is Status.FINISHED
    assert anywhere.calls.bot_total - anywhere.calls.bot[None] == 0
    no_refusals(anywhere)


async def test_settings_and_export_refuse_in_a_group_dm_in_the_persons_language(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    ann, ben = simcord_env.create_user("ann"), simcord_env.create_user("ben")
    place = anywhere.group_dm(ann, ben)
    anywhere.install(ann)

    for command in ("lama settings show", "lama export"):
        result = await anywhere.slash(ann, place, command)
        assert result.ephemeral and result.response is not None
        assert "a server the bot was added to" in str(result.response.content)


async def test_use_external_apps_off_opens_no_half_table(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    place = anywhere.botless_server()
    guild = anywhere.guild(place)
    ann = guild.add_member(simcord_env.create_user("ann"))
    anywhere.install(ann)
    anywhere.deny_external_apps(place, ann)

    result = await anywhere.slash(ann, place, "lama new")

    assert service(simcord_env).registry.table_in(place.channel_id) is None, "no lobby left open"
    said = [str(f.content) for f in result.followups]
    assert any("Use External Apps" in text for text in said)
    assert anywhere.live(place) == []


async def test_a_player_who_leaves_the_group_dm_leaves_the_game(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    """Discord tells a bot outside the group DM nothing of it; each click there carries
    its recipients: the next click after ben left hands his seat to an AI, as a leave."""
    game = await group_dm_game(simcord_env, anywhere)
    place, ann, ben, table = game.place, game.ann, game.ben, game.table

    simcord_env.backend.get_channel(place.channel_id).recipient_ids.remove(ben.id)
    await anywhere.click(ann, place, live_table(anywhere, place), label="Show my hand")
    await simcord_env.advance_time(5)

    seat = table.seat_of(ben.id)
    assert seat is not None and table.seats[seat].controller is not None, "an AI plays for ben"
    assert "ben left" in texts(
        simcord_env.backend.get_message(place.channel_id, live_table(anywhere, place))
    )


@pytest.mark.slow  # a whole game, then every command
async def test_after_a_group_dm_game_its_stats_board_history_replay_and_rematch_work_there(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    """Everything around a game works in a group DM too, all on interaction tokens: the
    installer's stats, leaderboard, history, chart and review, a replay's pages, a hint
    during the game, and a Rematch pressed by someone who never installed the app."""
    game = await group_dm_game(simcord_env, anywhere, short=True)
    place, ann, ben = game.place, game.ann, game.ben
    table = service(simcord_env).registry.table_in(place.channel_id)
    assert table is not None
    hint = await anywhere.slash(ann, place, "lama hint")
    assert hint.ephemeral and hint.response is not None
    await play_out(simcord_env, anywhere, place, table, {ann.id: ann, ben.id: ben})
    await simcord_env.advance_time(10)
    assert table.status is Status.FINISHED

    for command in ("lama stats", "lama leaderboard", "lama history", "lama chart"):
        answer = await anywhere.slash(ann, place, command)
        assert answer.response is not None, command
        shown = texts(answer.response) or str(answer.response.content)
        assert "ann" in shown, (command, shown)
    review = await anywhere.slash(ann, place, "lama review")
    assert review.response is not None or review.followups
    replay = await anywhere.slash(ann, place, "lama replay")
    assert replay.ephemeral and replay.response is not None
    turned = await anywhere.click(
        ann,
        place,
        replay.response,
        custom_id=next(
            cid for cid in enabled(replay.response, "lama:replay:") if cid.endswith(":next")
        ),
    )
    assert turned.response is not None

    [finished] = [
        shown.id
        for shown in anywhere.live(place)
        if any(button.get("label") == "Rematch" for button in shown.live_buttons)
    ]
    rematch = await anywhere.click(ben, place, finished, label="Rematch")
    assert not rematch.ephemeral or rematch.followups
    again = service(simcord_env).registry.table_in(place.channel_id)
    assert again is not None and again.game_id != table.game_id
    assert again.guild_id == table.guild_id  # the same place, its own board
    assert anywhere.calls.bot_total - anywhere.calls.bot[None] == 0
    no_refusals(anywhere)

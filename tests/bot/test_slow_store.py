"""A slow store never loses the click: a move whose save takes longer than Discord's 3 s is
acknowledged in time, and the player is told, in their language, when it could not be saved."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.i18n import text
from bot.service.play.table import Table
from testkit.simcord_play import (
    answered,
    enabled,
    finished_game,
    one_move_from_the_end,
    open_hand,
    open_lobby,
    service,
    shown_at,
    table_message,
    take_simple_turn,
    texts,
    title,
    two_player_game,
)
from testkit.slow_store import held

#: Each case waits ``ACK_AFTER`` (1.5 s) in real time before the bot acknowledges the
#: held interaction: SimCord lets a timer within its settle window (5 s) run out in real
#: time. The holds themselves are longer, so they wait for the test to move the clock.
pytestmark = pytest.mark.slow

#: How long the database stays locked (by another process, a backup, a slow disk).
LOCKED_FOR = 7.0
#: How long a slow disk holds a read or a write: longer than Discord's 3 s, and past
#: SimCord's settle window, so the test moves the clock past it (``LOCKED_FOR``).
SLOW_DISK = LOCKED_FOR - 2


async def to_move(
    env: simcord.Env,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    channel: simcord.ChannelHandle,
) -> tuple[Table, simcord.MemberActor, Any]:
    """A two-player game, the player to move and their open hand."""
    table = await two_player_game(env, alice, bob, channel)
    player = alice if table.seats[table.to_move or 0].user_id == alice.id else bob
    return table, player, await open_hand(player, channel)


async def test_a_quit_saved_into_a_locked_database_is_acknowledged_and_explained(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table, player, hand = await to_move(simcord_env, alice, bob, channel)
    games = service(simcord_env)
    before = table.stamp

    # SQLite's busy_timeout, then it gives up.
    with held(games.store.games, "append_progress", LOCKED_FOR, fails=True):
        result = await player.click(hand, custom_id=enabled(hand, "lama:quit:")[0])
        assert result.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(LOCKED_FOR)  # the write gives up, or goes through

    said = answered(result)
    assert any(text("en", "error.save_failed") in m for m in said), said
    assert table.stamp == before, "the move was not made"


async def test_a_quit_saved_slowly_is_acknowledged_then_shown(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table, player, hand = await to_move(simcord_env, alice, bob, channel)
    games = service(simcord_env)
    before = table.stamp
    # A slow disk, then the write goes through.
    with held(games.store.games, "append_progress", SLOW_DISK):
        result = await player.click(hand, custom_id=enabled(hand, "lama:quit:")[0])
        assert result.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(LOCKED_FOR)  # the write gives up, or goes through

    assert table.stamp != before, "the move was saved and made"


async def test_a_lobby_click_saved_into_a_locked_database_is_acknowledged_and_explained(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    games = service(simcord_env)

    # SQLite's busy_timeout, then it gives up.
    with held(games.store.games, "update_lobby", LOCKED_FOR, fails=True):
        result = await bob.click(table_message(channel), label="Join")
        assert result.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(LOCKED_FOR)

    said = answered(result)
    assert any(text("en", "error.save_failed") in m for m in said), said
    assert table.seat_of(bob.id) is None, "bob did not join"


async def test_a_joiner_removed_from_a_lobby_while_the_store_is_slow_is_acknowledged(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    await bob.click(table_message(channel), label="Join")
    games = service(simcord_env)
    # A slow disk, then the write goes through.
    with held(games.store.games, "update_lobby", SLOW_DISK):
        result = await alice.slash(channel, "lama kick", member=bob.user)
        assert result.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(LOCKED_FOR)

    said = answered(result)
    assert any("bob" in m for m in said), said
    assert table.seat_of(bob.id) is None, "bob's seat was saved as taken away"
    assert f"<@{bob.id}>" not in texts(table_message(channel)), "nor listed"


async def test_an_ai_seat_added_while_the_store_is_slow_is_acknowledged_then_shown(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    games = service(simcord_env)
    # A slow disk, then the write goes through.
    with held(games.store.games, "update_lobby", SLOW_DISK):
        result = await alice.select(table_message(channel), ["easy"])
        assert result.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(LOCKED_FOR)
    assert len(table.seats) == 2, "the AI seat was saved and added"
    assert "AI 1" in texts(table_message(channel))


async def test_a_rematch_opened_while_the_store_is_slow_is_acknowledged_then_posted(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    finished = table_message(channel)
    games = service(simcord_env)
    # A slow disk, then the write goes through.
    with held(games.store.games, "create_game", SLOW_DISK):
        result = await bob.click(finished, label="Rematch")
        assert result.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(LOCKED_FOR)
    rematch = games.registry.table_in(channel.id)
    assert rematch is not None and rematch.game_id != table.game_id
    assert table_message(channel).id != finished.id, "the rematch lobby was posted"


async def test_a_rematch_lobby_posted_after_a_slow_save_is_the_one_kept_up_to_date(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The Rematch click, acknowledged while the store was slow, answers the finished
    table; the lobby went out as a message of its own. A change shown later (a /lama
    join) edits that lobby, not the finished table with its standings and buttons."""
    await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    finished = table_message(channel)
    games = service(simcord_env)
    with held(games.store.games, "create_game", SLOW_DISK):
        await bob.click(finished, label="Rematch")
        await simcord_env.advance_time(LOCKED_FOR)
    rematch = games.registry.table_in(channel.id)
    assert rematch is not None and shown_at(simcord_env, rematch) not in (None, finished.id)

    carol = guild.add_member(simcord_env.create_user("carol"))
    await carol.slash(channel, "lama join")
    await simcord_env.advance_time(3)

    after = {m.id: m for m in channel.history()}
    assert title(after[finished.id]) == title(finished), "the finished table stays as it was"
    assert f"<@{carol.id}>" in texts(after[shown_at(simcord_env, rematch)]), "the lobby shows carol"


async def test_a_new_lobby_posted_after_a_slow_save_is_the_one_kept_up_to_date(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """/lama new's answer, deferred while the store was slow, is alice's private note;
    the lobby went out after it: a /lama join is shown on the lobby, for everyone."""
    games = service(simcord_env)
    with held(games.store.games, "create_game", SLOW_DISK):
        result = await alice.slash(channel, "lama new")
        await simcord_env.advance_time(LOCKED_FOR)
    table = games.registry.table_in(channel.id)
    assert table is not None and shown_at(simcord_env, table) is not None

    await bob.slash(channel, "lama join")
    await simcord_env.advance_time(3)

    assert f"<@{bob.id}>" in texts(table_message(channel)), "the lobby shows bob"
    assert result.response is not None
    assert result.response.content == text("en", "lobby.posted"), "the note stays a note"


@pytest.mark.parametrize(
    ("part", "method"), [("settings", "guild_settings"), ("games", "create_game")]
)
async def test_a_new_table_opened_while_the_store_is_slow_is_acknowledged_then_posted(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    part: str,
    method: str,
) -> None:
    """/lama new reads the server's settings, then saves the lobby: either held past
    Discord's 3 s, the command is acknowledged in time and the lobby is then posted to
    the channel for everyone, where the next player can join it."""
    games = service(simcord_env)
    with held(getattr(games.store, part), method, SLOW_DISK):
        result = await alice.slash(channel, "lama new")
        assert result.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(LOCKED_FOR)
    table = games.registry.table_in(channel.id)
    assert table is not None and shown_at(simcord_env, table) is not None, "the lobby was posted"
    lobby = table_message(channel)
    assert lobby.id == shown_at(simcord_env, table)
    assert not lobby.flags.ephemeral, "the lobby is for the whole channel"
    await bob.click(lobby, label="Join")
    assert [seat.user_id for seat in table.seats] == [alice.id, bob.id]


async def test_a_new_table_refused_after_a_slow_read_is_told_privately(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """A refusal that comes after the store kept the command waiting (here a turn timer
    too short) is still only for the person who asked."""
    games = service(simcord_env)
    with held(games.store.settings, "guild_settings", SLOW_DISK):
        result = await alice.slash(channel, "lama new", turn_timer=5)
        assert result.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(LOCKED_FOR)
    assert result.ephemeral
    said = answered(result)
    assert text("en", "error.timer_too_short", min=15) in said, said
    assert games.registry.table_in(channel.id) is None


async def test_a_new_table_asked_for_while_the_settings_cannot_be_read_is_refused_clearly(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """/lama new reads the server's settings first: a store that can't be read gets the
    person a clear private answer, not "something went wrong", and no table."""
    games = service(simcord_env)
    with held(games.store.settings, "guild_settings", 0, fails=True):
        result = await alice.slash(channel, "lama new")
    assert result.ephemeral
    assert result.response is not None
    assert result.response.content == text("en", "error.settings_unread")
    assert games.registry.table_in(channel.id) is None


async def test_a_rematch_asked_for_while_the_settings_cannot_be_read_is_refused_clearly(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    games = service(simcord_env)
    with held(games.store.settings, "guild_settings", 0, fails=True):
        result = await bob.click(table_message(channel), label="Rematch")
    said = answered(result)
    assert text("en", "error.settings_unread") in said, said
    assert (
        games.registry.table_in(channel.id) is None or games.registry.table_in(channel.id) is table
    )


async def test_the_settings_shown_while_they_cannot_be_read_are_refused_clearly(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, mod: simcord.MemberActor
) -> None:
    with held(service(simcord_env).store.settings, "guild_settings", 0, fails=True):
        result = await mod.slash(channel, "lama settings show")
    assert result.ephemeral and result.response is not None
    assert result.response.content == text("en", "error.settings_unread")


def answer(result: simcord.results.InteractionResult) -> Any:
    """The answer of a command deferred meanwhile (its "thinking…" filled in)."""
    assert result.response is not None
    return result.response


async def slash_held(
    env: simcord.Env,
    person: simcord.MemberActor,
    where: simcord.ChannelHandle,
    held_call: tuple[str, str],
    command: str,
    **options: Any,
) -> simcord.results.InteractionResult:
    """``command``, asked while every call of the store's ``held_call`` (its part and
    method) is held past Discord's 3 s; answered once the clock has moved past the hold."""
    part, method = held_call
    with held(getattr(service(env).store, part), method, SLOW_DISK):
        result = await person.slash(where, command, **options)
        await env.advance_time(LOCKED_FOR)
    assert result.acknowledged, "Discord would show 'This interaction failed'"
    return result


@pytest.mark.parametrize(
    ("held_call", "command", "public", "shown"),
    [
        # /lama stats reads the store many times and draws a picture.
        (("stats", "player_stats"), "lama stats", True, ["alice"]),
        (("ratings", "rating_board"), "lama leaderboard", True, ["alice", "bob"]),
        (("games", "load_game"), "lama replay", False, ["Step 1 of"]),  # a replay is private
        (("stats", "chip_history"), "lama chart", True, ["points by round"]),
        (("stats", "history"), "lama history", True, ["alice — recent L.A.M.A. games"]),
    ],
)
async def test_a_read_from_a_slow_store_is_acknowledged_in_time_then_shown(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    held_call: tuple[str, str],
    command: str,
    public: bool,
    shown: list[str],
) -> None:
    """Acknowledged within Discord's 3 s, as publicly as its answer: a game everyone
    here may see is answered to the channel."""
    await finished_game(simcord_env, alice, bob, channel)
    result = await slash_held(simcord_env, alice, channel, held_call, command)
    assert result.ephemeral is not public
    assert all(each in texts(answer(result)) for each in shown), texts(answer(result))


async def test_stats_whose_audience_is_read_slowly_are_acknowledged_privately(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Until it is known who may see the games, the acknowledgement is private."""
    await finished_game(simcord_env, alice, bob, channel)
    with held(service(simcord_env).store.stats, "finished_channels", SLOW_DISK):
        result = await alice.slash(channel, "lama stats")
        await simcord_env.advance_time(2 * LOCKED_FOR)  # read twice: the channel's, alice's
    assert result.acknowledged
    assert result.ephemeral
    assert "alice" in texts(answer(result))


async def test_an_export_read_from_a_slow_store_is_acknowledged_then_attached(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    await finished_game(simcord_env, alice, bob, channel)
    result = await slash_held(simcord_env, mod, channel, ("export", "export_page"), "lama export")
    assert result.ephemeral
    assert [a.filename for a in answer(result).attachments][0].endswith(".csv")


@pytest.mark.parametrize(
    ("part", "method", "command", "options", "said"),
    [
        ("settings", "set_language", "lama settings language", {"language": "de"}, "German"),
        (
            "settings",
            "set_default_timer",
            "lama settings turn_timer",
            {"seconds": 60},
            "60 seconds",
        ),
        ("settings", "set_default_hints", "lama settings hints", {"enabled": False}, "hints"),
        (
            "settings",
            "guild_settings",
            "lama settings channel",
            {"allowed": True},
            "may open tables",
        ),
        ("settings", "allow_every_channel", "lama settings all_channels", {}, "every channel"),
        ("ratings", "season_plans", "lama settings season", {"length": "30"}, "30 days"),
        ("settings", "guild_settings", "lama settings show", {}, "Turn timer"),
    ],
)
async def test_a_setting_shown_or_saved_with_a_slow_store_is_acknowledged_then_confirmed(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    part: str,
    method: str,
    command: str,
    options: dict[str, Any],
    said: str,
) -> None:
    if command == "lama settings channel":
        options = {**options, "channel": channel}
    result = await slash_held(simcord_env, mod, channel, (part, method), command, **options)
    assert result.ephemeral
    assert said in answer(result).content

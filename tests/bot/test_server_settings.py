"""Through SimCord: /lama settings turn_timer, hints, channel, all_channels and show, and
/lama new following them (its options first, then the server's defaults, then the bot's)."""

from __future__ import annotations

import pytest
import simcord
from simcord.backend.errors import OptionError

from bot.config import Settings
from testkit.simcord_play import (
    one_move_from_the_end,
    open_lobby,
    play_to_the_end,
    private,
    service,
    table_message,
)
from tests.process.common import restart

from .i18n.conftest import Locales, locales  # noqa: F401  (a fixture, found by name)

CHANGES = [
    ("lama settings turn_timer", {"seconds": 60}),
    ("lama settings hints", {"enabled": False}),
    ("lama settings channel", {"allowed": True}),
    ("lama settings all_channels", {}),
    ("lama settings show", {}),
    ("lama settings rules", {"action": "save", "name": "Summer"}),
    ("lama settings house_board", {"board": "server"}),
]


@pytest.mark.parametrize(("command", "options"), CHANGES, ids=[c for c, _ in CHANGES])
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_member_without_manage_server_is_refused(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    command: str,
    options: dict[str, object],
) -> None:
    if command == "lama settings channel":
        options = {**options, "channel": channel}
    answer = private(await alice.slash(channel, command, **options))
    assert "Manage Server" in answer
    assert await service(simcord_env).front.server_settings(guild.id) == (
        await service(simcord_env).front.server_settings(guild.id + 1)
    ), "nothing was set"


async def test_the_servers_turn_timer_is_new_tables_default(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    done = private(await mod.slash(channel, "lama settings turn_timer", seconds=45))
    assert "45 seconds per turn" in done
    assert (await open_lobby(simcord_env, alice, channel)).turn_timer == 45
    await alice.slash(channel, "lama cancel")
    given = await open_lobby(simcord_env, alice, channel, turn_timer=30)
    assert given.turn_timer == 30, "/lama new's own option comes first"
    await alice.slash(channel, "lama cancel")

    off = private(await mod.slash(channel, "lama settings turn_timer", seconds=0))
    assert "no turn timer" in off
    assert (await open_lobby(simcord_env, alice, channel)).turn_timer == 0
    await alice.slash(channel, "lama cancel")

    back = private(await mod.slash(channel, "lama settings turn_timer"))
    assert "default turn timer again (120 seconds per turn)" in back
    assert (await service(simcord_env).front.server_settings(guild.id)).turn_timer is None
    assert (await open_lobby(simcord_env, alice, channel)).turn_timer == 120


@pytest.mark.parametrize("seconds", [1, 5, 14])
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_turn_timer_out_of_range_is_refused_with_the_range(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
    seconds: int,
) -> None:
    answer = private(await mod.slash(channel, "lama settings turn_timer", seconds=seconds))
    assert answer == "The turn timer must be 0 (no timer) or from 15 to 3600 seconds."
    assert (await service(simcord_env).front.server_settings(guild.id)).turn_timer is None
    locales.user(mod, "pl")
    answer = private(await mod.slash(channel, "lama settings turn_timer", seconds=seconds))
    assert answer == "Limit czasu ruchu musi wynosić 0 (bez limitu) albo od 15 do 3600 sekund."


@pytest.mark.parametrize("seconds", [-1, 3601])
async def test_discord_itself_keeps_the_timer_within_0_to_3600(
    channel: simcord.ChannelHandle, mod: simcord.MemberActor, seconds: int
) -> None:
    """The option's range is in the command, so Discord's client refuses these (SimCord too)."""
    with pytest.raises(OptionError, match="seconds"):
        await mod.slash(channel, "lama settings turn_timer", seconds=seconds)


async def test_hints_off_by_default_and_new_still_turns_them_on(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    assert (await open_lobby(simcord_env, alice, channel)).hints, "on without a setting"
    await alice.slash(channel, "lama cancel")
    done = private(await mod.slash(channel, "lama settings hints", enabled=False))
    assert "start with hints off" in done
    assert not (await open_lobby(simcord_env, alice, channel)).hints
    await alice.slash(channel, "lama cancel")
    assert (await open_lobby(simcord_env, alice, channel, hints=True)).hints
    await alice.slash(channel, "lama cancel")
    done = private(await mod.slash(channel, "lama settings hints", enabled=True))
    assert "allow hints" in done
    assert (await open_lobby(simcord_env, alice, channel)).hints
    await alice.slash(channel, "lama cancel")
    assert not (await open_lobby(simcord_env, alice, channel, hints=False)).hints


async def test_new_is_refused_outside_the_allowed_channels_but_not_in_their_threads(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    other = guild.create_text_channel("chatter")
    done = private(await mod.slash(channel, "lama settings channel", channel=channel, allowed=True))
    assert done == (
        f"/lama new may open tables in <#{channel.id}> and its threads. "
        f"Allowed now: <#{channel.id}>."
    )
    refused = private(await alice.slash(other, "lama new"))
    assert refused == (
        "Tables can't be opened in this channel. In this server, /lama new works in "
        f"<#{channel.id}> and their threads."
    )
    assert service(simcord_env).registry.table_in(other.id) is None
    locales.user(alice, "de")
    refused = private(await alice.slash(other, "lama new"))
    assert refused.startswith("In diesem Kanal können keine Tische eröffnet werden.")
    assert f"<#{channel.id}>" in refused

    simcord_env.backend.create_thread(channel.id, "lama-thread", alice.id)
    (thread,) = channel.threads
    await open_lobby(simcord_env, alice, thread)
    await open_lobby(simcord_env, alice, channel)

    # A second channel; taking both off again opens every channel.
    await mod.slash(channel, "lama settings channel", channel=other, allowed=True)
    assert (await service(simcord_env).front.server_settings(guild.id)).channels == tuple(
        sorted((channel.id, other.id))
    )
    await open_lobby(simcord_env, alice, other)
    await alice.slash(other, "lama cancel")
    removed = private(
        await mod.slash(channel, "lama settings channel", channel=other, allowed=False)
    )
    assert removed == (
        f"/lama new no longer opens tables in <#{other.id}>. Allowed now: <#{channel.id}>."
    )
    not_listed = private(
        await mod.slash(channel, "lama settings channel", channel=other, allowed=False)
    )
    assert "isn't on the list" in not_listed
    last = private(
        await mod.slash(channel, "lama settings channel", channel=channel, allowed=False)
    )
    assert "every channel again" in last
    await open_lobby(simcord_env, alice, other)


async def test_all_channels_empties_the_list(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    other = guild.create_text_channel("chatter")
    await mod.slash(channel, "lama settings channel", channel=channel, allowed=True)
    assert "can't be opened in this channel" in private(await alice.slash(other, "lama new"))
    assert service(simcord_env).registry.table_in(other.id) is None
    done = private(await mod.slash(channel, "lama settings all_channels"))
    assert done == "/lama new may open tables in every channel of this server again."
    await open_lobby(simcord_env, alice, other)


async def test_show_lists_every_setting(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    shown = private(await mod.slash(channel, "lama settings show"))
    end = (await service(simcord_env).seasons.current(guild.id)).end
    assert shown.splitlines() == [
        "**⚙️ L.A.M.A. settings for this server**",
        "Language of lobbies and tables: English (the server's Discord language)",
        "Turn timer of new tables: 120 seconds per turn (the bot's default)",
        "Hints at new tables: on (the bot's default)",
        "Channels where /lama new may open a table (threads included): every channel",
        f"Rating seasons: a calendar month (UTC) each; the one under way ends <t:{end}:f>",
        "Games with house rules: rated on a board of their own; saved house rules: 0",
    ]
    other = guild.create_text_channel("chatter")
    await mod.slash(channel, "lama settings language", language="es")
    await mod.slash(channel, "lama settings turn_timer", seconds=0)
    await mod.slash(channel, "lama settings hints", enabled=False)
    await mod.slash(channel, "lama settings channel", channel=other, allowed=True)
    await mod.slash(channel, "lama settings channel", channel=channel, allowed=True)
    await mod.slash(channel, "lama settings season", length="14")
    await mod.slash(channel, "lama settings house_board", board="server")
    end = (await service(simcord_env).seasons.current(guild.id)).end
    listed = ", ".join(f"<#{c}>" for c in sorted((channel.id, other.id)))
    shown = private(await mod.slash(channel, "lama settings show"))
    assert shown.splitlines()[1:] == [
        "Language of lobbies and tables: Spanish",
        "Turn timer of new tables: off",
        "Hints at new tables: off",
        f"Channels where /lama new may open a table (threads included): {listed}",
        f"Rating seasons: 14 days each; the one under way ends <t:{end}:f>",
        "Games with house rules: rated with every other game; saved house rules: 0",
    ]
    locales.user(mod, "es-ES")
    shown = private(await mod.slash(channel, "lama settings show"))
    assert shown.splitlines() == [
        "**⚙️ Ajustes de L.A.M.A. de este servidor**",
        "Idioma de salas y mesas: español",
        "Tiempo de turno de las mesas nuevas: desactivado",
        "Pistas en las mesas nuevas: desactivadas",
        f"Canales donde /lama nueva puede abrir una mesa (con sus hilos): {listed}",
        f"Temporadas de clasificación: 14 días cada una; la actual termina el <t:{end}:f>",
        "Partidas con reglas de la casa: puntuadas con todas las demás partidas; "
        "reglas de la casa guardadas: 0",
    ]


async def test_a_forgotten_servers_settings_are_the_bots_defaults_again(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
) -> None:
    await mod.slash(channel, "lama settings turn_timer", seconds=90)
    await mod.slash(channel, "lama settings channel", channel=channel, allowed=True)
    store = service(simcord_env).store
    assert (await store.forget.forget_guild(guild.id)).settings == 1
    assert await service(simcord_env).front.server_settings(guild.id) == (
        await service(simcord_env).front.server_settings(guild.id + 1)
    )


async def test_a_rematch_is_refused_in_a_channel_taken_off_the_list(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    """A finished game's Rematch opens a table too: it follows the list like /lama new."""
    other = guild.create_text_channel("chatter")
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await mod.slash(channel, "lama settings channel", channel=other, allowed=True)
    await play_to_the_end(table, [alice, bob], channel)
    refused = private(await bob.click(table_message(channel), label="Rematch"))
    assert refused.startswith("Tables can't be opened in this channel.")
    assert f"<#{other.id}>" in refused
    assert service(simcord_env).registry.table_in(channel.id) is None


async def test_a_deleted_channel_is_taken_off_the_list(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    """A listed channel deleted can't be picked to take it off (Discord offers only the
    channels there are): it must not stay, named as #deleted-channel in every refusal,
    nor, the last one listed, keep /lama new refused in every channel for good."""
    games = guild.create_text_channel("games")
    other = guild.create_text_channel("chatter")
    for listed in (games, channel):
        await mod.slash(channel, "lama settings channel", channel=listed, allowed=True)

    simcord_env.backend.delete_channel(games.id)
    await simcord_env.advance_time(1)

    assert (await service(simcord_env).front.server_settings(guild.id)).channels == (channel.id,)
    refused = private(await alice.slash(other, "lama new"))
    assert f"<#{games.id}>" not in refused and f"<#{channel.id}>" in refused

    simcord_env.backend.delete_channel(channel.id)
    await simcord_env.advance_time(1)

    assert (await service(simcord_env).front.server_settings(guild.id)).channels == ()
    await open_lobby(simcord_env, alice, other)


@pytest.mark.parametrize("read", ["show", "refusal", "listing"])
async def test_a_channel_deleted_while_the_bot_was_down_goes_off_the_list(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
    read: str,
) -> None:
    """No delete event comes for a channel deleted while the bot is down: where the list
    is read next (a refusal, /lama settings show, /lama settings channel), the channel
    the server no longer has is neither named nor counted, and goes off the list."""
    games = guild.create_text_channel("games")
    other = guild.create_text_channel("chatter")
    for listed in (games, channel):
        await mod.slash(channel, "lama settings channel", channel=listed, allowed=True)

    await restart(
        simcord_env, settings, while_down=lambda: simcord_env.backend.delete_channel(games.id)
    )
    if read == "show":
        answer = private(await mod.slash(channel, "lama settings show"))
    elif read == "refusal":
        answer = private(await alice.slash(other, "lama new"))
    else:
        answer = private(
            await mod.slash(channel, "lama settings channel", channel=other, allowed=False)
        )
    await simcord_env.advance_time(1)

    assert f"<#{games.id}>" not in answer and f"<#{channel.id}>" in answer
    assert (await service(simcord_env).front.server_settings(guild.id)).channels == (channel.id,)

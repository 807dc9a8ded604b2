"""Through SimCord: private replies follow each player's language, the table the server's."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.frontend.custom_ids import MoveId
from game import Card as C
from testkit.simcord_play import (
    custom_ids,
    enabled,
    forged,
    one_move_from_the_end,
    open_lobby,
    rig,
    service,
    table_message,
    take_simple_turn,
    text_blocks,
    texts,
    title,
)

from .conftest import Locales


def labels(message: object) -> set[str]:
    return {label for _cid, label, _disabled in custom_ids(message)}


async def open_hand(
    player: simcord.MemberActor, channel: simcord.ChannelHandle, label: str
) -> discord.Message:
    result = await player.click(table_message(channel), label=label)
    assert result.ephemeral and result.response is not None
    return result.response  # type: ignore[return-value]


async def test_a_german_player_at_an_english_table(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
) -> None:
    bob = locales.user(guild.add_member(simcord_env.create_user("bob")), "de")
    table = await open_lobby(simcord_env, alice, channel)
    assert table.locale == "en-US"
    assert title(table_message(channel)) == "🦙 L.A.M.A. — lobby"

    refused = await bob.slash(channel, "lama start")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == "Das kann nur der Gastgeber."

    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    shown = table_message(channel)
    assert title(shown) == "🦙 L.A.M.A. — round 1"
    assert any(t[2:].startswith(" **bob** · 0 points") for t in text_blocks(shown)), (
        "a seat's own text"
    )
    assert "6 cards" in labels(shown), "beside it, its card count"

    hand = await open_hand(bob, channel, "Show my hand")
    assert title(hand) == "Deine Hand"
    assert "Oberste Karte:" in texts(hand)
    assert "**6 Karten:**" in texts(hand)
    assert {"Ziehen", "Aussteigen", "Aktualisieren"} <= labels(hand) | {"Ziehen (nur noch du)"}
    english = await open_hand(alice, channel, "Show my hand")
    assert title(english) == "Your hand"
    assert "**6 cards:**" in texts(english)

    late = await bob.slash(channel, "lama join")
    assert late.ephemeral and late.response is not None
    assert late.response.content == "Dieses Spiel hat schon begonnen."
    rules = await bob.slash(channel, "lama rules")
    assert rules.response is not None and "Nachziehstapel" in rules.response.content

    await simcord_env.advance_time(3)
    assert title(table_message(channel)) == "🦙 L.A.M.A. — round 1"


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_server_set_to_spanish_by_a_moderator(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
) -> None:
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    marta = locales.user(guild.add_member(simcord_env.create_user("marta"), roles=[mods]), "es-ES")
    lucia = locales.user(guild.add_member(simcord_env.create_user("lucia")), "es-419")

    refused = await alice.slash(channel, "lama settings language", language="de")
    assert refused.ephemeral and refused.response is not None
    assert "Manage Server" in refused.response.content
    refused = await lucia.slash(channel, "lama settings language", language="de")
    assert refused.response is not None and "«Gestionar servidor»" in refused.response.content
    assert await service(simcord_env).front.public_locale(guild.id, "en-US") == "en-US"

    done = await marta.slash(channel, "lama settings language", language="es")
    assert done.ephemeral and done.response is not None
    assert "en español" in done.response.content
    assert await service(simcord_env).front.public_locale(guild.id, "en-US") == "es"

    table = await open_lobby(simcord_env, alice, channel)
    lobby = table_message(channel)
    assert title(lobby) == "🦙 L.A.M.A. — sala"
    assert "**Jugadores (1/6)**" in texts(lobby)
    assert {"Unirse", "Salir", "Empezar", "Cancelar"} <= labels(lobby)
    joined = await marta.slash(channel, "lama join")
    assert joined.response is not None and joined.response.content == "Te uniste a la partida."
    await lucia.click(table_message(channel), label="Unirse")
    await alice.click(table_message(channel), label="Empezar")
    assert table.match is not None
    await simcord_env.advance_time(3)
    shown = table_message(channel)
    assert title(shown) == "🦙 L.A.M.A. — ronda 1"
    assert "Mazo de robo:" in texts(shown)
    assert any(t[2:].startswith(" **marta** · 0 puntos") for t in text_blocks(shown))
    assert "6 cartas" in labels(shown)

    english = await open_hand(alice, channel, "Ver mi mano")
    assert title(english) == "Your hand"
    for player in (marta, lucia):
        hand = await open_hand(player, channel, "Ver mi mano")
        assert title(hand) == "Tu mano"
        assert "**6 cartas:**" in texts(hand)
        assert "Robar" in " ".join(labels(hand))

    back = await marta.slash(channel, "lama settings language", language="default")
    assert back.response is not None
    assert "(ahora inglés)" in back.response.content
    assert await service(simcord_env).front.public_locale(guild.id, "de") == "de"


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_rematch_after_the_language_was_set_speaks_the_new_language(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The finished game was English; the server is German now: its rematch is a new
    table, and public tables follow the server's setting."""
    await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    await guild.add_member(simcord_env.create_user("marta"), roles=[mods]).slash(
        channel, "lama settings language", language="de"
    )

    await bob.click(table_message(channel), label="Rematch")

    rematch = service(simcord_env).registry.table_in(channel.id)
    assert rematch is not None and rematch.locale == "de"
    lobby = table_message(channel)
    assert title(lobby) == "🦙 L.A.M.A. — Lobby"
    assert {"Mitspielen", "Starten"} <= labels(lobby)


async def test_the_guild_locale_decides_without_a_setting(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
) -> None:
    locales.guild(guild, "de")
    bob = guild.add_member(simcord_env.create_user("bob"))
    await open_lobby(simcord_env, alice, channel)
    lobby = table_message(channel)
    assert title(lobby) == "🦙 L.A.M.A. — Lobby"
    assert "**Spieler (1/6)**" in texts(lobby)
    again = await alice.slash(channel, "lama join")
    assert again.response is not None and again.response.content == "You're already in this game."
    await bob.click(lobby, label="Mitspielen")
    await alice.click(table_message(channel), label="Starten")
    await simcord_env.advance_time(3)
    assert title(table_message(channel)) == "🦙 L.A.M.A. — Runde 1"
    pings = [m.content for m in channel.history() if "<@" in (m.content or "")]
    assert pings and "du bist am Zug" in pings[-1]
    hand = await open_hand(bob, channel, "Meine Hand zeigen")
    assert title(hand) == "Your hand"


async def test_lama_about_in_the_users_language(
    channel: simcord.ChannelHandle, alice: simcord.MemberActor, locales: Locales
) -> None:
    english = await alice.slash(channel, "lama-about")
    assert english.response is not None and "`/lama new`" in english.response.content
    locales.user(alice, "de")
    german = await alice.slash(channel, "lama-about")
    assert german.response is not None and "`/lama neu`" in german.response.content
    locales.user(alice, "es-419")
    spanish = await alice.slash(channel, "lama-about")
    assert spanish.response is not None and "`/lama nueva`" in spanish.response.content


async def test_missing_bot_permissions_are_named_in_the_users_language(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, locales: Locales
) -> None:
    assert guild.me is not None
    denied = discord.PermissionOverwrite(view_channel=False, attach_files=False)
    channel = guild.create_text_channel("closed", overwrites={guild.me: denied})
    bob = locales.user(guild.add_member(simcord_env.create_user("bob")), "de")
    lucia = locales.user(guild.add_member(simcord_env.create_user("lucia")), "es-ES")

    german = await bob.slash(channel, "lama new")
    assert german.ephemeral and german.response is not None
    assert german.response.content == (
        "Ich kann in diesem Kanal keinen L.A.M.A.-Tisch betreiben: Mir fehlen hier diese "
        "Berechtigungen: **Kanäle ansehen**, **Dateien anhängen**. Ein Admin muss sie dem Bot "
        "in diesem Kanal erteilen; versuch es danach noch einmal."
    )
    spanish = await lucia.slash(channel, "lama new")
    assert spanish.response is not None
    assert "estos permisos: **Ver canales**, **Adjuntar archivos**." in spanish.response.content
    assert service(simcord_env).registry.table_in(channel.id) is None


async def test_a_polish_server_with_polish_plurals(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
) -> None:
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    ola = locales.user(guild.add_member(simcord_env.create_user("ola"), roles=[mods]), "pl")

    done = await ola.slash(channel, "lama settings language", language="pl")
    assert done.ephemeral and done.response is not None
    assert "w języku: polski" in done.response.content

    table = await open_lobby(simcord_env, alice, channel)
    lobby = table_message(channel)
    assert title(lobby) == "🦙 L.A.M.A. — lobby"
    assert "**Gracze (1/6)**" in texts(lobby)
    joined = await ola.slash(channel, "lama join")
    assert joined.response is not None and joined.response.content == "Jesteś w grze."
    await alice.click(table_message(channel), label="Start")
    assert table.match is not None
    await simcord_env.advance_time(3)
    shown = table_message(channel)
    assert title(shown) == "🦙 L.A.M.A. — runda 1"
    # 56 cards, 12 dealt, 1 turned up: 43 left, the "few" form (2-4, 22-24, 32-34, 42-44 …).
    assert "Stos do dobierania: 43 karty" in texts(shown)

    hand = await open_hand(ola, channel, "Pokaż moją rękę")
    assert title(hand) == "Twoja ręka"
    assert "**6 kart:**" in texts(hand)
    assert {"Wyjdź z rundy", "Odśwież"} <= labels(hand)
    assert any(label.startswith("Dobierz") for label in labels(hand))
    english = await open_hand(alice, channel, "Pokaż moją rękę")
    assert title(english) == "Your hand"
    rules = await ola.slash(channel, "lama rules")
    assert rules.response is not None and "stos" in rules.response.content


@pytest.mark.parametrize(
    ("locale", "komarami", "llama"),
    [("pl", True, "Komar"), ("pl", False, "Lama"), ("de", True, "Lama")],
)
async def test_the_llama_card_is_named_as_the_edition_in_play_names_it(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    locales: Locales,
    locale: str,
    komarami: bool,
    llama: str,
) -> None:
    """Lato z Komarami's llamas are mosquitoes (komary) in Polish; other languages,
    and Polish without that variant, keep their llama."""
    locales.guild(guild, locale)
    ola = locales.user(guild.add_member(simcord_env.create_user("ola")), locale)
    ben = locales.user(guild.add_member(simcord_env.create_user("ben")), locale)
    hands = [[C.LLAMA, C.TWO, C.THREE, C.FOUR, C.FIVE, C.SIX], [C.ONE, C.ONE, C.TWO] * 2]
    rig(simcord_env, hands, C.LLAMA, [], starter=0)
    table = await open_lobby(simcord_env, ola, channel, komarami=komarami)
    await ben.slash(channel, "lama join")
    await ola.slash(channel, "lama start")
    assert table.match is not None

    assert f"**{llama}** · " in texts(table_message(channel)), "the top card on the table"
    shown = await ola.click(
        table_message(channel), custom_id=enabled(table_message(channel), "lama:hand:")[0]
    )
    hand = shown.response
    assert f"**{llama}**" in texts(hand), "the top card in the hand"
    play_llama = MoveId("play", table.game_id, table.stamp, C.LLAMA).custom_id
    assert any(llama in label for cid, label, _ in custom_ids(hand) if cid == play_llama)

    # A card that doesn't fit, as a forged or outdated button would play it.
    refused = await ola.click(
        forged(simcord_env, channel, MoveId("play", table.game_id, table.stamp, C.TWO).custom_id),
        label="Forged",
    )
    assert refused.response is not None and f" {llama}" in texts(refused.response)

    await ola.click(hand, custom_id=play_llama)
    await simcord_env.advance_time(3)
    moves = texts(table_message(channel))
    assert f"**{llama}** · " in moves, "the new top card"
    assert any(line.startswith("ola ") and f"> {llama}" in line for line in moves.split("\n"))
    other = "Lama" if llama == "Komar" else "Komar"
    assert f" {other}\n" not in moves + "\n" and f"**{other}**" not in texts(hand)

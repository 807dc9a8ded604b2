"""The lobby, the table and the hands are Components V2 layouts drawn with the
application's own card emojis, within Discord's limits."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
import simcord

from bot import art
from bot.config import Settings
from bot.frontend.faces import PLAIN
from bot.frontend.views import layout
from bot.frontend.views.table import table_view
from bot.i18n import text
from bot.service.play.table import Status
from game import Card as C
from game import Ruleset, build_deck
from testkit.simcord_play import (
    accent,
    components,
    custom_ids,
    enabled,
    forged,
    is_components_v2,
    last_moves,
    one_move_from_the_end,
    open_hand,
    open_lobby,
    rig,
    service,
    started_game,
    table_message,
    text_blocks,
    texts,
    title,
    two_player_game,
)
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401  (the fixture)
from tests.process.common import restart


def app_emojis(env: simcord.Env) -> dict[str, int]:
    """The application's emojis in the simulated Discord: name -> id."""
    return {e.name: e.id for e in env.backend.application_emojis.values()}


def emoji_text(env: simcord.Env, card: C) -> str:
    name = art.card_name(card)
    return f"<:{name}:{app_emojis(env)[name]}>"


def thumbnails(message: Any) -> list[str]:
    return [str(c["media"]["url"]) for c in components(message) if c.get("type") == 11]


GREY, GREEN, RED = 2, 3, 4  # Discord's button styles: secondary, success, danger


def seat_sections(message: Any) -> list[tuple[str, str, int, int | None]]:
    """(text, badge label, badge style, badge emoji id) of each seat's section."""
    seats = []
    for c in components(message):
        badge = c.get("accessory", {}) if c.get("type") == 9 else {}
        if str(badge.get("custom_id", "")).startswith("lama:seat:"):
            assert badge["disabled"], "a seat's card count can't be pressed"
            emoji = badge.get("emoji") or {}
            text_ = c["components"][0]["content"]
            seats.append((text_, badge["label"], badge["style"], int(emoji.get("id") or 0)))
    return seats


def hand_button(channel: simcord.ChannelHandle) -> str:
    """The table's Show my hand, whatever language it is in."""
    return enabled(table_message(channel), "lama:hand:")[0]


def moves_listed(message: Any, locale: str) -> list[str]:
    """The rows of a table's last moves, in the table's language."""
    heading = f"**{text(locale, 'table.recent')}**\n"
    return next(t for t in text_blocks(message) if t.startswith(heading)).split("\n")[1:]


def limits_of(message: Any) -> tuple[int, int]:
    """(components, characters of text) of a message, as Discord counts them."""
    return len(components(message)), sum(len(t) for t in text_blocks(message))


async def test_lobby_table_and_hand_are_v2_layouts_drawn_with_the_apps_card_emojis(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    emojis = app_emojis(simcord_env)
    assert sorted(emojis) == sorted(art.ALL_NAMES), "every card and chip, each once"

    bob = guild.add_member(simcord_env.create_user("bob"))
    rig(simcord_env, [[C.TWO, C.FIVE, C.FIVE], [C.THREE, C.SIX, C.SIX]], C.ONE, [], starter=0)
    await open_lobby(simcord_env, alice, channel)
    lobby = table_message(channel)
    assert is_components_v2(lobby) and not lobby.embeds and not lobby.content
    assert accent(lobby) == layout.COLOR_LOBBY.value
    assert emoji_text(simcord_env, C.LLAMA) in texts(lobby), "the deck in play, as its faces"
    await bob.click(lobby, label="Join")
    await alice.click(table_message(channel), label="Start")

    table = table_message(channel)
    assert is_components_v2(table) and title(table) == "🦙 L.A.M.A. — round 1"
    assert accent(table) == layout.COLOR_TABLE.value
    assert f"Top card: {emoji_text(simcord_env, C.ONE)} **1**" in texts(table)
    top_url = f"https://cdn.discordapp.com/emojis/{emojis['lama_1']}.png"
    assert top_url in thumbnails(table), "the top card's picture beside it"

    hand = await open_hand(alice, channel)
    assert is_components_v2(hand) and accent(hand) == layout.COLOR_YOUR_TURN.value
    five = emoji_text(simcord_env, C.FIVE)
    row = f"# {emoji_text(simcord_env, C.TWO)} {five}×2"
    beside_top = [
        c["components"][0]["content"]
        for c in components(hand)
        if c.get("type") == 9 and c["accessory"]["type"] == 11
    ]
    assert row in beside_top[0].split("\n"), "a row of faces, grouped, beside the top card"
    assert "Quitting now would cost 7 points." in texts(hand)
    play = next(c for c in components(hand) if c.get("label") == "Play 2")
    assert int(play["emoji"]["id"]) == emojis["lama_2"]
    waiting = await open_hand(bob, channel)
    assert accent(waiting) == layout.COLOR_WAITING.value

    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(3)
    assert f"alice played {emoji_text(simcord_env, C.TWO)} 2" in last_moves(channel)
    assert emoji_text(simcord_env, C.TWO) in texts(table_message(channel))


async def test_a_restart_uploads_no_emoji_twice_and_old_buttons_still_work(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    before = app_emojis(simcord_env)
    cursor = len(simcord_env.http_requests)

    await restart(simcord_env, settings)
    hand = await open_hand(alice if table.to_move == 0 else bob, channel)  # the old table's button

    assert app_emojis(simcord_env) == before
    uploads = [
        r
        for r in simcord_env.http_requests[cursor:]
        if r.method == "POST" and r.path.endswith("/emojis")
    ]
    assert uploads == []
    assert is_components_v2(hand) and enabled(hand, "lama:quit:")


async def test_an_open_hand_shows_the_result_when_the_game_ends(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    bobs = await bob.click(table_message(channel), label="Show my hand")
    assert "Waiting for alice" in texts(bobs.response)

    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(3)

    assert table.status is Status.FINISHED
    final = bobs.response
    assert "game over" in texts(final) and "The winner is **alice**!" in texts(final)
    assert "Waiting for" not in texts(final)
    # No move of a game that is over: only the review of it.
    assert [cid for cid, _label, _off in custom_ids(final)] == [f"lama:review:{table.game_id}"]
    assert accent(final) == layout.COLOR_OVER.value
    assert accent(table_message(channel)) == layout.COLOR_OVER.value


async def test_an_open_hand_says_the_game_was_cancelled(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await two_player_game(simcord_env, alice, bob, channel)
    bobs = await bob.click(table_message(channel), label="Show my hand")
    assert custom_ids(bobs.response)

    await alice.slash(channel, "lama cancel")
    await simcord_env.advance_time(3)

    assert "This game was cancelled." in texts(bobs.response)
    assert not custom_ids(bobs.response), "no buttons of a game that is over"


@pytest.mark.slow  # a six-player game with every variant, in four languages
@pytest.mark.parametrize("locale", ["en-US", "de", "es-ES", "pl"])
async def test_a_six_player_table_with_every_variant_stays_within_discords_limits(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    caplog: pytest.LogCaptureFixture,
    locales: Locales,  # noqa: F811
    locale: str,
) -> None:
    locales.guild(guild, locale)
    # The longest names Discord allows, made of markdown that escaping doubles.
    players = [
        locales.user(
            guild.add_member(simcord_env.create_user(f"p{i}"), nick=f"{i}" + "*_" * 15 + "~"),
            locale,
        )
        for i in range(6)
    ]
    variants = {"no_drama": True, "party": True, "komarami": True}
    # Deal the sorted deck round the table: every hand gets cards of every kind,
    # and everyone draws until the pile is empty. Then all quit.
    deck = sorted(build_deck(Ruleset(party=True, komarami=True)), key=int)
    top, deck = deck[0], deck[1:]
    shares = [deck[i::6] for i in range(6)]
    hands = [share[:6] for share in shares]
    pile = [shares[i % 6][6 + i // 6] for i in range(len(deck) - 36)]
    rig(simcord_env, hands, top, pile, starter=0)
    with caplog.at_level(logging.WARNING):
        table = await open_lobby(simcord_env, players[0], channel, threshold=200, **variants)
        for player in players[1:]:
            await player.slash(channel, "lama join")
        await players[0].slash(channel, "lama start")
        assert table.match is not None
        by_id = {p.id: p for p in players}
        shown: list[tuple[int, int]] = []
        while table.match.round_no == 1:
            seat = table.to_move
            assert seat is not None
            assert len(seat_sections(table_message(channel))) == 6, "every seat, as a section"
            player = by_id[table.seats[seat].user_id or 0]
            hand = await player.click(table_message(channel), custom_id=hand_button(channel))
            shown.append(limits_of(hand.response))
            move = enabled(hand.response, "lama:draw:") or enabled(hand.response, "lama:quit:")
            await player.click(hand.response, custom_id=move[0])
            await simcord_env.advance_time(1)
            shown.append(limits_of(table_message(channel)))
    final = table_message(channel)
    scoring = [t for t in text_blocks(final) if "→" in t]
    assert all(seat_result.hand for seat_result in table.match.results[0].seats)
    assert len(scoring) == 1 and scoring[0].count("→") == 6, "every hand with its penalty"
    shown.append(limits_of(final))
    assert max(c for c, _ in shown) <= 40 and max(t for _, t in shown) <= 4000
    assert not [r for r in caplog.records if "could not edit the table" in r.getMessage()]
    # The same table drawn with the plain emojis stays within them too.
    plain = table_view(table, PLAIN)
    assert layout.component_count(plain) <= 40 and layout.text_length(plain) <= 4000
    # Listing every move kept (an edit after a long stretch), too: the older ones
    # summed up in a row, the newest as the table lists them anyway.
    listed = table_view(table, simcord_env.bot.faces, list(table.recent))  # type: ignore[attr-defined]
    assert layout.component_count(listed) <= 40 and layout.text_length(listed) <= 4000
    assert len(table.recent) > 12 and len(moves_listed(listed, table.locale)) <= 12
    assert moves_listed(listed, table.locale)[-6:] == moves_listed(final, table.locale)
    assert isinstance(plain, discord.ui.LayoutView)
    assert service(simcord_env).registry.table_in(channel.id) is table


@pytest.mark.parametrize(
    ("hand", "says"),
    [
        (
            [C.TWO, C.FIVE, C.SIX],
            "Quitting now would cost 13 points.\nIf the No Drama card is still yours when"
            " the round ends, only 7 points.",
        ),
        (
            [C.SIX],
            "Quitting now would cost 6 points.\nIf the No Drama card is still yours when"
            " the round ends, none, and you give back a chip if you have one.",
        ),
        ([C.FIVE, C.FIVE], "Quitting now would cost 5 points."),  # a discard saves nothing
    ],
    ids=["discard", "chip", "nothing-saved"],
)
async def test_a_no_drama_hand_says_what_quitting_costs_with_the_no_drama_card(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    hand: list[C],
    says: str,
) -> None:
    """The player who quits takes the No Drama card; holding it at the round's end they
    discard their costliest card (and with nothing left give back a chip): the hand says
    so beside Quit, not just the hand's whole cost."""
    rig(simcord_env, [hand, [C.THREE, C.FOUR]], C.ONE, [C.TWO], starter=0)
    await started_game(simcord_env, alice, [bob], channel, no_drama=True)
    shown = await open_hand(alice, channel)
    cost = next(t for t in text_blocks(shown) if t.startswith("Quitting now"))
    assert cost == says


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_every_seat_is_a_section_with_its_card_count_beside_it(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    hands = [[C.SIX] * 6, [C.FIVE] * 6, [C.FOUR] * 6]
    rig(simcord_env, hands, C.TWO, [C.THREE], starter=0)
    table = await started_game(simcord_env, alice, [bob, carol], channel, no_drama=True)
    for player, prefix in ((alice, "lama:draw:"), (bob, "lama:quit:")):
        hand = await open_hand(player, channel)
        await player.click(hand, custom_id=enabled(hand, prefix)[0])
    await simcord_env.advance_time(3)

    seats = seat_sections(table_message(channel))
    back = app_emojis(simcord_env)[art.BACK]
    assert [(label, style) for _text, label, style, _emoji in seats] == [
        ("7 cards", GREY),
        ("6 cards", RED),  # out of the round
        ("6 cards", GREEN),  # to move
    ]
    assert all(emoji == back for *_, emoji in seats), "each count beside a card back"
    texts_ = [text_ for text_, *_ in seats]
    assert texts_[0] == "▫️ **alice** · 0 points"
    no_drama = f"<:{art.NO_DRAMA}:{app_emojis(simcord_env)[art.NO_DRAMA]}>"
    assert texts_[1] == f"▫️ **bob** {no_drama} · 0 points — out of the round"
    assert (
        texts_[2]
        == f"▶️ **carol** · 0 points — to move ⏳ ends <t:{int(table.turn_deadline or 0)}:R>"
    )

    # The counts can't be pressed; a click that comes anyway (forged, or from an
    # old message after a restart) shows the clicker their own hand, nobody else's.
    await restart(simcord_env, settings)
    seat_of_carol = f"lama:seat:{table.game_id}:2"
    for player, cards in ((alice, "**7 cards:**"), (carol, "**6 cards:**")):
        clicked = await player.click(forged(simcord_env, channel, seat_of_carol), label="Forged")
        assert clicked.ephemeral and title(clicked.response) == "Your hand"
        assert cards in texts(clicked.response)
    dave = guild.add_member(simcord_env.create_user("dave"))
    stranger = await dave.click(forged(simcord_env, channel, seat_of_carol), label="Forged")
    assert stranger.ephemeral and stranger.response is not None
    assert stranger.response.content == "You're not in this game."

"""A click on a player's old private hand once its game has ended: how it ended,
in the clicker's language, instead of a refusal."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from game import Card as C
from testkit.simcord_play import enabled, open_hand, rig, service, texts, two_player_game

from .conftest import Locales

#: What a finished hand says (the title, the standings heading, bob's place), by language.
FINISHED = {
    "en-US": ("game over", "**Standings**", "2. bob — 10 points"),
    "de": ("Spielende", "**Endstand**", "2. bob — 10 Minuspunkte"),
    "es-ES": ("fin de la partida", "**Clasificación**", "2. bob — 10 puntos"),
    "pl": ("koniec gry", "**Wyniki**", "2. bob — 10 punktów"),
}


@pytest.mark.parametrize("locale", list(FINISHED))
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_click_on_an_old_hand_of_a_finished_game_shows_how_it_ended(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
    locale: str,
) -> None:
    bob = locales.user(guild.add_member(simcord_env.create_user("bob")), locale)
    # alice plays her only card: the round, and the game to 5 points, are over.
    rig(simcord_env, [[C.THREE], [C.LLAMA]], C.THREE, [], starter=0)
    await two_player_game(simcord_env, alice, bob, channel, threshold=5, turn_timer=0)
    bobs: Any = await open_hand(bob, channel)
    # bob's hand is older than Discord lets the bot edit: it is not shown the end.
    await simcord_env.advance_time(15 * 60)
    hand: Any = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(3)

    result = await bob.click(bobs, custom_id=enabled(bobs, "lama:hand:")[0])
    assert result.response.ephemeral, "the hand itself shows it"
    shown = texts(result.response)
    for words in FINISHED[locale]:
        assert words in shown, (words, shown or result.response.content)


#: Why a game was cancelled, as an old hand of it says, by how it ended and language.
CANCELLED = {
    ("cancel", "en-US"): "This game was cancelled.",
    ("cancel", "pl"): "Ta gra została anulowana.",
    ("idle", "de"): "Drei Tage lang hat niemand gezogen, deshalb wurde das Spiel beendet.",
    ("idle", "es-ES"): "Nadie jugó en tres días, así que la partida terminó.",
    ("left", "en-US"): "Every player's seat is held by an AI, so the game was ended.",
}


@pytest.mark.parametrize(("how", "locale"), list(CANCELLED))
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_click_on_an_old_hand_of_a_cancelled_game_says_why_it_ended(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
    how: str,
    locale: str,
) -> None:
    bob = locales.user(guild.add_member(simcord_env.create_user("bob")), locale)
    await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    bobs: Any = await open_hand(bob, channel)
    refresh = enabled(bobs, "lama:hand:")[0]
    await simcord_env.advance_time(15 * 60)  # too old to be edited: it shows no end
    if how == "cancel":
        await alice.slash(channel, "lama cancel")
    elif how == "idle":
        await simcord_env.advance_time(3 * 24 * 60 * 60)
    else:  # bob, then alice leave: nobody is left to play for
        await bob.slash(channel, "lama leave")
        await alice.slash(channel, "lama leave")
    await simcord_env.advance_time(3)
    assert service(simcord_env).registry.table_in(channel.id) is None, "the game is over"

    result = await bob.click(bobs, custom_id=refresh)
    assert result.response.ephemeral
    shown = texts(result.response)
    assert CANCELLED[how, locale] in shown, shown or result.response.content

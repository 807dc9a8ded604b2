"""A player's open hand at the end of the game: all of it in their own language."""

from __future__ import annotations

from typing import Any

import simcord

from game import Card as C
from testkit.simcord_play import enabled, open_hand, rig, texts, two_player_game

from .conftest import Locales


async def test_a_german_players_finished_hand_at_an_english_table_is_all_german(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
) -> None:
    bob = locales.user(guild.add_member(simcord_env.create_user("bob")), "de")
    # alice plays her only card: the round, and the game to 5 points, are over.
    rig(simcord_env, [[C.THREE], [C.LLAMA]], C.THREE, [], starter=0)
    table = await two_player_game(simcord_env, alice, bob, channel, threshold=5)
    assert table.locale == "en-US"
    bobs: Any = await open_hand(bob, channel)
    hand: Any = await open_hand(alice, channel)

    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(3)

    shown = texts(bobs)
    assert "Spielende" in shown and "Gewonnen hat **alice**" in shown
    assert "**Endstand**" in shown, "the standings in German"
    assert "1. alice — 0 Minuspunkte" in shown and "2. bob — 10 Minuspunkte" in shown
    assert "**Runde 1 — Wertung**" in shown, "the round's scoring in German"
    assert "hat alle Karten abgelegt" in shown
    for english in ("Standings", " points", "emptied the hand", "total", "rating"):
        assert english not in shown, f"{english!r} in a German hand"

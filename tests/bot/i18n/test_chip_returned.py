"""The chip a player gives back for emptying their hand, named in the right number."""

from __future__ import annotations

from typing import Any

import simcord

from game import Card as C
from testkit.simcord_play import enabled, rig, service, table_message, texts

from .conftest import Locales


async def click_move(
    player: simcord.MemberActor, channel: simcord.ChannelHandle, move: str
) -> None:
    """Open the hand from the (Spanish) table and make the first move starting ``move``."""
    hand: Any = (await player.click(table_message(channel), label="Ver mi mano")).response
    await player.click(hand, custom_id=enabled(hand, move)[0])


async def test_a_one_point_chip_given_back_is_one_punto_at_a_spanish_table(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    locales: Locales,
) -> None:
    locales.guild(guild, "es-ES")
    # Round 1: alice empties her hand, bob keeps a 4 and a 5 (9 points, nine white chips).
    rig(simcord_env, [[C.THREE], [C.FOUR, C.FIVE]], C.THREE, [], starter=0)
    # Round 2: alice quits, bob plays his only card and gives back a white chip.
    rig(simcord_env, [[C.SIX], [C.THREE]], C.THREE, [], starter=0)
    await alice.slash(channel, "lama new")
    table = service(simcord_env).registry.table_in(channel.id)
    assert table is not None and table.locale == "es-ES"
    await bob.click(table_message(channel), label="Unirse")
    await alice.click(table_message(channel), label="Empezar")
    await click_move(alice, channel, "lama:play:")
    await click_move(alice, channel, "lama:quit:")
    await click_move(bob, channel, "lama:play:")
    await simcord_env.advance_time(3)

    shown = texts(table_message(channel))
    assert "(devolvió una ficha de 1 punto)" in shown, shown

"""A click's way through: its custom_id parsed once, its table looked up once, the
player's seat checked once by the service, and a stale or forged click refused as always."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bot.frontend.custom_ids import parse
from bot.i18n import text
from bot.service.play.registry import TableRegistry
from bot.service.play.table import Table
from game import Card as C
from testkit.simcord_play import (
    custom_ids,
    enabled,
    forged,
    open_hand,
    open_lobby,
    rig,
    service,
    table_message,
    texts,
    two_player_game,
)


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How often the service's registry was asked for a table (by id or by channel)."""
    counted: Counter[str] = Counter()
    for name in ("table", "table_in", "require"):
        real = getattr(TableRegistry, name)

        def counting(self: TableRegistry, key: int, _real: Any = real, _name: str = name) -> Any:
            counted[_name] += 1
            return _real(self, key)

        monkeypatch.setattr(TableRegistry, name, counting)
    yield counted


async def test_a_move_click_looks_its_table_up_once_and_answers_with_the_hand_after_it(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    lookups: Counter[str],
) -> None:
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel)
    hand = await open_hand(alice, channel)
    stamp = table.stamp
    lookups.clear()

    result = await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])

    assert table.stamp > stamp, "the move was made"
    assert sum(lookups.values()) == 1, f"one lookup for the click, not {dict(lookups)}"
    assert result.response is not None and "Waiting for bob." in texts(result.response)


async def test_a_join_click_and_an_add_ai_pick_each_look_their_table_up_once(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    lookups: Counter[str],
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    lookups.clear()

    result = await bob.click(table_message(channel), label="Join")

    assert table.seat_of(bob.id) == 1, "Bob sits at the table"
    assert sum(lookups.values()) == 1, f"one lookup for the click, not {dict(lookups)}"
    assert result.response is not None and f"<@{bob.id}>" in texts(result.response)
    lookups.clear()

    await alice.select(table_message(channel), ["easy"])

    assert len(table.seats) == 3, "an AI sits at the table"
    assert sum(lookups.values()) == 1, f"one lookup for the pick, not {dict(lookups)}"


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_hint_click_looks_its_table_up_once(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    lookups: Counter[str],
) -> None:
    rig(simcord_env, [[C.ONE], [C.FIVE]], C.FOUR, [])
    await two_player_game(simcord_env, alice, bob, channel, threshold=1, turn_timer=0)
    hand = await open_hand(alice, channel)
    lookups.clear()

    result = await alice.click(hand, custom_id=enabled(hand, "lama:hint:")[0])

    assert sum(lookups.values()) == 1, f"one lookup for the click, not {dict(lookups)}"
    assert result.followups and str(result.followups[-1].content).startswith("💡 **Quit**")


async def test_a_stale_move_on_a_hand_is_refused_with_the_hand_as_it_is_now(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    lookups: Counter[str],
) -> None:
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel)
    old = await open_hand(alice, channel)
    current = await open_hand(alice, channel)
    await alice.click(current, custom_id=enabled(current, "lama:play:")[0])
    stamp = table.stamp
    lookups.clear()

    result = await alice.click(old, custom_id=enabled(old, "lama:draw:")[0])

    assert table.stamp == stamp, "nothing moved"
    assert sum(lookups.values()) == 1
    assert result.response is not None and result.response.ephemeral
    said = texts(result.response)
    assert "That button was from an earlier turn. Here is your hand as it is now." in said
    assert not enabled(result.response, "lama:play:"), "the hand now: not her turn"


async def test_a_move_of_someone_not_at_the_table_is_refused_in_the_same_words(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel)
    carol = guild.add_member(simcord_env.create_user("carol"))
    play = f"lama:draw:{table.game_id}:{table.stamp}"

    result = await carol.click(forged(simcord_env, channel, play), custom_id=play)

    assert result.ephemeral and result.response is not None
    assert result.response.content == text("en", "error.not_a_player")


async def test_every_button_drawn_reads_back_as_the_id_it_was_drawn_from(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Views build buttons from typed ids and a click's custom_id is parsed once: what a
    view drew must parse back to its own id, or a click on it would be refused."""
    table: Table = await two_player_game(simcord_env, alice, bob, channel)
    hand = await open_hand(alice, channel)
    drawn = [cid for cid, _label, _off in custom_ids(hand) + custom_ids(table_message(channel))]
    assert len(drawn) > 5
    for custom_id in drawn:
        cid = parse(custom_id.removeprefix("lama:"))
        assert cid is not None and cid.custom_id == custom_id, custom_id
    assert service(simcord_env).registry.table(table.game_id) is table

"""Through SimCord: the host composes house rules in the lobby, and the lobby, the table, the
hands, the scoring, /lama rules, the replay and the export play and say exactly those rules;
nobody else may change them, and a restart keeps them."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
from simcord.results import to_discord_message

from bot.client import LamaBot
from bot.config import Settings
from game import Card as C
from game import Ruleset
from testkit.simcord_play import (
    below_title,
    components,
    custom_ids,
    enabled,
    open_hand,
    open_lobby,
    rig,
    service,
    table_message,
    texts,
)
from tests.simcord_fixtures import fresh_bot

from .test_export import exported

PARTY_LINE = "🎉 Party Edition · 🏠 Llamas cost 10 each · 🏠 hands of 7 cards"


def rule_select(message: Any) -> str:
    """The custom_id of the house rules select."""
    [found] = [cid for cid, _label, _off in custom_ids(message) if cid.startswith("lama-rule:")]
    return found


async def house_rules(
    player: simcord.MemberActor, channel: simcord.ChannelHandle
) -> simcord.InteractionResult:
    """``player`` presses the lobby's House rules."""
    return await player.click(table_message(channel), label="House rules")


async def choose(
    host: simcord.MemberActor, channel: simcord.ChannelHandle, value: str
) -> simcord.InteractionResult:
    """The host picks ``value`` (``hand_size=7``) in the house rules select that the
    lobby's House rules button showed them privately."""
    shown = await house_rules(host, channel)
    assert shown.ephemeral and shown.response is not None, "the host's own select"
    panel = shown.response
    result = await host.select(panel, [value], custom_id=rule_select(panel))
    assert result.response is not None or result.ephemeral is not None
    return result


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_host_composes_house_rules_and_every_view_plays_and_shows_them(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    mod: simcord.MemberActor,  # noqa: F811
) -> None:
    # Alice plays her only card; Bob keeps two Llamas and a 6: 6 + 10 each = 26.
    rig(simcord_env, [[C.FOUR], [C.LLAMA, C.LLAMA, C.SIX]], C.FOUR, [C.ONE])
    table = await open_lobby(simcord_env, alice, channel, party=True, threshold=1)
    await choose(alice, channel, "llama_cost=each")
    await choose(alice, channel, "hand_size=7")
    lobby = texts(table_message(channel))
    assert f"**Rules:** {PARTY_LINE} · 🏁 ends at 1 point" in lobby
    # The select offers what is not played now, saying what is.
    panel = await house_rules(alice, channel)
    assert panel.response is not None and PARTY_LINE in texts(panel.response)
    offered = rule_options(panel.response)
    assert "hand_size=7" not in offered and "hand_size=6" in offered
    assert offered["hand_size=6"] == "Hand size — now: hands of 7 cards"
    rules = await bob.slash(channel, "lama rules")
    assert rules.response is not None
    assert "Each Llama left in a hand costs 10." in rules.response.content
    assert "Each player is dealt 7 cards a round." in rules.response.content

    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    assert PARTY_LINE in texts(table_message(channel))
    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])

    finished = texts(table_message(channel))
    assert PARTY_LINE in finished
    assert "6 + 🦙 20 = **26**" in finished, finished  # each Llama cost 10
    replay = await bob.click(table_message(channel), label="Replay")
    assert replay.response is not None and PARTY_LINE in texts(replay.response)
    _, rows = await exported(await mod.slash(channel, "lama export"))
    assert {row[-1] for row in rows[1:]} == {"party llama_cost=each hand_size=7 threshold=1"}
    assert table.ruleset == Ruleset.compose("party", llama_cost="each", hand_size=7, threshold=1)


def old_select(
    env: simcord.Env, channel: simcord.ChannelHandle, custom_id: str, value: str
) -> discord.Message:
    """A message in ``channel`` with a house rules select offering ``value``."""
    backend = env.backend
    select = {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}
    stored = backend.create_message(
        channel.id, backend.bot_user.id, "", components=[{"type": 1, "components": [select]}]
    )
    return to_discord_message(env, stored)


def rule_options(message: Any) -> dict[str, str]:
    """The options of the lobby's house rules select: each value's description."""
    [select] = [c for c in components(message) if c.get("custom_id", "").startswith("lama-rule:")]
    return {o["value"]: o.get("description", "") for o in select["options"]}


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_hands_of_seven_are_dealt_seven_cards(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await open_lobby(simcord_env, alice, channel)
    await choose(alice, channel, "hand_size=7")
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    # The table shows each seat's cards, the hand every card dealt.
    seats = [label for cid, label, _ in custom_ids(table_message(channel)) if "lama:seat:" in cid]
    assert seats == ["7 cards", "7 cards"]
    hand = await open_hand(alice, channel)
    assert "Draw pile: 41 cards" in below_title(hand), below_title(hand)  # 56 - 2 x 7 - 1


async def test_only_the_host_changes_the_house_rules_and_only_in_the_lobby(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    await bob.click(table_message(channel), label="Join")
    refused = await house_rules(bob, channel)
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == "Only the host can change the house rules."
    # The host's select, had it come to Bob somehow, changes nothing either.
    custom_id = f"lama-rule:{table.game_id}"
    copied = old_select(simcord_env, channel, custom_id, "pink_chips=true")
    refused = await bob.select(copied, ["pink_chips=true"], custom_id=custom_id)
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == "Only the host can change the house rules."
    assert table.ruleset == Ruleset()
    assert "🏠 " not in texts(table_message(channel))
    await alice.click(table_message(channel), label="Start")
    # The lobby's select, as a client that had not seen the start yet would click it.
    old = old_select(simcord_env, channel, custom_id, "pink_chips=true")
    late = await alice.select(old, ["pink_chips=true"], custom_id=custom_id)
    assert late.ephemeral and late.response is not None
    assert late.response.content == "This lobby is closed."
    assert table.ruleset == Ruleset()


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_restart_keeps_the_house_rules_composed_in_the_lobby(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel, komarami=True)
    await choose(alice, channel, "hand_size=5")
    old = simcord_env.bot
    assert isinstance(old, LamaBot)
    await old.close()
    await simcord_env.restart_bot(fresh_bot(settings, old))
    again = service(simcord_env).registry.table(table.game_id)
    assert again is not None and again.ruleset == Ruleset(komarami=True, hand_size=5)
    await choose(alice, channel, "pink_chips=true")  # and the host composes on
    shown = texts(table_message(channel))
    assert "🦟 Lato z Komarami · 🏠 with pink 20-point chips · 🏠 hands of 5 cards" in shown

"""Through SimCord: /lama new's editions option offers every preset of ``game.rules.PRESETS``
(a new one too, with its catalog keys and nothing else: docs/develop/house-rules.md),
adds to the no_drama/party/komarami switches, and refuses anything else in the person's
language; /lama rules outside a game lists the presets."""

from __future__ import annotations

import pytest
import simcord

from bot.i18n import CATALOGS, text
from game import Ruleset, rules
from testkit.simcord_play import open_lobby, service, table_message, texts

from .i18n.conftest import Locales, locales  # noqa: F401  (a fixture, found by name)
from .test_server_settings import private


@pytest.fixture
def big_hands(monkeypatch: pytest.MonkeyPatch) -> str:
    """A fourth preset added as the recipe says: PRESETS and the catalogs' two keys."""
    monkeypatch.setitem(rules.PRESETS, "big_hands", {"hand_size": 8})
    monkeypatch.setitem(CATALOGS["en"], "variant.big_hands", "🖐️ Big Hands")
    monkeypatch.setitem(CATALOGS["en"], "rules.big_hands", "🖐️ **Big Hands:** hands of 8.")
    return "big_hands"


async def test_the_editions_option_opens_a_lobby_of_those_editions(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    offered = await alice.autocomplete(channel, "lama new", "editions", "party")
    assert {"name": "🎉 Party Edition + 🦟 Lato z Komarami", "value": "party+komarami"} in offered
    table = await open_lobby(
        simcord_env, alice, channel, editions="party+komarami", no_drama=True, threshold=30
    )
    # The switches and the option together: every edition named by either.
    assert table.ruleset == Ruleset.compose("no_drama", "party", "komarami", threshold=30)
    assert "🎭 No Drama · 🎉 Party Edition · 🦟 Lato z Komarami" in texts(table_message(channel))


async def test_the_editions_and_a_switch_may_name_the_same_edition(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    table = await open_lobby(simcord_env, alice, channel, editions="party", party=True)
    assert table.ruleset == Ruleset.compose("party")


async def test_editions_not_offered_are_refused_in_the_persons_language(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    polish = locales.user(alice, "pl")
    for bad in ("party+party", "pink", "party+"):
        refused = await polish.slash(channel, "lama new", editions=bad)
        assert private(refused) == text("pl", "house.bad_editions", value=bad)
    spanish = locales.user(alice, "es-ES")
    both = await spanish.slash(channel, "lama new", editions="party", house_rules="Summer")
    assert private(both) == text("es", "house.with_editions")
    assert service(simcord_env).registry.table_in(channel.id) is None


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_preset_added_to_presets_is_offered_and_played(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
    big_hands: str,
) -> None:
    choice = {"name": "🖐️ Big Hands", "value": big_hands}
    assert choice in await alice.autocomplete(channel, "lama new", "editions", "big")
    assert choice in await mod.autocomplete(channel, "lama settings rules", "editions", "big")
    listed = await alice.slash(channel, "lama rules")
    assert listed.response is not None and "🖐️ Big Hands" in listed.response.content

    table = await open_lobby(simcord_env, alice, channel, editions=big_hands, threshold=25)
    assert table.ruleset == Ruleset.compose(big_hands, threshold=25)
    assert table.ruleset.hand_size == 8 and table.ruleset.presets == (big_hands,)
    assert "🖐️ Big Hands" in texts(table_message(channel))
    explained = await alice.slash(channel, "lama rules")
    assert explained.response is not None
    assert "🖐️ **Big Hands:** hands of 8." in explained.response.content

"""Through SimCord: /lama settings rules saves, lists and deletes a server's house rules,
/lama new opens a lobby with them, /lama settings house_board says where they are rated;
refusals in the person's language (members without Manage Server: test_server_settings)."""

from __future__ import annotations

import pytest
import simcord

from bot.i18n import text
from bot.service.house_rules import MAX_SAVED
from data.settings import SERVER
from game import ChipBack, Ruleset
from testkit.simcord_play import service

from .i18n.conftest import Locales, locales  # noqa: F401  (a fixture, found by name)
from .test_server_settings import private

#: The Party Edition with hands of 7 and nothing given back for an emptied hand.
SUMMER = Ruleset.compose("party", hand_size=7, chip_back=ChipBack.NONE)


async def save_summer(mod: simcord.MemberActor, channel: simcord.ChannelHandle) -> str:
    return private(
        await mod.slash(
            channel,
            "lama settings rules",
            action="save",
            name="Summer *nights*",
            editions="party",
            change_1="hand_size=7",
            change_2="chip_back=none",
        )
    )


async def test_an_admin_saves_lists_and_deletes_house_rules(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
) -> None:
    assert private(await mod.slash(channel, "lama settings rules")) == text(
        "en", "house.list_empty"
    )
    answer = await save_summer(mod, channel)
    assert answer == (
        "Saved the house rules **Summer \\*nights\\***: 🎉 Party Edition · 🏠 hands of 7 cards · "
        "🏠 an emptied hand gives back no chip. Pick them with /lama new's house_rules option."
    )
    [saved] = await service(simcord_env).house_rules.saved(guild.id)
    assert (saved.name, saved.ruleset) == ("Summer *nights*", SUMMER)

    listed = private(await mod.slash(channel, "lama settings rules", action="list"))
    assert listed.splitlines() == [
        f"**House rules saved in this server** (1 of {MAX_SAVED}):",
        "• **Summer \\*nights\\***: 🎉 Party Edition · 🏠 hands of 7 cards · "
        "🏠 an emptied hand gives back no chip",
    ]
    again = private(
        await mod.slash(channel, "lama settings rules", action="save", name="summer *NIGHTS*")
    )
    assert again.startswith("This server has house rules named **summer \\*NIGHTS\\***")

    gone = private(
        await mod.slash(channel, "lama settings rules", action="delete", name="SUMMER *nights*")
    )
    assert gone.startswith("Deleted the house rules **Summer \\*nights\\***.")
    assert await service(simcord_env).house_rules.saved(guild.id) == []


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_options_offer_editions_and_rules_and_refuse_anything_else(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    editions = await mod.autocomplete(channel, "lama settings rules", "editions", "")
    assert editions[0] == {"name": "Base game", "value": "base"}
    assert {"name": "🎭 No Drama + 🎉 Party Edition", "value": "no_drama+party"} in editions
    assert len(editions) == 8
    rules = await mod.autocomplete(channel, "lama settings rules", "change_1", "hands of")
    assert [c["value"] for c in rules] == [f"hand_size={n}" for n in (4, 5, 6, 7, 8)]
    polish = locales.user(mod, "pl")
    rules = await polish.autocomplete(channel, "lama settings rules", "change_1", "kosztuje")
    assert {"name": "Każda lama kosztuje 10", "value": "llama_cost=each"} in rules

    bad = await polish.slash(
        channel, "lama settings rules", action="save", name="X", change_3="hand_size=99"
    )
    assert private(bad) == text("pl", "house.bad_rule", value="hand_size=99")
    nameless = await polish.slash(channel, "lama settings rules", action="save")
    assert private(nameless) == text("pl", "house.name_needed")
    assert await service(simcord_env).house_rules.saved(guild.id) == []


async def test_a_full_list_is_refused_in_the_persons_language(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    for n in range(MAX_SAVED):
        await service(simcord_env).house_rules.save(guild.id, f"Rules {n}", SUMMER)
    german = locales.user(mod, "de")
    refused = await german.slash(channel, "lama settings rules", action="save", name="Eins mehr")
    assert private(refused) == text("de", "house.full", max=MAX_SAVED)


async def test_lama_new_opens_a_lobby_with_the_saved_rules(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    alice: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    await save_summer(mod, channel)
    offered = await alice.autocomplete(channel, "lama new", "house_rules", "sum")
    assert offered == [{"name": "Summer *nights*", "value": "Summer *nights*"}]

    spanish = locales.user(alice, "es-ES")
    refused = await spanish.slash(channel, "lama new", house_rules="Winter")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == text("es", "house.unknown", name="Winter")
    both = await spanish.slash(channel, "lama new", house_rules="Summer *nights*", party=True)
    assert both.response is not None and both.response.content == text("es", "house.with_editions")
    assert service(simcord_env).registry.table_in(channel.id) is None

    opened = await alice.slash(channel, "lama new", house_rules="summer *nights*", threshold=30)
    assert opened.response is not None and not opened.ephemeral
    table = service(simcord_env).registry.table_in(channel.id)
    assert table is not None and table.ruleset == SUMMER.with_changes(threshold=30)


async def test_the_house_board_setting_is_said_and_shown(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
) -> None:
    shown = private(await mod.slash(channel, "lama settings show"))
    assert "Games with house rules: rated on a board of their own; saved house rules: 0" in shown
    answer = private(await mod.slash(channel, "lama settings house_board", board=SERVER))
    assert answer == "\n".join([text("en", "house.board.server"), text("en", "house.board.kept")])
    assert await service(simcord_env).house_rules.board(guild.id) == SERVER
    await save_summer(mod, channel)
    shown = private(await mod.slash(channel, "lama settings show"))
    assert "Games with house rules: rated with every other game; saved house rules: 1" in shown

"""House rules in four languages: the lobby's line, the host's select, /lama rules, a refusal."""

from __future__ import annotations

import pytest
import simcord

from testkit.simcord_play import components, custom_ids, open_lobby, table_message, texts

from .conftest import Locales


@pytest.mark.parametrize(
    ("language", "line", "sentence", "placeholder", "refusal"),
    [
        (
            "en-US",
            "🎉 Party Edition · 🏠 Llamas cost 10 each · 🏁 ends at 40 points",
            "Each Llama left in a hand costs 10.",
            "🏠 Change a house rule…",
            "Only the host can change the house rules.",
        ),
        (
            "de",
            "🎉 Party Edition · 🏠 jedes Lama kostet 10 · 🏁 endet bei 40 Minuspunkten",
            "Jedes Lama auf der Hand kostet 10.",
            "🏠 Hausregel ändern …",
            "Nur der Gastgeber kann die Hausregeln ändern.",
        ),
        (
            "es-ES",
            "🎉 Party Edition · 🏠 cada llama cuesta 10 · 🏁 termina a los 40 puntos",
            "Cada llama que queda en la mano cuesta 10.",
            "🏠 Cambiar una regla de la casa…",
            "Solo el anfitrión puede cambiar las reglas de la casa.",
        ),
        (
            "pl",
            "🎉 Party Edition · 🏠 każda lama kosztuje 10 · 🏁 koniec przy 40 pkt",
            "Każda lama, która zostaje w ręce, kosztuje 10.",
            "🏠 Zmień zasadę domową…",
            "Tylko gospodarz może zmieniać zasady domowe.",
        ),
    ],
)
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_house_rules_are_said_in_the_servers_and_each_persons_language(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    locales: Locales,
    language: str,
    line: str,
    sentence: str,
    placeholder: str,
    refusal: str,
) -> None:
    locales.guild(guild, language)
    locales.user(alice, language)
    locales.user(bob, language)
    table = await open_lobby(simcord_env, alice, channel, party=True)
    house = f"lama:house:{table.game_id}"
    shown = await alice.click(table_message(channel), custom_id=house)
    assert shown.ephemeral and shown.response is not None
    [select] = [c for c in custom_ids(shown.response) if c[0].startswith("lama-rule:")]
    await alice.select(shown.response, ["llama_cost=each"], custom_id=select[0])
    assert line in texts(table_message(channel))
    rules = await bob.slash(channel, "lama rules")
    assert rules.response is not None and sentence in rules.response.content
    again = await alice.click(table_message(channel), custom_id=house)
    assert again.response is not None
    assert placeholder in [c.get("placeholder") for c in components(again.response)]
    refused = await bob.click(table_message(channel), custom_id=house)
    assert refused.response is not None and refused.response.content == refusal

"""The points a game ends at, in the lobby, the table and /lama rules: one point is one."""

from __future__ import annotations

import re

import pytest
import simcord

from testkit.simcord_play import open_lobby, table_message, texts

from .conftest import Locales


@pytest.mark.parametrize(
    ("language", "threshold", "badge", "rule"),
    [
        ("en-US", 1, "🏁 ends at 1 point", "This game ends at 1 point."),
        ("en-US", 2, "🏁 ends at 2 points", "This game ends at 2 points."),
        ("de", 1, "🏁 endet bei 1 Minuspunkt", "Dieses Spiel endet bei 1 Minuspunkt."),
        ("de", 40, "🏁 endet bei 40 Minuspunkten", "Dieses Spiel endet bei 40 Minuspunkten."),
        ("es-ES", 1, "🏁 termina con 1 punto", "Esta partida termina con 1 punto."),
        ("es-ES", 40, "🏁 termina a los 40 puntos", "Esta partida termina a los 40 puntos."),
        ("pl", 1, "🏁 koniec przy 1 pkt", "Ta gra kończy się przy 1 punkcie."),
        ("pl", 22, "🏁 koniec przy 22 pkt", "Ta gra kończy się przy 22 punktach."),
        ("pl", 40, "🏁 koniec przy 40 pkt", "Ta gra kończy się przy 40 punktach."),
    ],
)
async def test_the_threshold_is_said_in_the_right_number(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
    language: str,
    threshold: int,
    badge: str,
    rule: str,
) -> None:
    locales.guild(guild, language)
    locales.user(alice, language)
    await open_lobby(simcord_env, alice, channel, threshold=threshold)
    shown = texts(table_message(channel))
    assert re.search(re.escape(badge) + r"(?!\w)", shown), shown  # not "1 points"
    rules = await alice.slash(channel, "lama rules")
    assert rules.response is not None and rule in rules.response.content

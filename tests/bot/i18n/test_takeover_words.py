"""The table's line for a seat handed to an AI after missed turns counts them in
every language, with the plural each count needs (Polish has three)."""

from __future__ import annotations

import pytest

from bot.i18n import text

EXPECTED = [
    ("en", 1, "ann missed a turn; an AI plays for them until they are back"),
    ("en", 3, "ann missed 3 turns in a row; an AI plays for them until they are back"),
    ("de", 1, "ann hat einen Zug verpasst; eine KI spielt, bis ann zurück ist"),
    ("de", 3, "ann hat 3 Züge in Folge verpasst; eine KI spielt, bis ann zurück ist"),
    ("es", 1, "ann perdió un turno; una IA juega por ann hasta que vuelva"),
    ("es", 3, "ann perdió 3 turnos seguidos; una IA juega por ann hasta que vuelva"),
    ("pl", 1, "ann opuszcza kolejkę; AI gra za tę osobę, dopóki nie wróci"),
    ("pl", 3, "ann opuszcza 3 kolejki z rzędu; AI gra za tę osobę, dopóki nie wróci"),
    ("pl", 5, "ann opuszcza 5 kolejek z rzędu; AI gra za tę osobę, dopóki nie wróci"),
    ("pl", 22, "ann opuszcza 22 kolejki z rzędu; AI gra za tę osobę, dopóki nie wróci"),
]


@pytest.mark.parametrize(("locale", "count", "line"), EXPECTED)
def test_a_takeover_line_counts_the_turns_missed(locale: str, count: int, line: str) -> None:
    assert text(locale, "log.takeover", name="ann", count=count, card="") == line

"""The words the bot writes for names and numbers (bot.frontend.words): a seat's name in
the reader's language, a display name that can mention nobody, a rating's sign."""

from __future__ import annotations

from bot.frontend.words import seat_name, signed, stored_name
from bot.service.play.table import Seat
from game.ai import Strength


def test_an_ai_seat_is_named_in_the_readers_language() -> None:
    seat = Seat(user_id=None, ai=Strength.HARD, name="AI 2")
    # Its strength beside its name, "AI" once: "AI 2 (Hard AI)" said it twice.
    assert seat_name("en", seat) == "AI 2 (Hard)"
    assert seat_name("de", seat) == "KI 2 (Schwer)"
    assert seat_name("es", seat) == "IA 2 (Difícil)"
    assert seat_name("pl", seat) == "AI 2 (Trudny)"


def test_a_name_read_without_its_seat_is_named_so_too() -> None:
    """A game's winners, a chart's lines: the stored name alone."""
    assert stored_name("de", "AI 3") == "KI 3"
    assert stored_name("es", "AI 3") == "IA 3"
    assert stored_name("de", "alice") == "alice"


def test_a_person_called_like_an_ai_keeps_their_name_at_their_seat() -> None:
    for name in ("AI 1", "AI", "AI one", "AI 1 (Hard AI)"):
        assert seat_name("de", Seat(user_id=7, ai=None, name=name)) == name
    assert seat_name("de", Seat(user_id=7, ai=None, name="AI 1", away=True)) == "AI 1"


def test_a_display_name_can_mention_nobody_and_format_nothing() -> None:
    for name in ("<@&42>", "<@42>", "<@!42>", "<#42>", "@everyone", "@here", "</lama new:1>"):
        shown = seat_name("en", Seat(user_id=7, ai=None, name=f"**{name}**"))
        for mention in ("<@", "<#", "</", "@everyone", "@here", "**"):
            assert mention not in shown, (name, shown)


def test_a_display_name_keeps_its_own_letters_without_the_bidi_controls() -> None:
    assert seat_name("en", Seat(user_id=7, ai=None, name="\u202bשרה\u202c")) == "שרה"


def test_signs_as_players_read_them() -> None:
    assert [signed(18), signed(-5), signed(0)] == ["+18", "\u22125", "\u00b10"]

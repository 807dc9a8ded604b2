"""The CSV export of a server's finished games: one row a seat, newest games first, capped in size.

``/lama export`` attaches the file; one attachment holds at most ``cap`` bytes (Discord's
upload limit), so a server with more games than that gets its most recent ones, whole
games only, and is told how many of how many.  The games are read a page at a time
(:class:`~data.export.ExportReads`) and each page is written to CSV in a worker thread,
so 100,000 games are never all in memory nor on the event loop at once.

The file is UTF-8 with a byte order mark (so spreadsheet programs read names in every
language right), comma-separated with CRLF line ends (RFC 4180), the header's column
names in English for scripts.  A name a spreadsheet would take for a formula (starting
with ``=``, ``+``, ``-`` or ``@``, full-width ones too, even after blanks, or with a tab
or line break) gets a leading apostrophe.  A forgotten person's seat
is named as stored, "former player" (no player id, no AI), in English as the header
is: the file reads the same whoever asks, so a script can find those seats.  A person an
AI played on for (after they left, were kicked or timed out) is that person: their id,
no AI.
"""

from __future__ import annotations

import asyncio
import csv
import io
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.service.ratings.rating_scale import shown
from bot.service.saver import read
from data import Store
from data.export import EXPORT_PAGE, ExportGame, ExportReads, ExportSeat
from data.records import Sight, former_player
from game import Chips, Ruleset

#: Discord's default upload limit for a bot: 10 MiB an attachment.
MAX_BYTES = 10 * 1024 * 1024

BOM = "\ufeff".encode()

#: The header. Chips are counted by colour (white 1, black 10, pink 20 points; pink
#: only with pink chips), so that they add up to ``points``; the ratings are the game's
#: season's, shown as everywhere else, empty while the game is not rated; the game's rules
#: last (:func:`rules_cell`), a column added after the others so scripts keep their places.
COLUMNS = (
    "game_id",
    "finished_at",
    "channel_id",
    "seat",
    "player_id",
    "name",
    "ai",
    "points",
    "white_chips",
    "black_chips",
    "pink_chips",
    "rank",
    "rating_before",
    "rating_after",
    "rules",
)

#: What a spreadsheet reads as the start of a formula: these signs, also full-width or
#: small (NFKC folds "＝" and "﹦" to "="; spreadsheets take them so), after any blanks.
_FORMULA = frozenset("=+-@")
#: Control characters that start a formula on their own in some spreadsheets.
_CONTROLS = ("\t", "\r", "\n")


@dataclass(frozen=True, slots=True)
class Export:
    """The file, and how many of the games in sight it holds."""

    data: bytes
    games: int  # games in the file
    total: int  # finished games in sight

    @property
    def complete(self) -> bool:
        return self.games >= self.total


def iso_utc(unix: float) -> str:
    """A unix time as ISO 8601 in UTC, to the second: ``2026-12-02T17:11:51Z``."""
    return datetime.fromtimestamp(unix, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def safe_text(value: str) -> str:
    """A name as a cell: never a formula."""
    first = value.lstrip()[:1]
    formula = value.startswith(_CONTROLS) or unicodedata.normalize("NFKC", first) in _FORMULA
    return "'" + value if formula else value


def standing(game: ExportGame) -> dict[int, int]:
    """Each seat's rank: the winners 1, then by final points (fewer first), equal
    points sharing one; the rater's own order where every seat of the game is rated
    (one seat without a rating, a forgotten person's, and the one order is kept)."""
    ratings = [s.rating for s in game.seats]
    if all(r is not None for r in ratings):
        return {s.seat: s.rating.rank for s in game.seats if s.rating is not None}
    winners = sum(s.winner for s in game.seats)
    ranks: dict[int, int] = {}
    for seat in game.seats:
        if seat.winner:
            ranks[seat.seat] = 1
        else:
            ahead = sum(not o.winner and o.points < seat.points for o in game.seats)
            ranks[seat.seat] = 1 + winners + ahead
    return ranks


def _ai_column(seat: ExportSeat) -> str:
    """The AI strength of an AI's own seat; empty for a person's, also one an AI played on
    for (it keeps the person's id and name, the AI beside) and a forgotten person's (kept
    as a Normal AI's, the former player now)."""
    if seat.user_id is not None or former_player(seat.user_id, seat.name):
        return ""
    return seat.ai or ""


def rules_cell(ruleset: Ruleset) -> str:
    """The rules a game had, for scripts: its editions by key, then each house rule as
    ``dimension=value``, then the threshold (``party hand_size=7 threshold=40``)."""
    house = []
    for name in ruleset.house_rules:
        value = getattr(ruleset, name)
        shown = str(value).lower() if isinstance(value, bool) else getattr(value, "value", value)
        house.append(f"{name}={shown}")
    return " ".join([*ruleset.presets, *house, f"threshold={ruleset.threshold}"])


def seat_row(game: ExportGame, seat: ExportSeat, rank: int) -> list[str | int]:
    chips = Chips.of(seat.points, pink_chips=game.ruleset.pink_chips)
    rating = seat.rating
    return [
        game.game_id,
        iso_utc(game.finished_at),
        game.channel_id,
        seat.seat,
        "" if seat.user_id is None else seat.user_id,
        safe_text(seat.name),
        _ai_column(seat),
        seat.points,
        chips.white,
        chips.black,
        chips.pink,
        rank,
        "" if rating is None else shown(rating.mu_before, rating.sigma_before),
        "" if rating is None else shown(rating.mu_after, rating.sigma_after),
        rules_cell(game.ruleset),
    ]


def encode_games(games: list[ExportGame]) -> list[bytes]:
    """Each game's rows, as the file's bytes (one entry a game)."""
    out: list[bytes] = []
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # excel dialect: commas, quotes as needed, CRLF
    for game in games:
        ranks = standing(game)
        writer.writerows(seat_row(game, seat, ranks[seat.seat]) for seat in game.seats)
        out.append(buffer.getvalue().encode())
        buffer.seek(0)
        buffer.truncate()
    return out


def header() -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(COLUMNS)
    return BOM + buffer.getvalue().encode()


async def export_csv(
    reads: ExportReads,
    guild_id: int,
    *,
    game_id: int | None = None,
    sight: Sight,
    cap: int = MAX_BYTES,
    page: int = EXPORT_PAGE,
) -> Export:
    """The server's finished games in ``sight`` (only ``game_id``, if given) as one CSV
    of at most ``cap`` bytes: all of them, or the most recent whole games that fit."""
    total = await reads.export_count(guild_id, game_id=game_id, sight=sight)
    parts = [header()]
    size = len(parts[0])
    games = 0
    after: tuple[float, int] | None = None
    full = False
    while not full:
        found = await reads.export_page(
            guild_id, after=after, limit=page, game_id=game_id, sight=sight
        )
        if not found:
            break
        for chunk in await asyncio.to_thread(encode_games, found):
            if size + len(chunk) > cap:
                full = True
                break
            parts.append(chunk)
            size += len(chunk)
            games += 1
        last = found[-1]
        after = (last.finished_at, last.game_id)
        if len(found) < page:
            break
    # A game finished since the count is in the file too: never "5 of 4".
    return Export(b"".join(parts), games=games, total=max(total, games))


class Exports:
    """``/lama export``'s file, read on the stats' connection; a store that fails is
    refused with ``export.failed``."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def csv(
        self, guild_id: int, *, game_id: int | None = None, sight: Sight, cap: int = MAX_BYTES
    ) -> Export:
        """The server's finished games in ``sight`` (only ``game_id``, if given) as one
        CSV of at most ``cap`` bytes (see :func:`export_csv`)."""
        reading = export_csv(self._store.export, guild_id, game_id=game_id, sight=sight, cap=cap)
        return await read(reading, "export.failed", f"guild {guild_id}: the export")


__all__ = [
    "COLUMNS",
    "MAX_BYTES",
    "Export",
    "Exports",
    "export_csv",
    "iso_utc",
    "rules_cell",
    "safe_text",
    "standing",
]

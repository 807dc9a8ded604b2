"""The CSV export (bot/service/history/export.py) over a real store: what a spreadsheet would read
from it, and a file that would be too big holding the most recent whole games only."""

from __future__ import annotations

import csv
import io
import sqlite3
from collections.abc import Sequence
from contextlib import closing

from bot.service.history.export import BOM, COLUMNS, encode_games, export_csv, iso_utc, standing
from data import EVERYTHING, MatchProgress, SeatRecord, Sight, Store
from data.export import ExportGame, ExportSeat, SeatRating
from data.records import FORMER_PLAYER
from game import PLAY, Card, Match, Ruleset, explicit_deal
from game.rules import LlamaCost
from testkit.service_game import ManualClock

ANN, BEN = 101, 102
GUILD = 7


async def finished_game(
    store: Store,
    clock: ManualClock,
    seats: Sequence[SeatRecord],
    loser_hand: Sequence[Card],
    *,
    channel_id: int = 500,
    guild_id: int = GUILD,
) -> int:
    """Seat 0 empties its hand at once; seat 1 keeps ``loser_hand`` (10 or more points
    end the game at threshold 10)."""
    clock.advance(60)
    match = Match(Ruleset(threshold=10), len(seats))
    game_id = await store.games.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=ANN,
        ruleset=match.ruleset,
        turn_timer=0,
        seats=seats,
    )
    match.start_round(explicit_deal([[Card.ONE], list(loser_hand)], Card.ONE, [Card.TWO]))
    await store.games.start_game(game_id, seats=seats, events=match.events)
    match.apply(0, PLAY[Card.ONE])
    assert match.over
    await store.games.append_progress(game_id, MatchProgress.since(match, 1, 0))
    return game_id


def people() -> list[SeatRecord]:
    return [SeatRecord(0, ANN, None, "Ann"), SeatRecord(1, BEN, None, "Ben")]


def table(data: bytes) -> list[list[str]]:
    assert data.startswith(BOM), "a byte order mark, for the spreadsheets"
    return list(csv.reader(io.StringIO(data[len(BOM) :].decode("utf-8"), newline="")))


async def test_one_row_a_seat_newest_game_first(store: Store, clock: ManualClock) -> None:
    first = await finished_game(store, clock, people(), [Card.SIX, Card.FIVE])  # Ben 11
    bot = [SeatRecord(0, ANN, None, "Ann"), SeatRecord(1, None, "hard", "Hard Bot")]
    second = await finished_game(store, clock, bot, [Card.LLAMA, Card.FOUR, Card.THREE])  # 17
    export = await export_csv(store.export, GUILD, sight=EVERYTHING)
    assert (export.games, export.total, export.complete) == (2, 2, True)
    rows = table(export.data)
    assert rows[0] == list(COLUMNS)
    record = await store.games.load_game(second)
    assert record is not None and record.finished_at is not None
    assert rows[1:] == [
        # game, finished, channel, seat, id, name, ai, points, white, black, pink, rank,
        # ratings, rules
        [str(second), iso_utc(record.finished_at), "500", "0", str(ANN), "Ann", "", "0"]
        + ["0", "0", "0", "1", "", "", "threshold=10"],
        [str(second), iso_utc(record.finished_at), "500", "1", "", "Hard Bot", "hard", "17"]
        + ["7", "1", "0", "2", "", "", "threshold=10"],
        [str(first), rows[3][1], "500", "0", str(ANN), "Ann", "", "0", "0", "0", "0", "1"]
        + ["", "", "threshold=10"],
        [str(first), rows[3][1], "500", "1", str(BEN), "Ben", "", "11", "1", "1", "0", "2"]
        + ["", "", "threshold=10"],
    ]
    assert iso_utc(1_000_000.0) == "1970-01-12T13:46:40Z"
    assert export.data.count(b"\r\n") == 5, "CRLF line ends"


async def test_the_ratings_are_the_games_seasons(store: Store, clock: ManualClock) -> None:
    game = await finished_game(store, clock, people(), [Card.SIX, Card.FIVE])
    with closing(sqlite3.connect(store.path, isolation_level=None)) as raw:
        raw.execute(
            "INSERT INTO rated_games (game_id, guild_id, finished_at, season) VALUES (?, ?, 1, 5)",
            (game, GUILD),
        )
        for seat, (before, after) in enumerate(((25.0, 27.0), (25.0, 23.0))):
            for season, shift in ((5, 0.0), (-1, 3.0)):  # the season's, and all time's
                raw.execute(
                    """INSERT INTO rating_changes
                       SELECT ?, ?, ?, ?, ?, channel_id, ?, ?, ?, ?, ? FROM games WHERE id = ?""",
                    (game, seat, season, GUILD, f"user:{seat}", seat + 1)
                    + (before + shift, 25 / 3, after + shift, 7.0, game),
                )
    rows = table((await export_csv(store.export, GUILD, sight=EVERYTHING)).data)
    # (mu - 3 sigma) x 40 + 1000: 25 - 25 = 0 -> 1000; 27 - 21 = 6 -> 1240; 23 - 21 = 2 -> 1080.
    assert [row[11:14] for row in rows[1:]] == [["1", "1000", "1240"], ["2", "1000", "1080"]]


async def test_a_file_too_big_holds_the_most_recent_whole_games(
    store: Store, clock: ManualClock
) -> None:
    games = [await finished_game(store, clock, people(), [Card.SIX, Card.FIVE]) for _ in range(7)]
    whole = await export_csv(store.export, GUILD, sight=EVERYTHING)
    rows = table(whole.data)
    assert len(rows) == 1 + 2 * 7
    head = len(BOM) + len(",".join(COLUMNS)) + 2
    per_game = (len(whole.data) - head) // 7
    cap = len(whole.data) - 4 * per_game  # room for three games, and half a fourth
    cap += per_game // 2
    cut = await export_csv(store.export, GUILD, cap=cap, page=2, sight=EVERYTHING)
    assert len(cut.data) <= cap
    assert (cut.games, cut.total, cut.complete) == (3, 7, False)
    kept = table(cut.data)
    assert [int(row[0]) for row in kept[1::2]] == games[::-1][:3], "the newest, whole"
    # Pages of any size give the same file.
    for page in (1, 3, 500):
        assert (
            await export_csv(store.export, GUILD, page=page, sight=EVERYTHING)
        ).data == whole.data
    # Not even one game fits: just the header.
    tiny = await export_csv(store.export, GUILD, cap=head + per_game // 2, sight=EVERYTHING)
    assert (tiny.games, tiny.total) == (0, 7) and table(tiny.data) == [list(COLUMNS)]


async def test_only_the_server_and_the_games_in_sight(store: Store, clock: ManualClock) -> None:
    await finished_game(store, clock, people(), [Card.SIX, Card.FIVE], channel_id=501)
    seen = await finished_game(store, clock, people(), [Card.SIX, Card.FIVE], channel_id=502)
    await finished_game(store, clock, people(), [Card.SIX, Card.FIVE], guild_id=GUILD + 1)
    export = await export_csv(store.export, GUILD, sight=Sight(viewer=999, hidden=frozenset({501})))
    assert (export.games, export.total) == (1, 1)
    assert {row[0] for row in table(export.data)[1:]} == {str(seen)}
    nothing = await export_csv(store.export, GUILD + 2, sight=EVERYTHING)
    assert (nothing.games, nothing.total) == (0, 0)


def test_pink_chips_formulas_and_names_in_every_language() -> None:
    game = ExportGame(
        game_id=1,
        finished_at=0.0,
        channel_id=2,
        ruleset=Ruleset(party=True),
        seats=(
            ExportSeat(0, 5, None, '=HYPERLINK("x")', 47, False, 2, None),
            ExportSeat(1, 6, None, 'Łukasz, "Ł" Żółć', 3, True, 1, None),
            ExportSeat(2, 7, None, "-5", 3, False, 1, None),
        ),
    )
    [data] = encode_games([game])
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    # 47 points in the Party variant: 2 pink, 0 black, 7 white.
    assert rows[0][5] == '\'=HYPERLINK("x")' and rows[0][7:12] == ["47", "7", "0", "2", "3"]
    assert rows[1][5] == 'Łukasz, "Ł" Żółć' and rows[1][11] == "1"
    # Not a winner though its points are the winner's: after the winners.
    assert rows[2][5] == "'-5" and rows[2][11] == "2"


async def test_a_name_a_spreadsheet_would_run_is_never_a_formula_in_the_file(
    store: Store, clock: ManualClock
) -> None:
    """Full-width signs (an IME types them; spreadsheets read them as the ASCII ones) and
    blanks before a sign still start a formula: each such name gets its apostrophe."""
    hostile = [
        '＝HYPERLINK("x")',
        "＋1",
        "－1",
        "＠SUM(A1)",
        " =1+1",
        "\t=1+1",
        "\r=1",
        "  +1",
        "\u3000-1",
        " @x",
        "﹦1",
    ]
    for name in hostile:
        seats = [SeatRecord(0, ANN, None, name), SeatRecord(1, BEN, None, "Ben")]
        await finished_game(store, clock, seats, [Card.SIX, Card.FIVE])
    rows = table((await export_csv(store.export, GUILD, sight=EVERYTHING)).data)
    names = [row[5] for row in rows[1:] if row[3] == "0"][::-1]  # oldest first, as stored
    assert names == ["'" + name for name in hostile]
    # A name with a sign further on, or an apostrophe's own, is as typed.
    plain = [SeatRecord(0, ANN, None, "Ann = Bea"), SeatRecord(1, BEN, None, "a-b")]
    await finished_game(store, clock, plain, [Card.SIX, Card.FIVE])
    rows = table((await export_csv(store.export, GUILD, sight=EVERYTHING)).data)
    assert [row[5] for row in rows[1:3]] == ["Ann = Bea", "a-b"]


def test_the_ratings_order_only_when_every_seat_is_rated() -> None:
    def seat(n: int, points: int, winner: bool, rank: int | None) -> ExportSeat:
        rating = None if rank is None else SeatRating(rank, 25.0, 8.0, 25.0, 8.0)
        return ExportSeat(n, 10 + n, None, f"P{n}", points, winner, 1, rating)

    def game(*seats: ExportSeat) -> ExportGame:
        return ExportGame(1, 0.0, 2, Ruleset(), seats)

    # Seat 1 left (rated last) though it ended with fewer points than seat 2.
    rated = game(seat(0, 3, True, 1), seat(1, 5, False, 3), seat(2, 9, False, 2))
    assert standing(rated) == {0: 1, 1: 3, 2: 2}
    # One seat without a rating (a forgotten person): the game's own order for all.
    partly = game(seat(0, 3, True, 1), seat(1, 5, False, None), seat(2, 9, False, 2))
    assert standing(partly) == {0: 1, 1: 2, 2: 3}


async def test_a_forgotten_persons_seat_is_the_former_player_not_an_ai(
    store: Store, clock: ManualClock
) -> None:
    """Forgetting a person keeps their seat (as an AI's, for the game to replay) under the
    former player's name: the export shows no AI strength there."""
    game = await finished_game(store, clock, people(), [Card.SIX, Card.FIVE])
    await store.forget.forget_user(BEN)
    rows = table((await export_csv(store.export, GUILD, sight=EVERYTHING)).data)
    assert [row[4:7] for row in rows[1:]] == [[str(ANN), "Ann", ""], ["", FORMER_PLAYER, ""]]
    assert rows[1][0] == str(game)


async def test_a_person_an_ai_played_on_for_is_a_person_in_the_file(
    store: Store, clock: ManualClock
) -> None:
    """A person who left, was kicked or timed out keeps their seat, id and name, with the
    Normal AI that played on for them stored beside (``seats.ai``): the file shows them as
    the person they are, the ai column empty; only an AI's own seat fills it."""
    took_over = [SeatRecord(0, ANN, None, "Ann"), SeatRecord(1, BEN, "normal", "Ben")]
    await finished_game(store, clock, took_over, [Card.SIX, Card.FIVE])
    bot = [SeatRecord(0, ANN, None, "Ann"), SeatRecord(1, None, "easy", "Easy Bot")]
    await finished_game(store, clock, bot, [Card.SIX, Card.FIVE])
    rows = table((await export_csv(store.export, GUILD, sight=EVERYTHING)).data)
    assert [row[4:7] for row in rows[1:]] == [
        [str(ANN), "Ann", ""],
        ["", "Easy Bot", "easy"],
        [str(ANN), "Ann", ""],
        [str(BEN), "Ben", ""],
    ]


def test_each_game_says_its_rules_for_scripts() -> None:
    """The rules column: the editions by key, then each house rule as dimension=value,
    then the threshold; the same whoever asks, as the header is."""
    rules = {
        1: Ruleset.compose("party", hand_size=7, llama_cost=LlamaCost.EACH, threshold=30),
        2: Ruleset(),
        3: Ruleset(no_drama=True, komarami=True),
        4: Ruleset(last_player_draws=True, plus_cards=True),
    }
    games = [
        ExportGame(game_id, 0.0, 2, ruleset, (ExportSeat(0, 5, None, "Ann", 3, True, 1, None),))
        for game_id, ruleset in rules.items()
    ]
    rows = [
        next(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
        for data in encode_games(games)
    ]
    assert COLUMNS[-1] == "rules"
    assert [row[-1] for row in rows] == [
        "party llama_cost=each hand_size=7 threshold=30",
        "threshold=40",
        "no_drama komarami threshold=40",
        "plus_cards=true last_player_draws=true threshold=40",
    ]

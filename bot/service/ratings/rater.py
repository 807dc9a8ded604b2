"""The rater: every rated game rated once, in the order the games ended (openskill).

One match per game in openskill's Plackett-Luce model (its default parameters), each
seat a team of one, in two scopes: the game's season and all time (a game with house
rules, in a server that rates those on a board of their own: that board alone,
:data:`HOUSE_RULES`), in the order
:mod:`.rating_order` ranks its seats (a finished game; one every person left, or one
nobody moved in for long, as the loss of those who went).  An AI strength is one rated
player per server: several seats of one strength in a game each play with its rating,
and it keeps the mean of their new ones.  A forgotten person's seat plays as a newcomer
whose rating is not kept (:data:`FORMER`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.service.play.table import Status, Table, persons_turn
from bot.service.ratings.rating_order import Standing, going_note, moved, someone_ahead, standings
from bot.service.ratings.rating_scale import MU, SIGMA, shown, shown_change
from bot.service.ratings.seasons import season_at
from data import Store, StoreError
from data.rating_writes import Cursor
from data.records import (
    ALL_TIME,
    CANCELLER,
    HOUSE_RULES,
    STALLED,
    AlreadyRated,
    FinishedGame,
    GameRating,
    PlayerRating,
    SeasonPlan,
    SeatNote,
    SeatRating,
    Skill,
)
from data.settings import OWN, SERVER

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
#: Games read from the store at once while catching up.
BATCH = 200


def board_for(game: FinishedGame, setting: str | None) -> str | None:
    """The board ``game`` counts on: the one it was rated on before, if it was; else, for
    a game with house rules, the server's ``setting`` (None: :data:`OWN`); None for a
    game without (the server's board, always)."""
    if game.board is not None:
        return game.board
    if not game.record.ruleset.house_rules:
        return None
    return SERVER if setting == SERVER else OWN


def scopes(season: int) -> tuple[int, ...]:
    """The scopes a game of ``season`` is rated in: the season and all time, or the
    house-rules board alone."""
    return (HOUSE_RULES,) if season == HOUSE_RULES else (season, ALL_TIME)


def rate_game(
    game: FinishedGame,
    season: int,
    skills: Mapping[tuple[int, str], Skill],
    seats: Sequence[Standing] | None = None,
    board: str | None = None,
) -> GameRating:
    """What rating ``game`` in ``season`` (and all time; or :data:`HOUSE_RULES` alone)
    does, from the players' ratings before it (``skills``, by (scope, player); one
    missing is a newcomer); ``seats`` its :func:`standings`, if the caller has them
    already; ``board`` the board it counts on, kept (:func:`board_for`).  Pure."""
    record = game.record
    rating = GameRating(record.id, record.guild_id, finished_at(game), season, board=board)
    if seats is None:
        seats = standings(game)
    if len(seats) < 2:
        return rating  # nobody to be ranked against: the game counts for nobody
    ranks: list[float] = [s.rank for s in seats]
    changes: list[SeatRating] = []
    players: list[PlayerRating] = []
    for scope in scopes(season):
        before = [skills.get((scope, s.player)) if s.kept else None for s in seats]
        teams = [
            [
                MODEL.rating(mu=MU, sigma=SIGMA)
                if b is None
                else MODEL.rating(mu=b.mu, sigma=b.sigma)
            ]
            for b in before
        ]
        after = MODEL.rate(teams, ranks=ranks)
        seen: dict[str, list[int]] = {}
        for i, s in enumerate(seats):
            # A person kicked while present is ranked, for the others, but keeps the
            # rating they came with: the kick decides nothing of theirs.
            old, new = teams[i][0], after[i][0] if s.counts else teams[i][0]
            changes.append(
                SeatRating(s.seat, scope, s.player, s.rank, old.mu, old.sigma, new.mu, new.sigma)
            )
            if s.kept and s.counts:
                seen.setdefault(s.player, []).append(i)
        for player, at in seen.items():
            first = seats[at[0]]
            known = before[at[0]]
            players.append(
                PlayerRating(
                    season=scope,
                    player=player,
                    user_id=first.user_id,
                    ai=first.ai,
                    name=first.name,
                    mu=sum(after[i][0].mu for i in at) / len(at),
                    sigma=sum(after[i][0].sigma for i in at) / len(at),
                    games=(0 if known is None else known.games) + 1,
                )
            )
    return GameRating(
        record.id,
        record.guild_id,
        rating.finished_at,
        season,
        tuple(changes),
        tuple(players),
        board=board,
    )


def shown_changes(rating: GameRating) -> dict[int, int]:
    """Each person's seat's change in the game's season, on the shown scale ("+18")."""
    return {
        c.seat: shown_change(c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
        for c in rating.changes
        if c.season == rating.season and c.player.startswith("user:")
    }


def shown_after(rating: GameRating) -> dict[int, int]:
    """Each person's seat's rating after the game in its season, as shown ("1018")."""
    return {
        c.seat: shown(c.mu_after, c.sigma_after)
        for c in rating.changes
        if c.season == rating.season and c.player.startswith("user:")
    }


@dataclass(frozen=True, slots=True)
class Rated:
    """What a pass of the rater did: games rated, servers touched, servers recomputed."""

    games: int = 0
    guilds: int = 0
    rerated: int = 0


class Rater:
    """Rates a server's finished games one at a time, in the order they finished.

    A server's games are rated under its own lock, so two games finishing together are
    rated in order.  The ratings the games before left are read once per pass and then
    kept in step with what the pass writes, so a long pass reads no rating twice.
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._locks: dict[int, asyncio.Lock] = {}
        self._catching_up: asyncio.Task[Rated] | None = None
        # The servers with games to rate at start (the catch-up's list), and those caught
        # up since: a game ending in another is rated after its server's earlier games.
        self._listing: asyncio.Task[list[int]] | None = None
        self._caught_up: set[int] = set()

    def catch_up_later(self) -> None:
        """:meth:`rate_all` in the background, once: at start-up, after the games are
        resumed, so that a backlog (every stored game, the first start after the
        upgrade: minutes for 100,000) doesn't keep the bot away.  A game finishing
        meanwhile in a server not caught up yet is rated by that server's catch-up
        (:meth:`_behind`), after the games before it, so the order holds."""
        if self._catching_up is None:
            listing = self._store.rating_writes.unrated_guilds()
            self._listing = asyncio.create_task(listing, name="lama-rate-list")
            self._catching_up = asyncio.create_task(self._rate_all_logged(), name="lama-rate")

    async def caught_up(self) -> Rated:
        """What the background catch-up rated, once it is over (nothing if none ran)."""
        if self._catching_up is None:
            return Rated()
        return await asyncio.shield(self._catching_up)

    async def close(self) -> None:
        """Stop the background catch-up where it is: each batch of games is written all
        or nothing, and the next start goes on from the last one written."""
        task, self._catching_up = self._catching_up, None
        for running in (task, self._listing):
            if running is not None and not running.done():
                running.cancel()
                await asyncio.wait([running])  # the catch-up logged what it raised

    async def _rate_all_logged(self) -> Rated:
        try:
            return await self.rate_all(self._listing)
        except Exception:  # rate_all logs a server's trouble; this is anything else
            log.exception("rating the finished games not yet rated failed")
            return Rated()

    def lock(self, guild_id: int) -> asyncio.Lock:
        """The server's lock its games are rated under: what changes which season a game
        counts for (a new season plan) is saved under it too, so a pass never rates with
        the plans from before a new one."""
        return self._locks.setdefault(guild_id, asyncio.Lock())

    async def rate_table(self, table: Table) -> None:
        """Rate a table's game that just finished (with any of its server's games still
        unrated), and set its ``rating_changes``; a failure is logged and goes no further:
        the table shows without changes, and the next start rates the game."""
        guild_id = table.guild_id
        try:
            rated = {} if await self._behind(guild_id) else await self.rate_new(guild_id)
        except Exception:  # never keep the finished table from being shown
            log.exception("game %s: rating it failed", table.game_id)
            return
        rating = rated.get(table.game_id)
        if rating is not None:
            table.rating_changes = shown_changes(rating)
            table.ratings_after = shown_after(rating)
            return
        # Rated already by the pass of a game that finished beside it, or left behind
        # one: on PostgreSQL two finishes of a server save through different
        # connections, so a game that finished first may be committed after a later one
        # was rated; or in a server not caught up since the start (_behind).  Then the
        # server is rated again in order (_catch_up).
        try:
            await self._catch_up(table.guild_id)
            changes = await self._store.ratings.rating_changes(table.game_id)
        except StoreError as error:
            log.warning("game %s: could not rate it or read its changes: %s", table.game_id, error)
            return
        people = [c for c in changes if c.season != ALL_TIME and c.user_id is not None]
        mine = [c for c in people if c.ai is None]
        table.rating_changes = {
            c.seat: shown_change(c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
            for c in mine
        }
        table.ratings_after = {c.seat: shown(c.mu_after, c.sigma_after) for c in mine}

    async def _behind(self, guild_id: int) -> bool:
        """Whether the server had games to rate at start not caught up yet (one may lie
        before its latest rated game: the upgrade of 0019 leaves such ones); waits for
        the catch-up's list.  False without one (or if the store failed to read it)."""
        listing = self._listing
        if listing is None or guild_id in self._caught_up:
            return False
        await asyncio.wait([listing])
        if listing.cancelled() or listing.exception() is not None:
            return False
        return guild_id in listing.result()

    async def rates_abandoned(self, table: Table) -> bool:
        """Whether ``table``'s game, closed as no person plays at it any more, is rated
        (:func:`~.rating_order.someone_ahead`).  Raises :class:`StoreError` if the
        stored game can't be read."""
        record = await self._store.games.load_game(table.game_id)
        return record is not None and someone_ahead(record)

    async def stall_note(self, table: Table) -> SeatNote | None:
        """The note to end ``table``'s game with as idle (see :func:`going_note`): None
        unless a person is to move (an AI always moves; a stand-in too).  Raises
        :class:`StoreError` if the stored game can't be read."""
        seat = persons_turn(table, table.stamp)
        if seat is None:
            return None
        record = await self._store.games.load_game(table.game_id)
        return going_note(record, seat, STALLED) if record is not None else None

    async def cancel_rating(self, table: Table, user_id: int) -> tuple[bool, SeatNote | None]:
        """How ``user_id``'s cancel of ``table``'s running game is rated: (rated as it
        stood, the note of their leaving).  A cancel can't erase what others earned: once
        a person other than the canceller made a move of their own, the game is rated as
        it stood (nobody won, the others by their points then); a canceller still playing
        it is noted as leaving it (:func:`going_note`: ranked last).  So is the only person
        still playing, against AIs, once they made a move of their own, lest they dodge
        the loss leaving would be.  Before that (a game started with the wrong rules,
        cancelled at once) it is nobody's: (False, None).  Raises :class:`StoreError` if
        the stored game can't be read."""
        if table.status is not Status.RUNNING:
            return False, None
        record = await self._store.games.load_game(table.game_id)
        if record is None:
            return False, None
        seat = table.seat_of(user_id)
        playing = [i for i, s in enumerate(table.seats) if s.human and s.controller is None]
        others = any(moved(record, i) for i, s in enumerate(table.seats) if s.human and i != seat)
        alone = seat is not None and playing == [seat] and moved(record, seat)
        if not (others or alone):
            return False, None
        if seat is not None and seat in playing:
            return False, going_note(record, seat, CANCELLER)
        return someone_ahead(record), None

    async def rate_new(self, guild_id: int) -> dict[int, GameRating]:
        """Rate the server's games finished after its latest rated one, in order; what was
        rated, by game.  A store error stops the pass (logged): the rest wait for the next."""
        async with self.lock(guild_id):
            after = await self._store.rating_writes.newest_rated(guild_id)
            return await self._rate_from(guild_id, after)

    async def rate_all(self, listing: Awaitable[list[int]] | None = None) -> Rated:
        """Rate every finished game not yet rated (at start-up: also the upgrade path).
        A server with an unrated game that finished before its latest rated one (the bot
        stopped between saving a game and rating it) is recomputed whole, so the order
        holds.  A failure is logged: those games wait for the next start (or finish).
        ``listing``: the servers to catch up, read already (by default read here)."""
        games = rerated = 0
        try:
            guilds = await (listing or self._store.rating_writes.unrated_guilds())
        except StoreError as error:
            log.warning("could not look for finished games to rate: %s", error)
            return Rated()
        for guild_id in guilds:
            try:
                count, again = await self._catch_up(guild_id)
            except Exception:  # one server's trouble must not keep the others unrated
                log.exception("guild %s: rating its finished games failed", guild_id)
                continue
            games += count
            rerated += again
        if games:
            log.info("Rated %d finished game(s) in %d server(s)", games, len(guilds))
        return Rated(games=games, guilds=len(guilds), rerated=rerated)

    async def _catch_up(self, guild_id: int) -> tuple[int, bool]:
        async with self.lock(guild_id):
            newest = await self._store.rating_writes.newest_rated(guild_id)
            first, _ = await self._store.rating_writes.unrated_games(guild_id, limit=1)
            again = newest is not None and bool(first) and _cursor(first[0]) < newest
            if again:
                log.warning("guild %s: a game was left unrated; rating them all again", guild_id)
                await self._store.rating_writes.wipe_ratings(guild_id)
                newest = None
            rated = await self._rate_from(guild_id, newest)
            self._caught_up.add(guild_id)
            return len(rated), again

    async def rerate(self, guild_id: int) -> int:
        """Wipe the server's ratings and rate all its finished games again, in order; how
        many were rated.  Raises :class:`StoreError` if any could not be."""
        async with self.lock(guild_id):
            await self._store.rating_writes.wipe_ratings(guild_id)
            return len(await self._rate_from(guild_id, None, strict=True))

    async def rerate_every(self, guild_ids: Sequence[int] | None = None) -> Rated:
        """:meth:`rerate` the servers (None: every server with a finished game)."""
        guilds = (
            list(guild_ids)
            if guild_ids is not None
            else await self._store.rating_writes.finished_guilds()
        )
        games = 0
        for guild_id in guilds:
            games += await self.rerate(guild_id)
        return Rated(games=games, guilds=len(guilds), rerated=len(guilds))

    async def _rate_from(
        self, guild_id: int, after: Cursor | None, *, strict: bool = False
    ) -> dict[int, GameRating]:
        """Rate the server's unrated games after ``after``, in order, a batch per write (each
        game all or nothing with it); what was rated, by game."""
        rated: dict[int, GameRating] = {}
        # The ratings as this pass left them (None: not rated yet): ahead of the store
        # within a batch, never behind it.
        known: dict[tuple[int, str], Skill | None] = {}
        try:
            plans = await self._store.ratings.season_plans(guild_id)
            # Read under the lock, as the plans: a change waits for the pass to end.
            setting = (await self._store.settings.guild_settings(guild_id)).house_rules_board
            cursor: Cursor | None = after
            while True:
                batch, cursor = await self._store.rating_writes.unrated_games(
                    guild_id, after=cursor, limit=BATCH
                )
                ratings = []
                for game in batch:
                    ratings.append(await self._rate_one(game, plans, setting, known))
                    await asyncio.sleep(0)  # a long pass lets the tables move between games
                try:
                    await self._store.rating_writes.save_ratings(ratings)
                except AlreadyRated as error:  # another pass got there first: each counts once
                    log.warning("guild %s: %s; going on from there", guild_id, error)
                    known.clear()
                    cursor = after  # the games still unrated from where this pass began
                    continue
                rated.update((rating.game_id, rating) for rating in ratings)
                if cursor is None:
                    return rated
        except StoreError as error:
            if strict:
                raise
            log.warning("guild %s: could not rate its finished games: %s", guild_id, error)
            return rated

    async def _rate_one(
        self,
        game: FinishedGame,
        plans: Sequence[SeasonPlan],
        setting: str | None,
        known: dict[tuple[int, str], Skill | None],
    ) -> GameRating:
        """The game's rating from the ratings before it (``known``, else the store's), on
        its board (``setting``: the server's choice for games with house rules), and
        ``known`` brought up to after it; nothing is written."""
        record = game.record
        board = board_for(game, setting)
        season = HOUSE_RULES if board == OWN else season_at(plans, finished_at(game)).key
        seats = standings(game)
        wanted = {s.player for s in seats if s.kept}
        keys = [(scope, player) for scope in scopes(season) for player in wanted]
        missing = [key for key in keys if key not in known]
        if missing:
            players = sorted({player for _, player in missing})
            found = await self._store.rating_writes.skills(record.guild_id, scopes(season), players)
            for key in missing:
                known[key] = found.get(key)
        skills = {key: skill for key in keys if (skill := known[key]) is not None}
        rating = rate_game(game, season, skills, seats, board)
        for done in rating.players:
            known[(done.season, done.player)] = Skill(done.mu, done.sigma, done.games)
        return rating


def finished_at(game: FinishedGame) -> float:
    """When the game finished (its last write, for a game stored without the time)."""
    record = game.record
    return record.finished_at if record.finished_at is not None else record.updated_at


def _cursor(game: FinishedGame) -> Cursor:
    return (finished_at(game), game.record.id)

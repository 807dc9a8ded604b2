"""A bot process killed with SIGKILL between two moves, then started again on its database."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import simcord

from bot.config import Settings
from bot.service.play.table import Status
from testkit.simcord_play import service

from .bot_process import Discord, digest, payload, populate, settings_for
from .common import assert_saved, count, event_seqs, killed_at, quit_until_over, rows, running

MOVES = 5


@dataclass(frozen=True)
class KilledRun:
    path: Path
    game_id: int
    channel_id: int
    alice_id: int
    bob_id: int
    events: int  # events the killed process had saved and shown
    digest: str


def kill_between_moves(path: Path, moves: int) -> KilledRun:
    """Run the bot process for ``moves`` clicks, then SIGKILL it while it waits for the next."""
    log = path.with_name("bot_process.log")
    # At READY it is blocked between two moves.
    lines = killed_at("tests.process.bot_process", [str(path), str(moves)], log, "READY")
    errors = log.read_text()
    [ids] = [words for words in lines if words[0] == "IDS"]
    moved = [words for words in lines if words[0] == "MOVED"]
    assert len(moved) == moves, f"only {len(moved)} moves made:\n{errors}"
    game_id, channel_id, alice_id, bob_id = map(int, ids[1:])
    return KilledRun(path, game_id, channel_id, alice_id, bob_id, int(moved[-1][2]), moved[-1][3])


@pytest.fixture
def killed(tmp_path: Path) -> KilledRun:
    return kill_between_moves(tmp_path / "lama.db", MOVES)


@pytest.fixture
def settings(killed: KilledRun) -> Settings:
    """The bot under test starts on the killed process's database."""
    return settings_for(killed.path)


@pytest.fixture
def there() -> list[Discord]:
    return []


@pytest.fixture
def before_start(there: list[Discord]) -> Callable[[simcord.Env], object]:
    """The killed process's channel and players, there before the bot as on Discord
    (a resumed game whose channel is gone ends)."""
    return lambda env: there.append(populate(env))


@pytest.fixture
def channel(simcord_env: simcord.Env, there: list[Discord]) -> simcord.ChannelHandle:
    return there[0].channel


@pytest.fixture
def alice(simcord_env: simcord.Env, there: list[Discord]) -> simcord.MemberActor:
    return there[0].alice


@pytest.fixture
def bob(simcord_env: simcord.Env, there: list[Discord]) -> simcord.MemberActor:
    return there[0].bob


async def test_a_killed_bot_resumes_every_saved_move_once_and_plays_on(
    killed: KilledRun,
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    # A fresh SimCord hands out the same ids as the killed process did.
    assert (channel.id, alice.id, bob.id) == (killed.channel_id, killed.alice_id, killed.bob_id)
    path = killed.path
    # On disk: exactly the moves the killed process had shown, each once, in order.
    assert event_seqs(path, killed.game_id) == list(range(killed.events))
    payloads = rows(
        path, "SELECT payload FROM events WHERE game_id = ? ORDER BY seq", (killed.game_id,)
    )
    assert digest([p for (p,) in payloads]) == killed.digest

    # In the new bot: the same game, rebuilt from those events alone.
    table = running(simcord_env, killed.game_id)
    assert table.channel_id == channel.id and table.match is not None
    assert digest([payload(e) for e in table.match.events]) == killed.digest
    await assert_saved(service(simcord_env).store, table)

    players = {alice.id: alice, bob.id: bob}
    # The old table message is gone with the old simulated Discord: play from /lama hand.
    await quit_until_over(simcord_env, channel, players, table, slash=True)
    assert table.status is Status.FINISHED and table.match is not None
    assert rows(path, "SELECT status FROM games WHERE id = ?", (killed.game_id,)) == [("finished",)]
    assert count(path, "round_results", killed.game_id) == 3 * len(table.match.results)
    await assert_saved(service(simcord_env).store, table)

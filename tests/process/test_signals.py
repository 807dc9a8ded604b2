"""SIGTERM and SIGINT stop the bot cleanly: saved, closed, exit 0; also as PID 1."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .common import rows

ROOT = Path(__file__).resolve().parents[2]
# Generous for a loaded machine; a bot that ignores the signal never exits at all.
EXIT_WITHIN = 30.0


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _serve_and_stop(
    path: Path, signum: signal.Signals, *, pid1: bool = False
) -> tuple[int, list[list[str]], float]:
    command = [sys.executable, "-m", "tests.process.serve_process", str(path)]
    if pid1:
        command = ["unshare", "--pid", "--fork", "--mount-proc", *command]
    log = path.with_name("serve_process.log")
    with log.open("w") as stderr:
        child = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True
        )
        assert child.stdout is not None
        lines: list[list[str]] = []
        try:
            for line in child.stdout:
                lines.append(line.split())
                if line.startswith("READY"):
                    break
            assert lines and lines[-1] == ["READY"], log.read_text()
            target = child.pid
            if pid1:
                # unshare waits for its child, the bot, which is PID 1 in its namespace.
                [target] = _children(child.pid)
            sent = time.monotonic()
            os.kill(target, signum)
            rest, _ = child.communicate(timeout=EXIT_WITHIN)
            took = time.monotonic() - sent
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate(timeout=30)
    lines += [line.split() for line in rest.splitlines()]
    assert "Traceback" not in log.read_text(), log.read_text()
    return child.returncode, lines, took


def _check_saved_and_closed(path: Path, lines: list[list[str]]) -> None:
    [game] = [words for words in lines if words[0] == "GAME"]
    game_id, stamp = int(game[1]), int(game[2])
    [(saved,)] = rows(path, "SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,))
    assert saved == stamp, "every move shown was saved"
    # The store was closed: SQLite folds the write-ahead log back in and removes it.
    assert not path.with_name(path.name + "-wal").exists(), "the database was not closed"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_closes_the_bot_and_exits_0(tmp_path: Path, signum: signal.Signals) -> None:
    path = tmp_path / "lama.db"
    code, lines, took = _serve_and_stop(path, signum)
    assert code == 0
    assert ["STOPPED", signum.name, "True"] in lines
    _check_saved_and_closed(path, lines)
    print(f"{signum.name}: exited {took:.2f} s after the signal")


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="a PID namespace needs root and unshare",
)
def test_as_pid_1_sigterm_still_stops_the_bot(tmp_path: Path) -> None:
    path = tmp_path / "lama.db"
    code, lines, took = _serve_and_stop(path, signal.SIGTERM, pid1=True)
    assert ["PID", "1"] in lines, "the bot did not run as PID 1"
    assert code == 0
    assert ["STOPPED", "SIGTERM", "True"] in lines
    _check_saved_and_closed(path, lines)
    print(f"PID 1: exited {took:.2f} s after SIGTERM")

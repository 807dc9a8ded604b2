"""``python -m bot demo`` as a process: its address, Ctrl-C, a throw-away database."""

from __future__ import annotations

import re
import signal
import stat
from pathlib import Path

import pytest

from testkit.browser import MISSING, demo_process
from tests.process.cli import run_bot

needs_preview = pytest.mark.skipif(
    MISSING is not None and "pip install" in MISSING, reason=MISSING or ""
)


@needs_preview
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_the_demo_and_its_database_is_thrown_away(
    tmp_path: Path, signum: signal.Signals
) -> None:
    with demo_process(tmpdir=tmp_path) as (child, url):
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/#[\w-]{20,}", url)
        [folder] = tmp_path.glob("lama-demo-*")
        assert (folder / "demo.db").exists()
        child.send_signal(signum)
        out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert "Demo stopped." in out
    assert "Traceback" not in err
    assert not folder.exists(), "the throw-away database was left behind"


@needs_preview
def test_the_demo_keeps_its_games_in_a_given_database(tmp_path: Path) -> None:
    database = tmp_path / "demo.db"
    with demo_process("--database", str(database)) as (child, _url):
        assert database.exists(), "the lobby is saved as soon as the page is up"
        child.send_signal(signal.SIGINT)
        child.communicate(timeout=60)
    assert child.returncode == 0
    assert database.exists()


def test_a_demo_database_in_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "demo", "--no-browser", "--database", "nowhere/demo.db")
    assert result.returncode == 2
    assert "does not exist" in result.stderr and result.stderr.count("\n") == 1


@needs_preview
def test_the_page_is_opened_without_its_secret_address_on_a_command_line(tmp_path: Path) -> None:
    # Any local user can read a process's arguments in /proc: the browser is handed a
    # file of the demo user's alone that leads to the page, as Jupyter does.
    browser = tmp_path / "browser"
    browser.write_text('#!/bin/sh\necho "browser: $*"\n', encoding="utf-8")
    browser.chmod(0o700)
    with demo_process(tmpdir=tmp_path, browser=str(browser)) as (child, url):
        assert child.stdout is not None
        opened = next(line for line in child.stdout if line.startswith("browser: "))
        secret = url.split("#", 1)[1]
        argument = opened.removeprefix("browser: ").strip()
        assert secret not in argument, "the page's secret is on the browser's command line"
        page = Path(argument.removeprefix("file://"))
        assert stat.S_IMODE(page.stat().st_mode) == 0o600
        assert url in page.read_text(encoding="utf-8"), "the file leads to the page"
        child.send_signal(signal.SIGINT)
        child.communicate(timeout=60)
    assert child.returncode == 0
    assert not page.exists(), "the file is thrown away with the demo"

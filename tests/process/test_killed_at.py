"""The harness that kills a bot process at a given moment fails, instead of hanging,
when that moment never comes."""

from __future__ import annotations

from pathlib import Path

import pytest

from .common import killed_at


def test_a_child_that_says_it_was_not_killed_fails_the_test_at_once(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="never printed DELETING"):
        killed_at("tests.process.stuck_process", ["blocked"], tmp_path / "child.log", "DELETING")


def test_a_child_that_prints_nothing_fails_the_test_once_its_time_is_up(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="never printed DELETING"):
        killed_at(
            "tests.process.stuck_process",
            ["silent"],
            tmp_path / "child.log",
            "DELETING",
            timeout=3,
        )

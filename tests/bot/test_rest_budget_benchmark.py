"""The REST budget benchmark plays a whole game through SimCord and reports sane figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks import rest_budget


@pytest.mark.real_pacing
def test_the_budget_benchmark_counts_a_short_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[rest_budget.Budget] = []
    run = rest_budget.run

    def keep(*args: Any) -> rest_budget.Budget:
        played.append(run(*args))
        return played[-1]

    monkeypatch.setattr(rest_budget, "run", keep)
    out = tmp_path / "rest_budget.txt"
    assert rest_budget.main(["--games", "1", "--threshold", "1", "--out", str(out)]) == 0

    printed = capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == printed
    assert "| per human move |" in printed and "active tables" in printed
    (budget,) = played
    human, ai = budget.human, budget.ai
    assert budget.games == 1 and human.moments >= 2 and ai.moments >= 1
    # Every click on a hand is answered with the interaction's own token.
    assert human.interaction >= human.moments
    whole = budget.total()
    assert 0 <= budget.bot_per_human_move() < 10
    # A game takes minutes at a human pace; tables per token follow from its calls.
    assert 60 < budget.seconds < 3600
    if whole.bot_calls:
        per_second = whole.bot_calls / budget.seconds
        assert budget.tables_per_token() == pytest.approx(rest_budget.BUDGET / per_second)
        assert f"**{budget.tables_per_token():.0f} active tables**" in printed
    else:
        assert budget.tables_per_token() == float("inf")
        assert "**any number of active tables**" in printed
    assert f"{human.moments} human moves, {ai.moments} AI moves" in printed


def test_calls_are_split_by_the_token_they_use() -> None:
    app = 42
    classify = rest_budget.classify
    assert classify("POST", "/interactions/1/tok/callback", {}, app) == (True, "answer")
    assert classify("PATCH", f"/webhooks/{app}/tok/messages/@original", {}, app)[0]
    assert classify("PATCH", "/channels/1/messages/2", {}, app, {2}) == (False, "table edit")
    assert classify("PATCH", "/channels/1/messages/3", {}, app, {2}) == (False, "other")
    assert classify("POST", "/channels/1/messages", {"content": "<@5> it's you"}, app) == (
        False,
        "ping POST",
    )
    assert classify("DELETE", "/channels/1/messages/2", None, app) == (False, "ping DELETE")
    chart = {"embeds": [{"title": "chips"}]}
    assert classify("POST", "/channels/1/messages", chart, app) == (False, "other")
    assert classify("GET", f"/applications/{app}/emojis", None, app) == (False, "other")


@pytest.mark.real_pacing
def test_tables_in_group_dms_make_no_bot_token_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app installed to a person: two short games side by side, each in a group DM
    where the bot is no member, ride on the clicks' tokens alone."""
    played: list[dict[tuple[str, int], rest_budget.Budget]] = []
    run_tables = rest_budget.run_tables

    def keep(*args: Any) -> dict[tuple[str, int], rest_budget.Budget]:
        played.append(run_tables(*args))
        return played[-1]

    monkeypatch.setattr(rest_budget, "run_tables", keep)
    out = tmp_path / "rest_budget.txt"
    argv = ["--tables", "2", "--install", "person", "--threshold", "1", "--breaks", "0"]
    assert rest_budget.main([*argv, "--out", str(out)]) == 0

    printed = capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == printed
    (results,) = played
    [((install, tables), budget)] = results.items()
    assert (install, tables) == ("person", 2)
    assert budget.games == 2 and budget.human.moments >= 4
    assert budget.ai.moments >= 1, "the host added an AI seat with the lobby's menu"
    assert budget.total().bot_calls == 0, "the bot is no member of a group DM"
    assert budget.human.interaction >= budget.human.moments
    refusals = budget.refusals
    assert (refusals.rate_limited, refusals.followup_cap, refusals.dead_token) == (0, 0, 0)
    assert (refusals.refused, refusals.pings_left) == (0, 0)
    assert "| person | 2 |" in printed and "| any number of |" in printed

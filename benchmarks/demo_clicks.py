"""``python -m bot demo`` in Chromium: the time from each kind of click to its answer on the page.

    python -m benchmarks.demo_clicks               # one game against one Easy AI
    python -m benchmarks.demo_clicks --games 2 --ai Normal

Starts the demo as a newcomer would (``python -m bot demo``), opens its page in headless
Chromium (Playwright, ``pip install -e ".[demo,browser]"``), adds an AI player, starts
and plays the whole game as fast as the page lets a person: each move the instant the
hand turns green (the first card that fits, else Draw every other time, else Quit
round). Then the finished game's buttons: the review, Replay and its page turns, and
Rematch. A click is timed in the page, from the click to the page showing the answer
the Preview reported for it: the revision it published once the bot acknowledged the click
(its response, or its "thinking…" for the review), as Discord shows it. So it holds the
bot's work up to its answer and the page's fetch; what the bot does next (the AI seat's
moves, the review's result) shows as the demo publishes it, and the review's result is
timed apart. Lost clicks (refused or never answered) are counted.
Goal: a move's answer within 1 s; a long action shows at once that it is working.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import re
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from testkit.browser import (
    MISSING,
    REVIEWED,
    STEP_TIMEOUT_MS,
    Answer,
    browser_page,
    demo_process,
    finish_game,
    press,
)

#: The move buttons' labels, by the kind of click they are.
KINDS = (("Play", re.compile(r"^Play ")), ("Draw", re.compile(r"^Draw")))


async def shown(page: Any, label: str, text: re.Pattern[str]) -> Answer:
    """How long after the last click ``text`` showed on the page (a result that follows
    the click's own answer, as a review's does)."""
    await page.get_by_text(text).first.wait_for(timeout=STEP_TIMEOUT_MS * 5)
    ms = await page.evaluate("() => performance.now() - window.lamaClickedAt")
    return Answer(label, float(ms) / 1000, False, "acknowledged", "settled", ())


def kind(label: str) -> str:
    return next((name for name, pattern in KINDS if pattern.search(label)), label)


async def one_game(strength: str, answers: list[Answer]) -> None:
    with tempfile.TemporaryDirectory(prefix="lama-bench-") as folder:
        database = Path(folder) / "demo.db"
        with demo_process("--database", str(database)) as (_, url):
            async with browser_page(url) as page:
                answers += await finish_game(page, strength)
                review = page.get_by_role("button", name=re.compile("costliest decisions$"))
                answered = await press(page, review.last)
                # Its working state: the deferred answer's "Thinking…", shown with it.
                working = "Thinking…" in await page.locator("body").inner_text()
                label = "review: its answer" + (" (Thinking…)" if working else "")
                answers.append(dataclasses.replace(answered, label=label))
                answers.append(await shown(page, "review: its result", REVIEWED))
                replay = page.get_by_role("button", name=re.compile(r"Replay$")).last
                answers.append(await press(page, replay))
                for _ in range(3):
                    turn = page.get_by_role("button", name=re.compile(r"▶\S*\s*Next$")).last
                    answers.append(await press(page, turn))
                rematch = page.get_by_role("button", name="Rematch", exact=True).last
                answers.append(await press(page, rematch))


def report(answers: list[Answer]) -> str:
    by_kind: dict[str, list[Answer]] = defaultdict(list)
    for answer in answers:
        by_kind[kind(answer.label)].append(answer)
    lines = [f"{'click':<32} {'n':>3} {'p50 s':>7} {'max s':>7} {'lost':>5} {'unsettled':>9}"]
    for name, group in by_kind.items():
        seconds = [answer.seconds for answer in group]
        refused = sum(answer.lost for answer in group)
        # Answered before the bot settled: the page says the outcome is uncertain.
        unsettled = sum(answer.settlement != "settled" for answer in group)
        lines.append(
            f"{name:<32} {len(group):>3} {statistics.median(seconds):>7.2f}"
            f" {max(seconds):>7.2f} {refused:>5} {unsettled:>9}"
        )
    lost = [answer for answer in answers if answer.lost]
    lines.append(f"lost clicks: {len(lost)} of {len(answers)}")
    lines += [f"  {answer}" for answer in lost]
    return "\n".join(lines)


async def main(games: int, strength: str) -> None:
    answers: list[Answer] = []
    for _ in range(games):
        await one_game(strength, answers)
    print(report(answers))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--ai", default="Easy", help="the AI player's strength")
    arguments = parser.parse_args()
    if MISSING is not None:
        raise SystemExit(MISSING)
    asyncio.run(main(arguments.games, arguments.ai))

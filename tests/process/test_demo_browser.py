"""``python -m bot demo`` in a real browser: start a game on the page and play a card."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from testkit.browser import (
    MISSING,
    REVIEWED,
    STEP_TIMEOUT_MS,
    act,
    add_ai,
    browser_page,
    click,
    demo_process,
    finish_game,
    human_to_move,
    page_text,
    press,
    seen,
    view_as,
    watch,
)
from tests.process.common import rows

#: What the page shows in a message whose answer is deferred ("thinking…" on Discord).
THINKING = "Thinking…"

# Skipped on a developer's machine without them; in CI (.ci/run installs both) a failure.
needs_browser = pytest.mark.skipif(
    MISSING is not None and not os.environ.get("CI"), reason=MISSING or ""
)


@needs_browser
async def test_a_newcomer_starts_a_game_in_the_browser_and_plays_a_card(tmp_path: Path) -> None:
    database = tmp_path / "demo.db"
    with demo_process("--database", str(database)) as (child, url):
        async with browser_page(url) as page:
            text = await page_text(page)
            assert "L.A.M.A. — lobby" in text, "the page opens on a lobby"
            # The second seat: switch to Ben, join, and back to Ana, the host.
            await view_as(page, "Ben")
            await click(page, "Join")
            await view_as(page, "Ana")
            await add_ai(page, "Normal")
            # The page shows the bot's answer a moment after the action settles.
            await page.get_by_text("Players (3/6)").first.wait_for(timeout=STEP_TIMEOUT_MS)
            # The select shows its placeholder again, not the pick ("Normal") it made.
            shown = [await box.inner_text() for box in await page.get_by_role("combobox").all()]
            assert "Add an AI player…" in shown, shown
            await click(page, "Start")

            # Whoever of the two is to move plays (the AI may start: it moves by itself).
            mover = await human_to_move(page)
            await view_as(page, mover)
            await click(page, "Show my hand")
            await page.get_by_text("Your hand").first.wait_for(timeout=STEP_TIMEOUT_MS)
            # A card's button: its picture (an application emoji), then "Play N".
            hand = page.get_by_role("button", name=re.compile(r"Play "))
            if await hand.count():
                played = (await hand.first.inner_text()).split("Play ")[-1].strip()
                await act(page, hand.first.click)
                expected = f"{mover} played"
            else:  # nothing fits: drawing is the move
                played = None
                await click(page, re.compile(r"Draw$"))
                expected = f"{mover} drew"
            await page.get_by_text(expected).first.wait_for(timeout=STEP_TIMEOUT_MS)
            text = await page_text(page)
            assert expected in text
            if played is not None:
                assert re.search(rf"{expected}\W.*{re.escape(played)}", text), text
    assert child.returncode == 0, "the demo did not stop cleanly on SIGTERM"
    # The move went through the real bot into its database.
    [(status,)] = rows(database, "SELECT status FROM games")
    assert status == "running"
    [(moves,)] = rows(database, "SELECT COUNT(*) FROM events WHERE kind != 'round_dealt'")
    assert moves >= 1


@needs_browser
async def test_a_quick_player_loses_no_click_and_the_review_then_shows_it_is_thinking(
    tmp_path: Path,
) -> None:
    """A whole game, each move the instant the hand turns green, from the first card to
    the game's end.  The bot edits the table, pings and edits the hand as the turn comes;
    a click on what the page showed a moment before must still reach the bot, as on
    Discord.

    Then the review (Hard thinks for seconds) shows its "Thinking…" as soon as the bot
    acknowledges the click, as Discord does, not only once its result is in.  A Replay
    and two of its page turns clicked while it thinks are answered and page, none
    "Action was not completed", and the review's result follows on its own, with no
    click after it (the demo's clock goes on however busy the machine)."""
    with demo_process("--database", str(tmp_path / "demo.db")) as (_, url):
        async with browser_page(url) as page:
            played = await finish_game(page)
            assert "game over" in await page_text(page)
            # A whole game (random deals: a short one may take only a few moves), every
            # move answered by the bot: the hand's first showing and at least one move.
            assert len(played) >= 2, played
            lost = [answer for answer in played if answer.lost]
            assert not lost, f"{len(lost)} of {len(played)} clicks lost: {lost}"
            assert THINKING not in await page_text(page)
            await watch(page, thinking=THINKING, review=REVIEWED.pattern)
            review = page.get_by_role("button", name=re.compile("costliest decisions$")).last
            answers = [await press(page, review)]
            assert await seen(page) == ["thinking"], "the review's answer shows Hard thinking"
            replay = page.get_by_role("button", name=re.compile(r"Replay$")).last
            answers.append(await press(page, replay))
            for _ in range(2):
                turn = page.get_by_role("button", name=re.compile(r"▶\S*\s*Next$")).last
                answers.append(await press(page, turn))
            assert "Step 3 of" in await page_text(page)
            await page.get_by_text(REVIEWED).first.wait_for(timeout=5 * STEP_TIMEOUT_MS)
            order = await seen(page)
    failed = [answer for answer in answers if not answer.completed]
    assert not failed, f"{len(failed)} of {len(answers)} clicks not completed: {failed}"
    assert order == ["thinking", "review"], order

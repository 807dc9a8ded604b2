"""Remake the docs' screenshots from the demo: a game from its lobby to its end, and the boards.

    python -m scripts.screenshots [--out docs/screenshots]

Starts ``python -m bot demo`` (the real bot in SimCord's Preview), drives the page in
headless Chromium through Playwright (``pip install -e ".[demo,browser]"`` and
``apt-get install chromium``) through a game: Ben joins, Ana adds a Normal and a Hard AI
and starts, and both quit every round until the game ends. It writes lobby.png, hand.png,
table.png, hint.png, round.png (a round's scoring), game_over.png, review.png,
leaderboard.png and stats.png. Deals are random, so each run shows another game: look at
the pictures before committing them.
"""

from __future__ import annotations

import argparse
import asyncio
import re
from pathlib import Path
from typing import Any

from testkit.browser import (
    HUMAN_TO_MOVE,
    STEP_TIMEOUT_MS,
    act,
    add_ai,
    browser_page,
    click,
    demo_process,
    human_to_move,
    page_text,
    settled,
    view_as,
)

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 900, 1000
#: How long a lobby's follow-up edit may take to reach the page (a script, not a test: it
#: may wait on the clock).
EDIT_PAUSE_MS = 2000


def message(page: Any, text: str, *, without: str | None = None) -> Any:
    """The newest message on the page that contains ``text`` (and not ``without``)."""
    found = page.locator("article[data-message-id], [role=article][data-message-id]").filter(
        has_text=text
    )
    if without is not None:
        found = found.filter(has_not_text=without)
    return found.last


async def shoot(page: Any, text: str, path: Path, *, without: str | None = None) -> None:
    target = message(page, text, without=without)
    await target.scroll_into_view_if_needed()
    await settled(page)
    await target.screenshot(path=str(path))
    print(f"wrote {path}")


async def slash(page: Any, command: str) -> None:
    """Type ``/command`` in the page's composer and send it, as a person would."""
    box = page.locator("#channel-composer-input")
    await box.click()
    await box.fill(f"/{command}")
    await box.press("Enter")  # picks the command from the list
    await act(page, page.locator("#send-message").click)


async def seated(page: Any, count: int) -> None:
    """Wait until the lobby lists ``count`` players, and its later edit has come too: a choice
    made on the lobby a moment before that edit is refused as stale (the page says so)."""
    await page.get_by_text(f"Players ({count}/6)").first.wait_for(timeout=STEP_TIMEOUT_MS)
    await page.wait_for_timeout(EDIT_PAUSE_MS)


async def next_turn_or_end(page: Any) -> str | None:
    """Wait until Ana or Ben is to move (who it is), or the game is over (None)."""
    over = page.get_by_text("L.A.M.A. — game over").first
    turn = page.get_by_text(HUMAN_TO_MOVE).first
    while True:
        await over.or_(turn).first.wait_for(timeout=STEP_TIMEOUT_MS)
        if await over.is_visible():
            return None
        # The turn may have moved on between seeing it and reading the page: look again.
        found = HUMAN_TO_MOVE.search(await page_text(page))
        if found is not None:
            return found.group(1)


async def quit_round(page: Any, mover: str) -> None:
    """``mover`` opens their hand and quits the round: the quickest way to a game's end."""
    await view_as(page, mover)
    await click(page, "Show my hand")
    await click(page, "Quit round")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with demo_process() as (_child, url):
        async with browser_page(url, width=WIDTH, height=HEIGHT) as page:
            await view_as(page, "Ben")
            await click(page, "Join")
            await view_as(page, "Ana")
            await seated(page, 2)
            await add_ai(page, "Normal")
            await seated(page, 3)
            await add_ai(page, "Hard")
            await seated(page, 4)
            # The page keeps the AI menu's last choice as a draft; Discord shows its
            # placeholder again. A reload shows the lobby as a person would see it.
            await page.reload()
            await settled(page)
            await view_as(page, "Ana")
            await shoot(page, "lobby", out / "lobby.png")
            await click(page, "Start")
            # Play until Ana or Ben is to move and the AI players have shown a few moves.
            mover = await human_to_move(page)
            await view_as(page, mover)
            await click(page, "Show my hand")
            await shoot(page, "Your hand", out / "hand.png")
            await shoot(page, "round 1", out / "table.png")
            await click(page, re.compile(r"Hint$"))
            await shoot(page, "💡", out / "hint.png")
            # Both people quit every round at once, so the game ends in a few rounds.
            await click(page, "Quit round")
            shown_round = False
            while (turn := await next_turn_or_end(page)) is not None:
                if not shown_round and await page.get_by_text("round 2").count():
                    await shoot(page, "round 2", out / "round.png")
                    shown_round = True
                await quit_round(page, turn)
            if not shown_round:
                print("no person moved in round 2: round.png is the old one; run it again")
            await view_as(page, "Ana")
            # The public table, not the open hands that show the end too.
            await shoot(page, "game over", out / "game_over.png", without="Your hand")
            await click(page, re.compile(r"Your three costliest decisions$"))
            await page.get_by_text("🔍").first.wait_for(timeout=STEP_TIMEOUT_MS)
            await shoot(page, "🔍", out / "review.png")
            await slash(page, "lama leaderboard")
            await shoot(page, "leaderboard", out / "leaderboard.png")
            # Ben asks: one person waits 5 s between two boards or stats (the bot's own
            # cooldown, on the demo's clock, which stands still while nobody plays).
            await view_as(page, "Ben")
            await slash(page, "lama stats")
            await shoot(page, "L.A.M.A. stats", out / "stats.png")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    asyncio.run(main(parser.parse_args().out))

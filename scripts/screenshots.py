"""Remake the docs' screenshots from the demo: the lobby, the table and a hand.

    python -m scripts.screenshots [--out docs/screenshots]

Starts ``python -m bot demo`` (the real bot in SimCord's Preview), drives the page in
headless Chromium through Playwright (``pip install -e ".[demo,browser]"`` and
``apt-get install chromium``) and writes lobby.png, table.png and hand.png.
Deals are random, so each run shows another game.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from testkit.browser import (
    add_ai,
    browser_page,
    click,
    demo_process,
    human_to_move,
    settled,
    view_as,
)

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 900, 1000


def message(page: Any, text: str) -> Any:
    """The newest message on the page that contains ``text``."""
    return (
        page.locator("article[data-message-id], [role=article][data-message-id]")
        .filter(has_text=text)
        .last
    )


async def shoot(page: Any, text: str, path: Path) -> None:
    target = message(page, text)
    await target.scroll_into_view_if_needed()
    await settled(page)
    await target.screenshot(path=str(path))
    print(f"wrote {path}")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with demo_process() as (_child, url):
        async with browser_page(url, width=WIDTH, height=HEIGHT) as page:
            await view_as(page, "Ben")
            await click(page, "Join")
            await view_as(page, "Ana")
            await add_ai(page, "Normal")
            await add_ai(page, "Hard")
            await shoot(page, "lobby", out / "lobby.png")
            await click(page, "Start")
            # Play until Ana is to move and the AI players have shown a few moves.
            await view_as(page, await human_to_move(page))
            await click(page, "Show my hand")
            await shoot(page, "Your hand", out / "hand.png")
            await shoot(page, "round 1", out / "table.png")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    asyncio.run(main(parser.parse_args().out))

"""Driving ``python -m bot demo`` from outside: its process, and its page in headless Chromium."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
# Generous: the machine is shared, and the page settles after real AI pauses.
STEP_TIMEOUT_MS = 60_000
#: A whole game at the page's pace, AI pauses and all.
GAME_TIMEOUT_MS = 15 * 60_000


def _missing() -> str | None:
    try:
        import playwright  # noqa: F401
        import simcord.preview  # noqa: F401
    except ImportError:
        return 'needs pip install -e ".[demo,browser]"'
    if not Path(CHROMIUM).exists():
        return "needs Chromium (apt-get install chromium)"
    return None


#: What is missing to drive the demo's page, or None (tests skip on it outside CI).
MISSING = _missing()


@contextlib.contextmanager
def demo_process(
    *args: str, tmpdir: Path | None = None, browser: str | None = None
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``python -m bot demo --no-browser ARGS``; yields the process and the page's address.

    With ``browser``, the demo opens its page with that command (``BROWSER``) instead.
    """
    environ = dict(os.environ, PYTHONPATH=str(ROOT))
    if tmpdir is not None:
        environ["TMPDIR"] = str(tmpdir)
    if browser is not None:
        environ["BROWSER"] = browser
    opening = () if browser is not None else ("--no-browser",)
    child = subprocess.Popen(
        [sys.executable, "-m", "bot", "demo", *opening, *args],
        cwd=ROOT,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    try:
        first = child.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/#\S+)", first)
        assert match, (
            f"no address printed: {first!r}, {child.stderr.read() if child.stderr else ''}"
        )
        yield child, match.group(1)
    finally:
        if child.poll() is None:
            child.terminate()
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=30)


@contextlib.asynccontextmanager
async def browser_page(url: str, *, width: int = 1100, height: int = 900) -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            # The page's content security policy forbids eval, which waiting on its
            # readiness flag needs.
            context = await browser.new_context(
                bypass_csp=True, viewport={"width": width, "height": height}
            )
            page = await context.new_page()
            page.set_default_timeout(STEP_TIMEOUT_MS)
            await page.goto(url)
            await settled(page)
            yield page
        finally:
            await browser.close()


async def settled(page: Any) -> None:
    """Wait until the page shows a settled state and runs no action."""
    await page.wait_for_function(
        "() => window.simcordPreview && window.simcordPreview.ready"
        " && !window.simcordPreview.pendingAction",
        timeout=STEP_TIMEOUT_MS,
    )


async def view_as(page: Any, name: str) -> None:
    await page.get_by_label("Viewing as").select_option(label=name)
    await settled(page)


async def _last_action(page: Any) -> Any:
    return await page.evaluate(
        "() => { const a = window.simcordPreview.lastAction;"
        " return a ? {id: a.requestId, rejected: a.rejected} : null; }"
    )


async def act(page: Any, do: Callable[[], Awaitable[None]], tries: int = 5) -> None:
    """Do one page action; again when the page refused it because the bot had just moved.

    The page sends the revision it shows with each click, and a click on a
    revision the bot has already replaced (an AI move an instant before) is
    refused unsent, as the page says; a person would simply click again.
    """
    for _ in range(tries):
        await settled(page)
        before = await _last_action(page)
        await do()
        await settled(page)
        after = await _last_action(page)
        if after is not None and after != before and not after["rejected"]:
            return
    raise AssertionError(f"the page refused the action {tries} times")


async def click(page: Any, name: str | re.Pattern[str]) -> None:
    button = page.get_by_role("button", name=name, exact=isinstance(name, str)).last
    await act(page, button.click)


async def add_ai(page: Any, strength: str) -> None:
    async def choose() -> None:
        await page.get_by_role("combobox", name="Add an AI player…").click()
        await page.get_by_role("option", name=re.compile(strength)).click()

    await act(page, choose)


async def page_text(page: Any) -> str:
    return str(await page.locator("body").inner_text())


#: A finished game's review, once Hard has thought: its lines, its word that nothing cost
#: anything, or that there was no time for it.
REVIEWED = re.compile(
    r"Round \d+, move \d+:|none of your decisions cost you|no time for a review just now"
)

#: A seat of the table whose turn it is: "▶️ Ana · 0 points — to move ⏳ in 2 minutes".
HUMAN_TO_MOVE = re.compile(r"(Ana|Ben) · [^\n]*— to move")


async def human_to_move(page: Any) -> str:
    """Wait until Ana or Ben is to move (the AI players move by themselves); who it is.

    Found and read in one look at the page: the page may show the next state the
    moment after (answers show as the bot gives them, its later work as it lands)."""
    handle = await page.wait_for_function(
        "(source) => new RegExp(source).exec(document.body.innerText)?.[1] || null",
        arg=HUMAN_TO_MOVE.pattern,
        timeout=STEP_TIMEOUT_MS,
    )
    return str(await handle.json_value())


#: In the page: press the open hand's move the moment it is the viewer's turn, or see the
#: game end.  Play the first card that fits, else Draw every other time it can, else Quit
#: round.  Says which button it pressed, or that the game is over.
_PRESS_MOVE = """(drawTurn) => {
  const buttons = [...document.querySelectorAll("button")];
  const enabled = (label) =>
    buttons.filter((b) => !b.disabled && b.innerText.trim().startsWith(label));
  const quit = enabled("Quit round");
  if (!quit.length) return document.body.innerText.includes("— game over") ? {over: true} : null;
  const play = buttons.filter((b) => !b.disabled && /Play /.test(b.innerText));
  const draw = enabled("Draw");
  const button = play.length ? play[0]
    : (draw.length && drawTurn ? draw[0] : quit[quit.length - 1]);
  window.lamaClickedAt = performance.now();
  button.click();
  return {label: button.innerText.trim().split("\\n").pop()};
}"""

#: In the page: the answer to the click after ``before`` (a request id), once it is in.
_ANSWER = """(before) => {
  const preview = window.simcordPreview;
  const answer = preview && preview.lastAction;
  if (!answer || answer.requestId === before || preview.pendingAction) return null;
  if (!answer.rejected && preview.publishedRevision < answer.revision) return null;
  return {ms: performance.now() - window.lamaClickedAt, rejected: answer.rejected,
          acknowledgement: answer.acknowledgement, settlement: answer.settlement,
          codes: (answer.diagnostics || []).map((d) => d.code)};
}"""


@dataclass(frozen=True, slots=True)
class Answer:
    """What the page said to one click: the button, its answer, and how long it took."""

    label: str
    seconds: float
    rejected: bool
    acknowledgement: str
    settlement: str
    codes: tuple[str, ...]

    @property
    def lost(self) -> bool:
        """The click did nothing: refused unsent, or never answered by the bot."""
        return self.rejected or self.acknowledgement == "unacknowledged"

    @property
    def completed(self) -> bool:
        """The bot answered and the page showed it settled: not "Action was not
        completed" nor "Action outcome uncertain"."""
        return not self.lost and self.settlement == "settled"


async def last_request(page: Any) -> str | None:
    found = await page.evaluate("() => window.simcordPreview.lastAction?.requestId || null")
    return None if found is None else str(found)


async def answer_to(page: Any, before: str | None, label: str) -> Answer:
    """Wait for the page to show its answer to the click made after request ``before``."""
    handle = await page.wait_for_function(
        _ANSWER, arg=before, polling="raf", timeout=STEP_TIMEOUT_MS
    )
    found = await handle.json_value()
    return Answer(
        label,
        float(found["ms"]) / 1000,
        bool(found["rejected"]),
        str(found["acknowledgement"]),
        str(found["settlement"]),
        tuple(found["codes"]),
    )


async def play_fast(page: Any) -> list[Answer]:
    """Play the viewer's open hand to the game's end, each move the instant it can be made.

    The hand must be open on the page.  No click is made twice: the answers say which
    ones the page or the bot refused.
    """
    answers: list[Answer] = []
    while True:
        before = await last_request(page)
        handle = await page.wait_for_function(
            _PRESS_MOVE, arg=len(answers) % 2 == 0, polling="raf", timeout=GAME_TIMEOUT_MS
        )
        pressed = await handle.json_value()
        if pressed.get("over"):
            return answers
        answers.append(await answer_to(page, before, str(pressed["label"])))


async def press(page: Any, button: Any) -> Answer:
    """Click ``button`` (a locator) once, at once, and wait for the page's answer."""
    before = await last_request(page)
    label = await button.evaluate(
        "(b) => { window.lamaClickedAt = performance.now(); b.click(); return b.innerText; }"
    )
    return await answer_to(page, before, str(label).strip().split("\n")[-1])


async def finish_game(page: Any, strength: str = "Easy") -> list[Answer]:
    """From the lobby the page opens on: one AI of ``strength``, Start, then the whole
    game played as fast as the page lets a person (:func:`play_fast`).  The answers,
    the hand's first showing first."""
    await add_ai(page, strength)
    await page.get_by_text("Players (2/6)").first.wait_for(timeout=STEP_TIMEOUT_MS)
    await click(page, "Start")
    shown = await press(page, page.get_by_role("button", name="Show my hand").last)
    return [shown, *await play_fast(page)]


#: In the page: from now on, note the names of ``patterns`` (name: regular expression)
#: in the order their text first shows on the page, each state the page renders.
_WATCH = """(patterns) => {
  const seen = window.lamaSeen = [];
  const look = () => {
    const text = document.body.innerText;
    for (const [name, source] of Object.entries(patterns))
      if (!seen.includes(name) && new RegExp(source).test(text)) seen.push(name);
  };
  new MutationObserver(look).observe(document.body,
    {childList: true, subtree: true, characterData: true});
  look();
}"""


async def watch(page: Any, **patterns: str) -> None:
    """Note from now on the order in which texts first show on the page: ``seen``
    then tells.  Every state the page renders counts, however soon it is replaced."""
    await page.evaluate(_WATCH, patterns)


async def seen(page: Any) -> list[str]:
    """The names given to :func:`watch` whose text has shown, in the order it first did."""
    return [str(name) for name in await page.evaluate("() => window.lamaSeen")]

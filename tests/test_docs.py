"""The docs can't drift from the bot: the generated references are up to date and complete,
and every player page exists in the bot's four languages."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from bot.config import Settings
from bot.i18n import CATALOGS, DEFAULT
from scripts.command_reference import COMMANDS_PAGE, SETTINGS_PAGE, entries, live_tree, pages

ROOT = Path(__file__).resolve().parents[1]
PLAY = ROOT / "docs" / "play"


async def test_the_committed_references_are_what_the_script_writes() -> None:
    for path, text in (await pages()).items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(ROOT)} is out of date: run python -m scripts.command_reference"
        )


async def test_every_slash_command_and_option_is_in_the_command_reference() -> None:
    page = COMMANDS_PAGE.read_text(encoding="utf-8")
    async with live_tree() as tree:
        found = await entries(tree)
    assert len(found) >= 20, "the live tree lost its commands"
    headings = set(re.findall(r"^## `/(.+)`$", page, flags=re.M))
    missing = [" ".join(e.path) for e in found if " ".join(e.path) not in headings]
    assert not missing, f"commands missing from {COMMANDS_PAGE.name}: {missing}"
    for entry in found:
        section = page.split(f"## `/{' '.join(entry.path)}`\n", 1)[1].split("\n## ", 1)[0]
        for parameter in entry.command.parameters:
            assert f"| `{parameter.display_name}`" in section, (
                f"/{' '.join(entry.path)} {parameter.display_name} is missing from the reference"
            )


class Reading(Mapping[str, str]):
    """An environment that notes every variable the settings ask it for."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self.known = dict(values)
        self.asked: set[str] = set()

    def __getitem__(self, name: str) -> str:
        self.asked.add(name)
        return self.known[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.known)

    def __len__(self) -> int:
        return len(self.known)


def test_every_setting_the_bot_reads_is_in_the_settings_reference_and_env_example() -> None:
    environment = Reading({})
    Settings.from_env(environment, require_token=False)
    assert {"DISCORD_TOKEN", "DATABASE_PATH", "LOG_LEVEL"} <= environment.asked
    page = SETTINGS_PAGE.read_text(encoding="utf-8")
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in sorted(environment.asked):
        assert f"| `{name}` |" in page, f"{name} is missing from {SETTINGS_PAGE.name}"
        # A setting may stand commented out, with its value for the Docker image.
        assert re.search(rf"^#?{name}=", example, flags=re.M), (
            f"{name} is missing from .env.example"
        )


def anchors(page: Path) -> list[str]:
    """The section ids a page's headings give: an explicit { #id }, else the English title's."""
    found = []
    for title in re.findall(r"^##+ (.+)$", page.read_text(encoding="utf-8"), flags=re.M):
        explicit = re.search(r"\{ #([\w-]+) \}", title)
        found.append(explicit.group(1) if explicit else re.sub(r"[^\w]+", "-", title.lower()))
    return [anchor.strip("-") for anchor in found]


ENGLISH_PAGES = sorted(p.name for p in PLAY.glob("*.md") if p.name.count(".") == 1)


@pytest.mark.parametrize("page", ENGLISH_PAGES)
@pytest.mark.parametrize("language", sorted(set(CATALOGS) - {DEFAULT}))
def test_every_player_page_is_in_each_language_with_the_same_sections(
    page: str, language: str
) -> None:
    english = PLAY / page
    translated = PLAY / page.replace(".md", f".{language}.md")
    assert translated.exists(), f"docs/play/{translated.name} is missing"
    # Links into a player page name the English anchors; each translation keeps them.
    assert anchors(translated) == anchors(english)

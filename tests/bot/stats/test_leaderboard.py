"""/lama leaderboard by the old orders (wins, win rate, average over all time): humans of this
server only, a Components V2 layout, pages of ten with buttons."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import discord
import pytest
import simcord

from bot.frontend.faces import PLAIN
from bot.frontend.views.leaderboard import ALL, MIN_GAMES, PAGE_SIZE, board_page
from bot.i18n import text
from data.records import EVERYTHING
from game import Match
from testkit.simcord_play import custom_ids, is_components_v2, text_blocks, texts, title
from testkit.slow_store import held

from .games import insert_random_game

MEDALS = {"🥇": 1, "🥈": 2, "🥉": 3}
LINE = re.compile(r"(?:(?P<medal>🥇|🥈|🥉)|\*\*(?P<rank>\d+)\.\*\*) (?P<name>.+?) — ")
BOARD_ID = re.compile(
    r"lama:board:(?P<guild>\d+):(?P<page>\d+):(?P<order>[0-3]):(?P<season>all|\d+)"
)


@dataclass
class Player:
    user_id: int
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0


def ranking(players: list[Player], order: str) -> list[tuple[int, str]]:
    """(rank, name) best first, as the leaderboard should list them."""
    least = 1 if order == "wins" else MIN_GAMES
    ranked = [p for p in players if p.games >= least]

    def metric(p: Player) -> float:
        if order == "wins":
            return -p.wins
        if order == "win_rate":
            return -(p.wins / p.games)
        return p.points / p.games

    ranked.sort(key=lambda p: (metric(p), -p.games, p.user_id))
    return [(1 + sum(metric(o) < metric(p) for o in ranked), p.name) for p in ranked]


@pytest.fixture
async def players(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> list[Player]:
    """15 people with 1 to 5 finished games each in ``channel``, saved straight into the
    bot's store."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    rng = random.Random(2024)
    people = [Player(7001 + i, f"p{i + 1:02d}") for i in range(15)]

    async def game(*seated: Player | None) -> None:
        seats = [(p.user_id, p.name) if p else (None, "Bot") for p in seated]
        match: Match = await insert_random_game(store, guild.id, seats, rng, channel_id=channel.id)
        for seat, p in enumerate(seated):
            if p is not None:
                p.games += 1
                p.wins += seat in match.winners
                p.points += match.points[seat]

    ring = people[:13]
    for i, p in enumerate(ring):
        for _ in range(1 + i % 3):
            await game(p, ring[(i + 1) % len(ring)])
    await game(people[13], people[14])  # two people with one game each
    await game(people[0], None)  # an AI seat is never on the board
    # Another server's games never count here.
    await insert_random_game(store, guild.id + 1, [(people[0].user_id, "p01"), (99, "z")], rng)
    return people


def board_lines(message: object) -> list[str]:
    """The board's lines: the text block whose lines all start with a rank."""
    for block in text_blocks(message):
        lines = block.splitlines()
        if lines and all(LINE.match(line) for line in lines):
            return lines
    raise AssertionError(f"no board lines in {text_blocks(message)}")


def rows(message: object) -> list[tuple[int, str]]:
    found = [LINE.match(line) for line in board_lines(message)]
    return [(MEDALS[m["medal"]] if m["medal"] else int(m["rank"]), m["name"]) for m in found if m]


def footer(message: object) -> str:
    """The small print under the board: its page and what counts."""
    return next(b for b in text_blocks(message) if b.startswith("-# ")).removeprefix("-# ")


def current(channel: simcord.ChannelHandle, message_id: int) -> discord.Message:
    return next(m for m in channel.history() if m.id == message_id)


def buttons(message: discord.Message) -> dict[str, tuple[str, bool]]:
    return {label: (cid, disabled) for cid, label, disabled in custom_ids(message)}


async def test_pages_of_ten_with_previous_and_next(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    players: list[Player],
) -> None:
    expected = ranking(players, "wins")
    assert len(expected) == 15 and "Bot" not in {name for _, name in expected}
    result = await alice.slash(channel, "lama leaderboard", order="wins")
    assert result.response is not None and not result.ephemeral
    message = current(channel, result.response.id)
    assert is_components_v2(message) and not message.embeds and not message.content
    assert title(message) == "🏆 L.A.M.A. leaderboard — most wins"
    assert "Every finished game, all time" in texts(message)
    assert rows(message) == expected[:PAGE_SIZE]
    assert footer(message).startswith("Page 1/2 ·")
    shown = buttons(message)
    assert shown["Previous"][1] and not shown["Next"][1]
    for cid, _disabled in shown.values():
        m = BOARD_ID.fullmatch(cid)
        assert m and int(m["guild"]) == guild.id and m["order"] == "0", cid
        assert m["season"] == "all", cid

    await alice.click(message, label="Next")
    message = current(channel, result.response.id)  # edited in place
    assert rows(message) == expected[PAGE_SIZE:]
    assert footer(message).startswith("Page 2/2 ·")
    shown = buttons(message)
    assert not shown["Previous"][1] and shown["Next"][1]

    bob = guild.add_member(simcord_env.create_user("bob"))  # anyone may turn the pages
    await bob.click(message, label="Previous")
    message = current(channel, result.response.id)
    assert rows(message) == expected[:PAGE_SIZE]
    assert len([m for m in channel.history() if "leaderboard" in title(m)]) == 1


@pytest.mark.parametrize("order", ["win_rate", "average"])
async def test_ratios_need_a_few_games(
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    players: list[Player],
    order: str,
) -> None:
    expected = ranking(players, order)
    assert len(expected) == 13  # p14 and p15 have a single game
    result = await alice.slash(channel, "lama leaderboard", order=order)
    assert result.response is not None
    message = current(channel, result.response.id)
    assert rows(message) == expected[:PAGE_SIZE]
    assert f"at least {MIN_GAMES} finished games" in footer(message)
    assert title(message).endswith(text("en", f"board.order.{order}"))
    await alice.click(message, label="Next")
    assert rows(current(channel, result.response.id)) == expected[PAGE_SIZE:]


async def test_a_page_past_the_end_shows_the_last_one(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, players: list[Player]
) -> None:
    service = simcord_env.bot.service  # type: ignore[attr-defined]
    message, shown = await board_page(
        service.stats, service.ratings, guild.id, "wins", ALL, 99, "en", PLAIN, sight=EVERYTHING
    )
    assert message is None and shown is not None
    assert footer(shown).startswith("Page 2/2 ·")
    assert len(board_lines(shown)) == 5


async def test_an_empty_leaderboard_says_so(
    channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    result = await alice.slash(channel, "lama leaderboard", order="wins")
    assert result.response is not None and result.ephemeral
    assert result.response.content == text("en", "board.empty_min", count=1)
    result = await alice.slash(channel, "lama leaderboard", order="average")
    assert result.response is not None
    assert result.response.content == text("en", "board.empty_min", count=MIN_GAMES)


@pytest.mark.slow  # waits ACK_AFTER (1.5 s) in real time
async def test_a_page_turned_while_the_store_is_slow_is_acknowledged_then_shown(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    players: list[Player],
) -> None:
    expected = ranking(players, "wins")
    result = await alice.slash(channel, "lama leaderboard", order="wins")
    assert result.response is not None
    message = current(channel, result.response.id)
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    with held(store.stats, "leaderboard", 5.0):  # a slow disk, then the read goes through
        clicked = await alice.click(message, label="Next")
        assert clicked.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(6.0)
    message = current(channel, result.response.id)  # edited in place once read
    assert rows(message) == expected[PAGE_SIZE:]


async def test_a_board_posted_before_the_seasons_pages_on_in_the_new_look(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    players: list[Player],
) -> None:
    """An embed board with the old ids (no season): its Next shows page 2 by wins over all
    time, as a layout in the same message (the embed gone)."""
    backend = simcord_env.backend
    old_id = f"lama:board:{guild.id}:1:0"
    stored = backend.create_message(
        channel.id,
        backend.bot_user.id,
        "",
        embeds=[{"title": "🏆 L.A.M.A. leaderboard — most wins", "description": "…"}],
        components=[
            {
                "type": 1,
                "components": [{"type": 2, "style": 2, "label": "Next", "custom_id": old_id}],
            }
        ],
    )
    old = current(channel, stored.id)
    assert old.embeds
    await alice.click(old, label="Next")
    turned = current(channel, stored.id)
    assert is_components_v2(turned) and not turned.embeds
    assert rows(turned) == ranking(players, "wins")[PAGE_SIZE:]
    assert footer(turned).startswith("Page 2/2 ·")

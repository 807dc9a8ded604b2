"""/lama leaderboard: humans of this server only, three orders, pages of ten with buttons."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import discord
import pytest
import simcord

from bot.frontend.custom_ids import BoardId, parse
from bot.frontend.views.stats import MIN_GAMES, PAGE_SIZE, board_page
from bot.i18n import text
from game import Match
from testkit.simcord_play import custom_ids
from testkit.slow_store import held

from .games import insert_random_game

LINE = re.compile(r"\*\*(?P<rank>\d+)\.\*\* (?P<name>\S+) — ")
BOARD_ID = re.compile(r"lama:board:(?P<guild>\d+):(?P<page>\d+):(?P<order>[0-2])")


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


def rows(message: discord.Message) -> list[tuple[int, str]]:
    lines = (message.embeds[0].description or "").splitlines()
    found = [LINE.match(line) for line in lines]
    assert all(found), lines
    return [(int(m["rank"]), m["name"]) for m in found if m]


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
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None and not result.ephemeral
    message = current(channel, result.response.id)
    assert rows(message) == expected[:PAGE_SIZE]
    assert (message.embeds[0].footer.text or "").startswith("Page 1/2 ·")
    shown = buttons(message)
    assert shown["Previous"][1] and not shown["Next"][1]
    for cid, _disabled in shown.values():
        m = BOARD_ID.fullmatch(cid)
        assert m and int(m["guild"]) == guild.id and m["order"] == "0", cid

    await alice.click(message, label="Next")
    message = current(channel, result.response.id)  # edited in place
    assert rows(message) == expected[PAGE_SIZE:]
    assert (message.embeds[0].footer.text or "").startswith("Page 2/2 ·")
    shown = buttons(message)
    assert not shown["Previous"][1] and shown["Next"][1]

    bob = guild.add_member(simcord_env.create_user("bob"))  # anyone may turn the pages
    await bob.click(message, label="Previous")
    message = current(channel, result.response.id)
    assert rows(message) == expected[:PAGE_SIZE]
    assert len([m for m in channel.history() if m.embeds]) == 1


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
    footer = message.embeds[0].footer.text or ""
    assert f"at least {MIN_GAMES} finished games" in footer
    title = message.embeds[0].title or ""
    assert title.endswith(text("en", f"board.order.{order}"))
    await alice.click(message, label="Next")
    assert rows(current(channel, result.response.id)) == expected[PAGE_SIZE:]


async def test_a_page_past_the_end_shows_the_last_one(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, players: list[Player]
) -> None:
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    message, embed, view = await board_page(store, guild.id, "wins", 99, "en")
    assert message is None and embed is not None and view is not None
    assert (embed.footer.text or "").startswith("Page 2/2 ·")
    assert len((embed.description or "").splitlines()) == 5


def test_board_ids_parse() -> None:
    assert parse("board:123:4:2") == BoardId(123, 4, "average")
    assert parse("board:123:4:3") is None  # no such order
    assert parse("board:123:4") is None
    assert parse("board:123") is None


async def test_an_empty_leaderboard_says_so(
    channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None
    assert result.response.content == text("en", "board.empty_min", count=1)
    result = await alice.slash(channel, "lama leaderboard", order="average")
    assert result.response is not None
    assert result.response.content == text("en", "board.empty_min", count=MIN_GAMES)


async def test_a_page_turned_while_the_store_is_slow_is_acknowledged_then_shown(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    players: list[Player],
) -> None:
    expected = ranking(players, "wins")
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None
    message = current(channel, result.response.id)
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    with held(store, "leaderboard", 5.0):  # a slow disk, then the read goes through
        clicked = await alice.click(message, label="Next")
        assert clicked.acknowledged, "Discord would show 'This interaction failed'"
        await simcord_env.advance_time(6.0)
    message = current(channel, result.response.id)  # edited in place once read
    assert rows(message) == expected[PAGE_SIZE:]

"""LOG_FORMAT=json: one JSON object a line, with the game's ids, secrets still redacted."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
import simcord

from bot.logs import REDACTED, setup_logging
from bot.service.log_context import about
from testkit.simcord_play import take_simple_turn, two_player_game

TOKEN = "MTk4NjIyNDgzNDcxOTI1MjQ4.GaBcDe.b0t-t0k3n_abcdefghijklmnopqrstuvwxyz012"


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """The root logger writing JSON lines at DEBUG into a buffer; put back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    buffer = io.StringIO()
    setup_logging(
        logging.DEBUG, secrets=(TOKEN,), handler=logging.StreamHandler(buffer), log_format="json"
    )
    yield buffer
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


def parsed(buffer: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def test_each_line_is_an_object_with_the_ids_known_and_no_secret(json_lines: io.StringIO) -> None:
    log = logging.getLogger("bot.test")
    with about(game_id=7, guild_id=1, channel_id=2):
        log.warning("with bot token %s", TOKEN)
    log.info("given by hand", extra={"game_id": 8})
    try:
        raise RuntimeError(f"failed at /webhooks/1/{'x' * 60}/messages")
    except RuntimeError:
        log.exception("no context")
    first, second, third = parsed(json_lines)[-3:]
    assert first["message"] == f"with bot token {REDACTED}"
    assert (first["game_id"], first["guild_id"], first["channel_id"]) == (7, 1, 2)
    assert first["level"] == "WARNING" and first["logger"] == "bot.test"
    assert str(first["time"]).endswith("+00:00")
    assert second["game_id"] == 8 and "guild_id" not in second
    assert "game_id" not in third
    assert "x" * 60 not in str(third["exception"]) and REDACTED in str(third["exception"])


async def test_a_moves_log_lines_carry_its_game(
    json_lines: io.StringIO,
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    assert table.to_move is not None
    first = alice if table.seats[table.to_move].user_id == alice.id else bob  # a random deal
    await take_simple_turn(first, channel)
    moved = [line for line in parsed(json_lines) if line["logger"] == "bot.service.play.moves"]
    assert moved, "the move left no log line"
    assert moved[-1]["game_id"] == table.game_id
    assert moved[-1]["channel_id"] == channel.id

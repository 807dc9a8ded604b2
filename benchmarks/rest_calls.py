"""The REST budget's bookkeeping: which token a call used, what it was, and the tallies.

A call with an *interaction token* (``/interactions/{id}/{token}/callback`` and
``/webhooks/{application}/{token}/...``: a click's answer, its followups, an open hand's
refresh) doesn't count against the bot token's ~50 requests per second; every other
call does.  ``channel_of`` tells which channel (so which table) a call was about.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from simcord.backend import Backend

BUDGET = 50.0  # requests per second Discord allows one bot token, across every process
QUARTER_HOUR = 15 * 60.0  # an interaction token's life: the moves after it are the hard part

KINDS = ("table edit", "ping POST", "ping DELETE", "other")
MESSAGE = re.compile(r"^/channels/(\d+)/messages/(\d+)$")
MESSAGES = re.compile(r"^/channels/(\d+)/messages$")
CHANNEL = re.compile(r"^/channels/(\d+)(?:/|$)")
CALLBACK = re.compile(r"^/interactions/(\d+)/([^/]+)/callback$")
WEBHOOK = re.compile(r"^/webhooks/(\d+)/([^/]+)(?:/|$)")


@dataclass
class CallTally:
    """Calls put down to one kind of moment (human moves, AI moves, starts)."""

    moments: int = 0
    interaction: int = 0
    bot: Counter[str] = field(default_factory=Counter)

    def add(self, other: CallTally) -> None:
        self.moments += other.moments
        self.interaction += other.interaction
        self.bot.update(other.bot)

    @property
    def bot_calls(self) -> int:
        return sum(self.bot.values())


@dataclass
class Refusals:
    """Answers Discord would give that the front end must never provoke (the kit's counts)."""

    rate_limited: int = 0  # 429 on the interaction webhooks
    followup_cap: int = 0  # 400 / 40094: a sixth followup where the app is only user-installed
    dead_token: int = 0  # a token used past its life or after it died (401 / 404)
    refused: int = 0  # 403 / 50001: the bot token where the bot is no member
    pings_left: int = 0  # turn pings still standing once the games are over

    def add(self, other: Refusals) -> None:
        self.rate_limited += other.rate_limited
        self.followup_cap += other.followup_cap
        self.dead_token += other.dead_token
        self.refused += other.refused
        self.pings_left += other.pings_left

    def total(self) -> int:
        return (
            self.rate_limited + self.followup_cap + self.dead_token + self.refused + self.pings_left
        )


@dataclass
class Budget:
    """What the games cost: calls per kind of moment, and the virtual time played."""

    games: int = 0
    seconds: float = 0.0  # from each Start click to the game's end
    breaks: float = 0.0  # of which the humans' breaks took, beyond a think's time
    longest: float = 0.0  # the longest game, Start click to end
    human: CallTally = field(default_factory=CallTally)
    ai: CallTally = field(default_factory=CallTally)
    start: CallTally = field(default_factory=CallTally)
    #: Every call of the moments (human and AI) after a game's first quarter hour; its
    #: ``moments`` are the human moves among them.
    late: CallTally = field(default_factory=CallTally)
    refusals: Refusals = field(default_factory=Refusals)
    slow: int = 0  # clicks whose answer the bench did not wait for (SimCord's settle)

    def add(self, other: Budget) -> None:
        self.slow += other.slow
        self.games += other.games
        self.seconds += other.seconds
        self.breaks += other.breaks
        self.longest = max(self.longest, other.longest)
        self.human.add(other.human)
        self.ai.add(other.ai)
        self.start.add(other.start)
        self.late.add(other.late)
        self.refusals.add(other.refusals)

    def total(self) -> CallTally:
        whole = CallTally()
        for part in (self.human, self.ai, self.start):
            whole.add(part)
        return whole

    def bot_per_human_move(self) -> float:
        return self.total().bot_calls / max(1, self.human.moments)

    def interaction_per_human_move(self) -> float:
        return self.total().interaction / max(1, self.human.moments)

    def paced_seconds(self) -> float:
        """The games' time had the humans taken no break: their calls at a 3-9 s pace
        (the calls a break brings are counted, in less time: on the safe side)."""
        return self.seconds - self.breaks

    def tables_per_token(self) -> float:
        paced = self.paced_seconds()
        per_second = self.total().bot_calls / paced if paced > 0 else 0.0
        return BUDGET / per_second if per_second else float("inf")


def classify(
    method: str, path: str, body: Any, application_id: int, tables: Collection[int] = ()
) -> tuple[bool, str]:
    """(made with an interaction token, kind) of one REST call; ``tables`` are the ids
    of the table messages."""
    parts = path.split("/")
    if path.startswith("/interactions/") and path.endswith("/callback"):
        return True, "answer"
    if len(parts) > 3 and parts[1] == "webhooks" and parts[2] == str(application_id):
        return True, "followup"
    message = MESSAGE.match(path)
    if method == "PATCH" and message and int(message[2]) in tables:
        return False, "table edit"
    if method == "DELETE" and message:
        return False, "ping DELETE"  # the bot deletes only its pings
    if method == "POST" and MESSAGES.match(path) and is_ping(body):
        return False, "ping POST"
    return False, "other"


def is_ping(body: Any) -> bool:
    """A ping is a short text mentioning a player, without a layout."""
    if not isinstance(body, dict):
        return False
    content = body.get("content") or ""
    return "<@" in content and not body.get("components")


def channel_of(backend: Backend, path: str) -> int | None:
    """The channel a call is about: named in its path, or its interaction token's."""
    named = CHANNEL.match(path)
    if named:
        return int(named[1])
    callback = CALLBACK.match(path)
    if callback:
        record = backend.interactions.get(int(callback[1]))
        return None if record is None else record.channel_id
    webhook = WEBHOOK.match(path)
    if webhook:
        interaction = backend.interaction_tokens.get(webhook[2])
        record = None if interaction is None else backend.interactions.get(interaction)
        return None if record is None else record.channel_id
    return None

"""Open hands: each player's private hand, refreshed through its own click's token.

A hand is refreshed (no bot token) when its player's turn comes and when a new round
is dealt, and taken back after a restart while Discord still lets us edit it.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import text
from bot.service.play.table import Status, Table
from data import OpenHandRecord

from .background import Background
from .discord_errors import FAILURES, transient
from .host import Host
from .tokens import Tokens
from .views.hand import hand_view, seat_taken_view
from .views.payloads import v2_payload

LOOKING = 5.0  # seconds since a player's last click in which they're taken to be looking
HAND_RESAVE = 5 * 60  # seconds before an open hand's stored token is replaced by a newer one
HAND_EDITABLE = 14 * 60  # Discord allows 15 minutes; keep a margin


@dataclass
class OpenHand:
    edit: Callable[..., Awaitable[object]]  # edits the hand's message
    opened: float  # unix time (the service's clock)
    locale: str
    warning: str | None = None  # about the bot's permissions, as of the last click
    round_no: int = 0  # the round it shows (0: not known)
    #: The stamp of the turn it offers its owner (their move buttons on); None if none.
    turn: int | None = None
    token: str | None = None  # the interaction token that edits it


def offered_turn(table: Table, seat: int | None) -> int | None:
    """The stamp of the turn a hand drawn now offers ``seat``'s player, if it is theirs."""
    if seat is None or table.status is not Status.RUNNING or table.to_move != seat:
        return None
    return table.stamp if table.seats[seat].controller is None else None


class OpenHands:
    """The hands players have open, by (game id, user id)."""

    def __init__(self, host: Host, tokens: Tokens, background: Background) -> None:
        self.host = host
        self.tokens = tokens
        self.background = background
        self.hands: dict[tuple[int, int], OpenHand] = {}
        # The message and time of each open hand's stored token.
        self._saved: dict[tuple[int, int], tuple[int, float]] = {}

    def drop(self, game_id: int, user_id: int) -> None:
        """Stop refreshing one player's hand (an AI plays their seat now); the time its
        token was saved stays, so a hand opened again isn't saved again at once."""
        self.hands.pop((game_id, user_id), None)

    def moving(self, game_id: int, user_id: int) -> None:
        """Its owner clicked a move on their turn: their click's answer shows what it
        did, so the turn it offered is not one for :meth:`turns_over` to take back."""
        hand = self.hands.get((game_id, user_id))
        if hand is not None:
            hand.turn = None

    def forget(self, game_id: int) -> None:
        for hands in (self.hands, self._saved):
            for key in [key for key in hands if key[0] == game_id]:
                del hands[key]

    def opened(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction[Any],
        warning: str | None = None,
        message_id: int | None = None,
        edit: Callable[..., Awaitable[object]] | None = None,
    ) -> None:
        """Refresh this hand (``message_id``, answering ``interaction``, or ``edit``ed
        when it is a followup of it) when its owner's turn comes; stored too, so that a
        restarted bot still can."""
        hand = OpenHand(
            edit or interaction.edit_original_response,
            self.host.service.clock(),
            str(interaction.locale),
            warning,
            table.match.round_no if table.match is not None else 0,
            offered_turn(table, table.seat_of(user_id)),
            interaction.token,
        )
        key = (table.game_id, user_id)
        self.hands[key] = hand
        # Every click on a hand is a new interaction with a new token; storing each
        # would double the writes of every move. The same message is stored again
        # only once its stored token has used up a third of its life.
        saved = self._saved.get(key)
        if message_id is not None and (
            saved is None or saved[0] != message_id or hand.opened - saved[1] >= HAND_RESAVE
        ):
            self._saved[key] = (message_id, hand.opened)
            record = OpenHandRecord(
                game_id=table.game_id,
                user_id=user_id,
                application_id=interaction.application_id,
                token=interaction.token,
                message_id=message_id,
                locale=hand.locale,
                warning=warning,
                opened_at=hand.opened,
            )
            self.background.spawn(
                self.host.service.front.remember_hand(record), f"lama-hand-{table.game_id}"
            )

    async def restore(self) -> None:
        """Take back the hands opened before a restart that Discord still lets us edit;
        the newest of each game's tokens sends its pings, as a click would."""
        for record in await self.host.service.front.open_hands():
            webhook = self.host.interaction_webhook(record.application_id, record.token)
            edit = functools.partial(webhook.edit_message, record.message_id)
            key = (record.game_id, record.user_id)
            self.hands[key] = OpenHand(
                edit, record.opened_at, record.locale, record.warning, token=record.token
            )
            self.tokens.restored(record.game_id, webhook, record.opened_at)

    def looking(self, table: Table, user_id: int) -> bool:
        """Whether the player clicked in the last ``LOOKING`` seconds."""
        hand = self.hands.get((table.game_id, user_id))
        return hand is not None and self.host.service.clock() - hand.opened < LOOKING

    async def refresh(
        self, table: Table, user_id: int, *, note: str | None = None, last: bool = False
    ) -> bool:
        """Edit ``user_id``'s open hand to show the game as it is now; ``last``
        lets go of it after (the game is over, nothing will change it again).
        True if the hand shows it now."""
        key = (table.game_id, user_id)
        hand = self.hands.get(key)
        if hand is None:
            return False
        expired = self.host.service.clock() - hand.opened > HAND_EDITABLE
        if hand.token is not None and self.tokens.dead(hand.token):
            expired = True  # its token failed for good elsewhere: never tried again
        if last or expired:
            del self.hands[key]
        if expired:
            return False
        seat = table.seat_of(user_id)
        if seat is None or table.match is None:
            return False
        shown = text(hand.locale, note) if note is not None else None
        round_no, turn = table.match.round_no, offered_turn(table, seat)
        taken = table.live and table.seats[seat].controller is not None
        if taken:
            # An AI plays the seat now (a takeover, a kick): its cards are the AI's.
            payload = v2_payload(seat_taken_view(table, seat, hand.locale))
            self.hands.pop(key, None)
        else:
            payload = v2_payload(
                hand_view(table, seat, hand.locale, self.host.faces, shown, warning=hand.warning)
            )
        try:
            await hand.edit(**payload)
        except FAILURES as error:
            if not transient(error):
                self.hands.pop(key, None)  # gone, or its token no longer works
                if hand.token is not None and not isinstance(error, discord.NotFound):
                    self.tokens.failed_token(hand.token)  # a 401: nothing more with it
            return False  # the ping tells them instead
        hand.round_no, hand.turn = round_no, turn
        return not taken

    async def turns_over(self, table: Table) -> None:
        """Every open hand still offering its owner a turn that is over (the timer
        quit it for them, an AI took the seat) shows the game as it is now: no move
        buttons for a turn gone.  Not the hand of the player to move: their turn's
        own refresh shows it."""
        to_move = table.to_move
        for key in [key for key in self.hands if key[0] == table.game_id]:
            hand = self.hands.get(key)
            if hand is None or hand.turn is None or hand.turn == table.stamp:
                continue
            seat = table.seat_of(key[1])
            if seat is not None and seat != to_move:
                await self.refresh(table, key[1])

    async def seats_taken(self, table: Table) -> None:
        """Every open hand of a seat an AI plays now (a kick, a leave, two missed
        turns) says so, on anyone's turn: the cards and buttons it showed are the
        AI's from now on, and it is let go of (``refresh``)."""
        if not table.live:
            return
        for key in [key for key in self.hands if key[0] == table.game_id]:
            seat = table.seat_of(key[1])
            if seat is not None and table.seats[seat].controller is not None:
                await self.refresh(table, key[1])

    async def new_round(self, table: Table) -> None:
        """Every open hand still showing an earlier round shows this one: the new
        cards to plan with, the moves offered only on its owner's turn.  (Not the
        hand of a seat an AI plays: its cards are the AI's.)"""
        match = table.match
        if match is None or not match.in_round:
            return
        for key in [key for key in self.hands if key[0] == table.game_id]:
            hand = self.hands.get(key)
            seat = table.seat_of(key[1])
            if hand is None or hand.round_no == match.round_no or seat is None:
                continue
            if table.seats[seat].controller is None:
                await self.refresh(table, key[1])

    async def close(self, table: Table, reason: str | None = None) -> None:
        """Every open hand of a game that ended shows how it ended, not stale moves."""
        for _game, user_id in [key for key in self.hands if key[0] == table.game_id]:
            await self.refresh(table, user_id, note=reason, last=True)

"""A new lobby posted as its command's or click's answer, or taken back if it can't be seen."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Literal

import discord

from bot.i18n import text
from bot.service import GameService, ServiceError
from bot.service.play.table import Table

from .cog_host import TablePresenter
from .faces import Faces
from .replies import Interaction, reply
from .views.payloads import table_payload

log = logging.getLogger(__name__)

#: What the person is told when Discord refused to post the lobby they opened.
NOT_POSTED = {"new": "error.lobby_not_posted", "rematch": "error.rematch_not_posted"}


async def post_table(
    interaction: Interaction,
    table: Table,
    action: Literal["new", "rematch"],
    service: GameService,
    presenter: TablePresenter,
    faces: Faces,
) -> bool:
    """Post the new lobby; False once the person is told Discord refused it (or made it
    private)."""
    payload = table_payload(table, faces)
    # Acknowledged while the store was slow, the table goes out as a followup: the
    # click's own answer is then another message (the finished table a Rematch was
    # pressed on, /lama new's private note), which its token must never edit.
    answered = not interaction.response.is_done()
    try:
        message_id, private = await send_table(interaction, payload)
    except discord.HTTPException as error:
        # Discord refused the lobby's message: nobody can see or join it, so it is
        # taken back as if never opened. It holds no channel, counts for no host, and
        # a Rematch stays usable; the person may try again at once.
        log.warning("game %s: Discord refused its lobby's message: %s", table.game_id, error)
        with contextlib.suppress(ServiceError):
            await service.lobbies.withdraw(table.game_id)
        await reply(interaction, text(interaction.locale, NOT_POSTED[action]))
        return False
    if private:
        # Discord made the answer private: a server that turned Use External Apps off
        # for this person. Nobody else could see or join the table: taken back whole.
        log.info("game %s: its lobby could only be shown privately", table.game_id)
        with contextlib.suppress(ServiceError):
            await service.lobbies.withdraw(table.game_id)
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:  # only the person sees it: it may stay
            log.info("game %s: its private lobby stays: %s", table.game_id, error)
        await interaction.followup.send(
            text(interaction.locale, "error.forced_private"), ephemeral=True
        )
        return False
    # Its token edits it: as its answer, or as its followup (acknowledged while slow).
    presenter.table_posted(table, message_id)
    presenter.remember(table, payload, interaction, message_id, followup=not answered)
    try:
        await service.front.set_table_message(table.game_id, message_id)
    except ServiceError as error:
        await interaction.followup.send(text(interaction.locale, error.key), ephemeral=True)
    return True


async def send_table(interaction: Interaction, payload: dict[str, Any]) -> tuple[int, bool]:
    """Post the table as the answer (or the followup of an answer deferred); the id
    of the message posted, and whether Discord made it private."""
    if interaction.response.is_done():  # acknowledged while the store was slow
        if interaction.type is not discord.InteractionType.component:
            # /lama new's "thinking…" is private, and Discord makes the first followup
            # as private as it: that one says where the table is, and the table goes
            # out as the next, for the channel (a button's quiet ack has no message).
            await interaction.edit_original_response(
                content=text(interaction.locale, "lobby.posted")
            )
        sent = await interaction.followup.send(**payload, wait=True)
        return sent.id, sent.flags.ephemeral
    answer = await interaction.response.send_message(**payload)
    # The answer names the message it posted: no read back that could fail (a 5xx)
    # after the lobby is already in the channel with its buttons.
    shown = answer.resource
    if isinstance(shown, discord.InteractionMessage):
        return shown.id, shown.flags.ephemeral
    if answer.message_id is not None:
        return answer.message_id, False
    original = await interaction.original_response()
    return original.id, original.flags.ephemeral

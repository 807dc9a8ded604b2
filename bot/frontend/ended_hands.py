"""A private hand answered in place, and what an old hand shows once its game is over.

Any of an old hand's buttons (its moves, Refresh, Hint) shows the end once its game
has ended, the same whichever cog the button belongs to."""

from __future__ import annotations

from typing import Any

from bot.i18n import text
from bot.service import GameService
from bot.service.play.table import Status

from .faces import Faces
from .replies import Interaction, in_time, reply
from .views.hand import hand_view
from .views.payloads import v2_payload
from .words import end_key


async def respond_hand(interaction: Interaction, payload: dict[str, Any]) -> int | None:
    """Show a private hand: in place of the hand clicked, else as a new reply.
    Returns the id of the message that shows it."""
    message = interaction.message
    if message is not None and message.flags.ephemeral and not interaction.response.is_done():
        callback = await interaction.response.edit_message(**payload)
        return callback.message_id if callback is not None else message.id
    if interaction.response.is_done():
        return (await interaction.edit_original_response(**payload)).id
    return (await interaction.response.send_message(**payload, ephemeral=True)).message_id


async def show_end(
    interaction: Interaction, service: GameService, faces: Faces, game_id: int
) -> None:
    """A click on an old hand (or table) of a game that ended: its player sees what
    a hand open at the end shows, in their language; anyone else, and a game that
    is unknown or of another channel (a forged button), the refusal."""
    message = interaction.message
    anew = message is None or not message.flags.ephemeral
    reading = service.ended_table(game_id, channel_id=interaction.channel_id or 0)
    table = await in_time(interaction, reading, anew=anew)
    seat = table.seat_of(interaction.user.id) if table is not None else None
    if table is None or seat is None or table.match is None:
        await reply(interaction, text(interaction.locale, "error.game_gone"))
        return
    locale = str(interaction.locale)
    why = None  # a cancelled game's hand says why (one stored before: just that)
    if table.status is Status.CANCELLED:
        why = text(locale, end_key(table, None))
    await respond_hand(interaction, v2_payload(hand_view(table, seat, locale, faces, why)))

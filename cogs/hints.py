"""Hint commands: /lama hint and review, a hand's Hint button, a finished game's review button.

Every answer is private; its words are :mod:`bot.frontend.views.hints`'.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.frontend.cog_host import CogHost
from bot.frontend.cooldowns import reserved
from bot.frontend.custom_ids import HintButtonId
from bot.frontend.ended_hands import show_end
from bot.frontend.places import place_of
from bot.frontend.replies import Answers, Interaction, defer_private, reply, reply_error
from bot.frontend.views.hints import hint_line, queued_line, review_text
from bot.service import ServiceError
from bot.service.play.table import Table
from bot.service.thinking.hints import Hint
from game.ai.advice import Review

from .lama_cog import LamaCog

log = logging.getLogger(__name__)


class HintCommands(LamaCog, name="Hints"):
    """/lama hint and review, a hand's Hint button and a finished game's review button."""

    def __init__(self, bot: CogHost) -> None:
        super().__init__(bot)
        # A shutdown cuts searches short; their players' answers still go out.
        self.answers = Answers()

    async def cog_load(self) -> None:
        await super().cog_load()
        # A click is given the table its place check found: looked up once.
        self.route_at_table(HintButtonId, self.handle_button)

    async def cog_unload(self) -> None:
        await self.answers.sent()
        await super().cog_unload()

    @app_commands.command(
        name="hint", description="What Hard would do now, and why; only you see it."
    )
    async def hint_command(self, interaction: Interaction) -> None:
        await self.hint(
            interaction, self.bot.service.registry.table_in(interaction.channel_id or 0)
        )

    @app_commands.command(
        name="review",
        description="Your three costliest decisions in your last finished game here.",
    )
    async def review_command(self, interaction: Interaction) -> None:
        service = self.bot.service
        await self._review(
            interaction,
            lambda: service.hints.latest_review(
                place_of(interaction),
                interaction.channel_id or 0,
                interaction.user.id,
                on_queued=tell_queued(interaction),
            ),
        )

    async def handle_button(
        self, interaction: Interaction, cid: HintButtonId, table: Table | None
    ) -> None:
        if cid.action == "hint":
            if table is None or not table.live:
                # An old hand's Hint, its game over: the end, as its other buttons show.
                await show_end(interaction, self.bot.service, self.bot.faces, cid.game_id)
                return
            await self.hint(interaction, table)
            return
        service = self.bot.service
        await self._review(
            interaction,
            lambda: service.hints.review(
                cid.game_id,
                interaction.user.id,
                guild_id=place_of(interaction),
                on_queued=tell_queued(interaction),
            ),
        )

    async def _review(
        self, interaction: Interaction, asking: Callable[[], Awaitable[Review]]
    ) -> None:
        """The review ``asking`` gets, answered; one refused (the game isn't over yet)
        or failed on the way costs no wait."""

        async def given() -> Review | None:
            async with self.answers.giving():
                # Hard may think for seconds: a private "thinking…" says so at once (a
                # button's quiet ack would show nothing), and the review fills it in.
                await defer_private(interaction, anew=True)
                try:
                    review = await asking()
                except ServiceError as error:
                    await reply_error(interaction, error)
                    return None
                await reply(interaction, review_text(str(interaction.locale), review))
                return review

        await reserved(interaction, self.bot.service.cooldowns, "review", given)

    async def hint(self, interaction: Interaction, table: Table | None) -> None:
        """A hint at ``table`` (the one the click or command found; None: no game here)."""
        service = self.bot.service
        try:
            service.hints.hint_view(table, interaction.user.id)  # refused before the defer
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        await reserved(
            interaction, service.cooldowns, "hint", lambda: self._give_hint(interaction, table)
        )

    async def _give_hint(self, interaction: Interaction, table: Table | None) -> Hint | None:
        """The hint, given; None once the person is told why not (the turn moved on
        while the answer was deferred, the bot is restarting)."""
        async with self.answers.giving():
            await defer_private(interaction)  # Hard thinks for a moment
            try:
                shown = await self.bot.service.hints.hint(table, interaction.user.id)
            except ServiceError as error:
                await reply_error(interaction, error)
                return None
            await reply(interaction, hint_line(str(interaction.locale), shown))
            return shown


def tell_queued(interaction: Interaction) -> Callable[[int], Awaitable[None]]:
    """Tells the asker, privately, that their review waits its turn; it still comes
    if that line can't be sent."""

    async def told(ahead: int) -> None:
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, queued_line(str(interaction.locale), ahead))

    return told


async def setup(bot: CogHost) -> None:
    await bot.add_cog(HintCommands(bot))

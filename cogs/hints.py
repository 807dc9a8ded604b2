"""Hints and reviews: /lama hint, /lama review, the Hint button of a hand and the
review button of a finished game. Every answer is private."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from babel.numbers import format_decimal
from discord import app_commands

from bot.i18n import language_of, text
from bot.service import ServiceError
from bot.service.hints import Hint
from game import Action, Play, Quit, Ruleset, penalty_points
from game.ai.advice import Review

from .components import ComponentId
from .glue import Answers, Interaction, LamaCog, defer_private, reply, reply_error
from .render import card_name

if TYPE_CHECKING:
    from bot.client import LamaBot

log = logging.getLogger(__name__)


class Hints(LamaCog):
    def __init__(self, bot: LamaBot) -> None:
        super().__init__(bot)
        # A shutdown cuts searches short; their players' answers still go out.
        self.answers = Answers()

    async def cog_unload(self) -> None:
        await self.answers.sent()
        await super().cog_unload()

    @app_commands.command(
        name="hint", description="What Hard would do now, and why; only you see it."
    )
    async def hint_command(self, interaction: Interaction) -> None:
        table = self.bot.service.table_in(interaction.channel_id or 0)
        await self.hint(interaction, table.game_id if table is not None else 0)

    @app_commands.command(
        name="review",
        description="Your three costliest decisions in your last finished game here.",
    )
    async def review_command(self, interaction: Interaction) -> None:
        async with self.answers.giving():
            await defer_private(interaction)
            try:
                review = await self.bot.service.latest_review(
                    interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id
                )
            except ServiceError as error:
                await reply_error(interaction, error)
                return
            await reply(interaction, review_text(str(interaction.locale), review))

    async def handle_component(self, interaction: Interaction, cid: ComponentId) -> None:
        if cid.action == "hint":
            await self.hint(interaction, cid.game_id)
            return
        async with self.answers.giving():
            await defer_private(interaction)
            try:
                review = await self.bot.service.review(
                    cid.game_id, interaction.user.id, guild_id=interaction.guild_id or 0
                )
            except ServiceError as error:
                await reply_error(interaction, error)
                return
            await reply(interaction, review_text(str(interaction.locale), review))

    async def hint(self, interaction: Interaction, game_id: int) -> None:
        service = self.bot.service
        try:
            service.hint_view(game_id, interaction.user.id)  # refused before the defer
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        async with self.answers.giving():
            await defer_private(interaction)  # Hard thinks for a moment
            try:
                shown = await service.hint(game_id, interaction.user.id)
            except ServiceError as error:
                await reply_error(interaction, error)
                return
            await reply(interaction, hint_line(str(interaction.locale), shown))


# ---------------------------------------------------------------- texts
def _points(locale: str, value: float, *, fine: bool = False) -> str:
    """Expected points as a whole number, or to a tenth (``fine``) in the language's way."""
    if not fine:
        return str(round(value))
    return format_decimal(round(value, 1), format="0.0", locale=language_of(locale))


def move_text(locale: str, prefix: str, action: Action, ruleset: Ruleset) -> str:
    """A move in the words of ``prefix``: ``hint.move``, ``review.you`` or ``review.hard``."""
    if isinstance(action, Play):
        return text(locale, f"{prefix}.play", card=card_name(locale, action.card, ruleset))
    return text(locale, f"{prefix}.quit" if isinstance(action, Quit) else f"{prefix}.draw")


def hint_line(locale: str, hint: Hint) -> str:
    """One line: Hard's move and why, in the points each choice is expected to cost."""
    view, advice = hint.view, hint.advice
    now = penalty_points(view.hand, view.ruleset)
    chosen = advice.of(advice.choice)
    others = [e for e in advice.estimates if e.action != advice.choice]
    if not others:
        why = text(locale, "hint.why.only", now=now)
    else:
        # Compared with the move Hard rates next best; to a tenth where whole
        # numbers would look the same.
        other = max(others, key=lambda e: e.value)
        fine = round(chosen.cost) == round(other.cost)
        cost = _points(locale, chosen.cost, fine=fine)
        going = _points(locale, other.cost, fine=fine)
        if isinstance(advice.choice, Quit):
            why = text(locale, "hint.why.quit", now=now, going=_points(locale, other.cost))
        elif isinstance(other.action, Quit):
            why = text(locale, "hint.why.vs_quit", cost=_points(locale, chosen.cost), now=now)
        elif isinstance(other.action, Play):
            card = card_name(locale, other.action.card, view.ruleset)
            why = text(locale, "hint.why.vs_play", cost=cost, card=card, other=going)
        else:
            why = text(locale, "hint.why.vs_draw", cost=cost, other=going)
        if round(chosen.cost) > round(other.cost) and chosen.value > other.value:
            # Hard plays for the game (its chance of winning it), not for this
            # round's points alone.  An equal chance (a game lost or won
            # whatever the move) is no reason: then Hard's move is Normal's.
            why += text(locale, "hint.why.others")
    return text(
        locale,
        "hint.line",
        move=move_text(locale, "hint.move", advice.choice, view.ruleset),
        why=why,
    )


def review_text(locale: str, review: Review) -> str:
    lines = [f"**{text(locale, 'review.title')}**"]
    for place, decision in enumerate(review.decisions, 1):
        saved = round(decision.saved)
        lines.append(
            text(
                locale,
                "review.line",
                place=place,
                round=decision.round_no,
                move=decision.move_no,
                played=move_text(locale, "review.you", decision.played, review.ruleset),
                better=move_text(locale, "review.hard", decision.better, review.ruleset),
                saved=text(locale, "review.saved", count=saved)
                if saved >= 1
                else text(locale, "review.saved_less"),
            )
        )
    if not review.checked:
        lines.append(text(locale, "review.busy"))
        return "\n".join(lines)
    if review.decisions:
        lines.append("-# " + text(locale, "review.footer"))
    elif review.complete:
        lines.append(text(locale, "review.none"))
    if not review.complete:
        lines.append("-# " + text(locale, "review.partial", count=review.checked))
    return "\n".join(lines)


async def setup(bot: LamaBot) -> None:
    await bot.add_cog(Hints(bot))

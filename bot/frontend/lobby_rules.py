"""The lobby's House rules: the host's private select, and each pick made, saved and shown."""

from __future__ import annotations

from bot.i18n import text
from bot.service import GameService, ServiceError
from bot.service.play.table import Status, Table

from .cog_host import TablePresenter
from .cooldowns import reserved
from .custom_ids import RulePick
from .replies import Interaction, in_time, reply, reply_error, send_view
from .views.lobby import house_rules_view


async def show_house_rules(interaction: Interaction, table: Table) -> None:
    """The lobby's House rules button: the host gets the select privately; anyone else,
    or a lobby started meanwhile, a private word why not."""
    locale = str(interaction.locale)
    if table.status is not Status.LOBBY:
        await reply(interaction, text(locale, "error.lobby_closed"))
    elif interaction.user.id != table.host_id:
        await reply(interaction, text(locale, "error.rules_host_only"))
    else:
        await send_view(interaction, house_rules_view(table, locale), ephemeral=True)


async def change_rule(
    interaction: Interaction,
    pick: RulePick,
    table: Table | None,
    service: GameService,
    presenter: TablePresenter,
) -> None:
    """A pick of the house rules select: within the person's "lobby" wait, the rule is
    changed (saved first: :meth:`~bot.service.play.lobbies.Lobbies.change_rules`), the
    select's message shows the rules now and the lobby is brought up to date. A refusal
    is told privately. ``table`` is the one the click's place check found."""
    if table is None or table.status is not Status.LOBBY:
        await reply(interaction, text(interaction.locale, "error.lobby_closed"))
        return

    async def changing() -> bool | None:
        change = service.lobbies.change_rules(table, interaction.user.id, **{pick.name: pick.value})
        try:
            await in_time(interaction, change)
        except ServiceError as error:
            await reply_error(interaction, error)
            return None  # refused: the wait is given back
        return True

    if not await reserved(interaction, service.cooldowns, "lobby", changing):
        return
    presenter.request(table)
    view = house_rules_view(table, str(interaction.locale))
    if interaction.response.is_done():  # acknowledged while the store was slow
        await interaction.edit_original_response(view=view)
    else:
        await interaction.response.edit_message(view=view)

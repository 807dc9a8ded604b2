"""The chart post: one message with a finished game's chip chart, once per game."""

from __future__ import annotations

import asyncio
import logging

from bot.limiter import Priority
from bot.service import ServiceError
from bot.service.play.table import Table

from .background import Background
from .discord_errors import FAILURES, transient
from .host import Host
from .places import bot_present
from .tokens import Token, Tokens
from .views.stats import chart_file, finished_chart

log = logging.getLogger(__name__)

CHART_TRIES = 4  # the chart is cosmetic: given up after this many failures


def chart_name(table: Table) -> str:
    """The name of the task posting a finished game's chart."""
    return f"lama-chart-{table.game_id}"


class ChartPost:
    """Posts each finished game's chart, with the newest click's token if it works."""

    def __init__(self, host: Host, tokens: Tokens, background: Background) -> None:
        self.host = host
        self.tokens = tokens
        self.background = background
        self.charted: set[int] = set()  # finished games whose chart was posted

    def forget(self, game_id: int) -> None:
        self.charted.discard(game_id)  # its chart went out with the notice that finished it

    def finished(self, table: Table) -> None:
        """The game is finished: its chart goes out, unless it did already (also after
        a restart: once done with, stored so)."""
        if table.game_id not in self.charted:
            self.charted.add(table.game_id)
            self.background.spawn(self._posted(table, self.tokens.sender(table)), chart_name(table))

    def stop(self, table: Table) -> None:
        """The table is gone: its chart is not posted."""
        for task in self.background.named(chart_name(table)):
            if task is not asyncio.current_task():
                task.cancel()

    async def _posted(self, table: Table, token: Token | None) -> None:
        # Posted, or given up on: either way a restart must not post it again. (A bot
        # stopped meanwhile cancels this, so its next start posts it.)
        if await self._post(table, token):
            await self.host.service.front.chart_posted(table.game_id)

    async def _post(self, table: Table, token: Token | None) -> bool:
        """One message with the finished game's chip chart, read from the store: True
        once done with it (posted, or given up on), False if the store could not say."""
        try:
            chart = await finished_chart(
                self.host.service, self.host.faces, table.game_id, table.locale
            )
        except ServiceError as error:  # the store failed (its error is logged where read)
            log.warning("game %s: could not load the chart: %s", table.game_id, error)
            return False
        if chart is None:
            return True
        shown, png = chart
        channel = self.host.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        failures = 0
        while True:
            if not self.tokens.fresh(token):
                token = self.tokens.sender(table)
            try:
                if token is not None:
                    self.tokens.sent(token)
                    await token.webhook.send(view=shown, file=chart_file(png), wait=True)
                elif not bot_present(self.host, table.guild_id):
                    return True  # nobody clicked lately and the bot can't write there
                else:
                    await self.host.limiter.acquire(Priority.COSMETIC)
                    await channel.send(view=shown, file=chart_file(png))
                return True
            except FAILURES as error:
                failures += 1
                if token is not None and not transient(error):
                    self.tokens.failed(token)  # never again; another click's, or the bot's
                    token = None
                    continue
                if not transient(error) or failures >= CHART_TRIES:
                    log.warning("game %s: could not post the chart: %s", table.game_id, error)
                    return True
            await asyncio.sleep(self.host.pacing.backoff(failures))

"""Re-exports only, for cogs/presenter.py until it imports bot.frontend.views; then delete."""

from bot.frontend.views.hand import hand_view
from bot.frontend.views.lobby import closed_view, lobby_view
from bot.frontend.views.table import table_view

__all__ = ["closed_view", "hand_view", "lobby_view", "table_view"]

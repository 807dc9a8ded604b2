"""Re-exports only, for cogs/presenter.py until it imports bot.frontend.faces; then delete."""

from bot.frontend.faces import PLAIN, Faces

__all__ = ["PLAIN", "Faces"]

"""discord.py extensions (cogs) loaded by :class:`bot.bot.LamaBot`."""

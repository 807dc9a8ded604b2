"""discord.py extensions (cogs) loaded by :class:`bot.client.LamaBot`."""

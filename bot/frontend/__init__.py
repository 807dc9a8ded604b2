"""The Discord front end: what players see of the games (views, words, buttons, the
presenter of table changes), within the bot token's REST budget; no cogs."""

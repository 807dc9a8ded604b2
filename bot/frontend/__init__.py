"""The Discord front end: what players see of the games, within the bot token's REST budget."""

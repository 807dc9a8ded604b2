"""Discord front end of lama-bot: configuration, entry point and the bot class."""

"""The Discord front end: what players see of the games, within the bot token's budget.

Views, words, buttons and the presenter of table changes; it imports no cog.
"""

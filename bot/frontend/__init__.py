"""The Discord front end: words, faces, custom ids, buttons and message layouts (no cogs)."""

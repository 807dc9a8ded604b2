"""Persistence layer (SQLite via aiosqlite) for games, settings and statistics."""

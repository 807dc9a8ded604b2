"""Benchmarks and the tools that measure or tune the AI (not part of the bot)."""

"""Finished games: replays step by step and the CSV export."""

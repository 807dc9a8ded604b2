"""Maintenance scripts, run as ``python -m scripts.<name>``."""

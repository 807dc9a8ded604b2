"""Ratings: the rater, who ranks where, the shown scale, seasons, closed games."""

"""Tests of the test kit itself: it must behave as Discord documents."""

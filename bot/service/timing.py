"""How long things take: pauses, warnings and idle limits, in seconds.

The service reads these through the module (``timing.AI_DELAY``), so a test
can shorten a pause for the whole service at once.
"""

AI_DELAY = 0.8  # between AI moves, so people can follow them
WARNING_BEFORE = 30  # warning before a turn runs out
MISSES_BEFORE_TAKEOVER = 2
LOBBY_IDLE = 15 * 60
GAME_IDLE = 3 * 24 * 60 * 60  # a game without a turn timer ends after this without a move
SAVE_RETRY = 10  # before a timed-out turn that couldn't be saved is tried again
AI_RETRY = 2.0  # at least this before an AI move that couldn't be saved is tried again...
AI_RETRY_MAX = 60.0  # ...doubling with each failure up to this
REVIEW_BUDGET = 20.0  # of thinking for a finished game's review; what is left is not looked at
# A shutdown lets a hint or review being thought finish within this; the rest are cut
# short, and their players told the bot is restarting.
ANSWER_GRACE = 1.0

"""The game service, split by job:

- ``errors``: refusals, people, move outcomes and the listener the front end is;
- ``timing``: pauses and limits (patch them there: ``bot.service.timing.AI_DELAY``);
- ``records``: tables to store records and back;
- ``core``: the shared state, saving, notices and closing;
- ``clocks``: turn, warning and idle clocks;
- ``play``: the move pipeline and AI turns;
- ``seats``: coming back, kicks, leaving;
- ``lobby``: lobbies and rematches;
- ``hints``: hints for the player to move, and finished games' reviews;
- ``resume``: the service as a whole, and picking up after a restart.
"""

from game import IllegalMove

from .errors import MoveOutcome, Person, ServiceError, TableListener
from .resume import GameService
from .timing import (
    GAME_IDLE,
    LOBBY_IDLE,
    MISSES_BEFORE_TAKEOVER,
    SAVE_RETRY,
    WARNING_BEFORE,
)

__all__ = [
    "GAME_IDLE",
    "LOBBY_IDLE",
    "MISSES_BEFORE_TAKEOVER",
    "SAVE_RETRY",
    "WARNING_BEFORE",
    "GameService",
    "IllegalMove",
    "MoveOutcome",
    "Person",
    "ServiceError",
    "TableListener",
]

"""The game service: :class:`GameService`, which builds the parts the front end calls by name.

The parts sit in subpackages by job (``docs/architecture.md`` lists each):

- ``play``: tables, lobbies, moves, seat changes, clocks, deals, notices, resuming;
- ``thinking``: the AI pool and its gate, Hard's anytime search, AI turns, hints, reviews;
- ``ratings``: the rater, the boards, who ranks where, the shown scale, seasons, closing;
- ``history``: finished games' replays, stats and the CSV export.

What they all share stays here: ``service`` (``GameService``: the parts built, each a
public attribute), ``errors`` (refusals a person can read), ``person``, ``listener``
(the protocol the front end implements), ``timing``, ``saver``, ``cooldowns``,
``metrics``, ``log_context``, ``front_store`` and ``house_rules`` (a server's saved
house rules, and where their games are rated).
"""

from bot.service.errors import MoveRefused, ServiceError
from bot.service.listener import TableListener
from bot.service.person import Person
from bot.service.play.moves import MoveOutcome
from bot.service.service import GameService
from bot.service.thinking.hints import Hint
from bot.service.timing import Timing
from game import IllegalMove

__all__ = [
    "GameService",
    "Hint",
    "IllegalMove",
    "MoveOutcome",
    "MoveRefused",
    "Person",
    "ServiceError",
    "TableListener",
    "Timing",
]

"""The game service, split by job:

- ``service``: :class:`GameService`, the facade the front end talks to, which builds
  the parts below and forwards to them;
- ``errors``: refusals, people, move outcomes and the listener the front end is;
- ``timing``: pauses and limits (``Timing``; the service takes its own);
- ``table``: a table's in-memory state; ``rows``: tables to store rows and back;
- ``registry``: the live tables by id and channel (``TableRegistry``);
- ``saver``: store errors turned into refusals (``Saver``);
- ``notices``: telling the listener, closing tables, places gone (``Notices``);
- ``scheduler``: the one timer loop; ``clocks``: turn, warning and idle clocks
  (``TableClocks``);
- ``dealer``: seeded and scripted deals (``Dealer``);
- ``moves``: the move pipeline and timeouts (``MovePipeline``);
- ``thinking``: where the AI thinks; ``ai_turns``: the AI seats' moves (``AITurns``);
- ``seat_changes``: coming back, kicks, leaving (``SeatChanges``);
- ``lobbies``: lobbies and rematches (``Lobbies``);
- ``searches``: searches shared by their askers; ``hints``: hints and finished
  games' reviews (``HintDesk``);
- ``resume``: picking up after a restart (``Resumer``);
- ``ratings``: every finished game rated once, in order (``Rater``); ``rating_scale``:
  the shown number; ``seasons``: season arithmetic; ``season_plans``: a server's seasons
  (``SeasonPlans``);
- ``replay``: finished games step by step, every hand open (``Replays``);
- ``front_store``: languages, table messages, open hands, pings (``FrontStore``).
"""

from game import IllegalMove

from .errors import ServiceError
from .hints import Hint
from .listener import TableListener
from .moves import MoveOutcome
from .person import Person
from .service import GameService
from .timing import Timing

__all__ = [
    "GameService",
    "Hint",
    "IllegalMove",
    "MoveOutcome",
    "Person",
    "ServiceError",
    "TableListener",
    "Timing",
]

"""The L.A.M.A. rules engine: pure Python, standard library only.

It implements ``shared/RULES.md`` exactly — the base game and the No Drama,
Party Edition and Lato z Komarami variants in any combination, with the end
threshold as an option — and the house rules a host composes from the rule
dimensions (``game/rules.py``: the deck, the hand size, the last player's draw,
the chip an emptied hand gives back...).

The public API:

- :class:`Card` and :func:`build_deck`; :data:`FITS` says what may follow what.
- :class:`Ruleset` — one value per rule dimension (the editions are presets), validated on creation.
- :class:`Match` — a whole game.  ``deal(seed)`` is the explicit chance step
  that starts each round (``start_round`` takes a hand-made deal);
  ``legal_actions()`` lists the moves of the player to move; ``verify``,
  ``can`` and ``apply`` check and make a move.  An illegal move raises an
  :class:`IllegalMove` whose message a player can read, and changes nothing.
- :class:`Round` — one round; ``step`` is the unchecked fast path for
  simulations that pick their moves from ``legal_actions``.  ``Match.step`` is
  the same for a whole match: unchecked, but it records the event and scores
  the round when it ends (``Match.apply`` is ``verify`` and then ``step``).
- :class:`Play`, :data:`DRAW`, :data:`QUIT` (and :data:`PLAY` by card) — moves.
- :meth:`Match.view` gives a :class:`SeatView`: what one seat may know;
  :meth:`Match.public_view` a :class:`PublicView`: what everyone may know.
- Every deal and move is a frozen event (:class:`RoundDealt`,
  :class:`CardPlayed`, :class:`CardDrawn`, :class:`PlayerQuit`) kept in
  ``Match.events``; ``event.to_json()`` and :func:`event_from_json` round-trip
  them, and ``Match.replay(ruleset, players, events)`` rebuilds an equal match.
- A finished round leaves a :class:`RoundResult` in ``Match.results``: each
  hand revealed, its :class:`Penalty`, the chips gained or returned and the
  totals after — the rows of a chip history.

Example::

    >>> from game import Match, Ruleset, PLAY, DRAW
    >>> match = Match(Ruleset(no_drama=True), players=3)
    >>> dealt = match.deal(seed=7)
    >>> seat = match.to_move
    >>> move = match.legal_actions()[0]
    >>> event = match.apply(seat, move)
    >>> Match.replay(match.ruleset, 3, match.events) == match
    True
"""

from .actions import DRAW, PLAY, QUIT, Action, Draw, Play, Quit
from .cards import ALL_CARDS, FITS, NUMBERS, PLUS_CARDS, Card, build_deck, fits, sorted_cards
from .chips import BLACK, PINK, WHITE, Chips
from .errors import (
    CardDoesNotFit,
    CardNotInHand,
    DrawPileEmpty,
    GameOver,
    IllegalMove,
    LastPlayerCannotDraw,
    NoSuchSeat,
    NotInRound,
    NotYourTurn,
    ReplayError,
    RoundOver,
)
from .events import (
    CardDrawn,
    CardPlayed,
    Event,
    MoveEvent,
    PlayerQuit,
    RoundDealt,
    event_from_json,
)
from .match import Match, require_whole_deck
from .results import RoundResult, SeatResult
from .round import Round, explicit_deal
from .rules import (
    DIMENSIONS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    ChipBack,
    Dimension,
    LlamaCost,
    Ruleset,
    RulesetError,
)
from .scoring import Penalty, best_discard, penalty, penalty_points
from .view import PublicView, SeatView

__all__ = [
    "DIMENSIONS",
    "PRESETS",
    "ChipBack",
    "Dimension",
    "LlamaCost",
    "ALL_CARDS",
    "BLACK",
    "DRAW",
    "FITS",
    "HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NUMBERS",
    "PINK",
    "PLAY",
    "PLUS_CARDS",
    "QUIT",
    "WHITE",
    "Action",
    "Card",
    "CardDoesNotFit",
    "CardDrawn",
    "CardNotInHand",
    "CardPlayed",
    "Chips",
    "Draw",
    "DrawPileEmpty",
    "Event",
    "GameOver",
    "IllegalMove",
    "LastPlayerCannotDraw",
    "Match",
    "MoveEvent",
    "NoSuchSeat",
    "NotInRound",
    "NotYourTurn",
    "Penalty",
    "Play",
    "PlayerQuit",
    "PublicView",
    "Quit",
    "ReplayError",
    "Round",
    "RoundDealt",
    "RoundOver",
    "RoundResult",
    "Ruleset",
    "RulesetError",
    "SeatResult",
    "SeatView",
    "best_discard",
    "build_deck",
    "event_from_json",
    "explicit_deal",
    "require_whole_deck",
    "fits",
    "penalty",
    "penalty_points",
    "sorted_cards",
]

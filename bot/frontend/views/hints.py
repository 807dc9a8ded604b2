"""The words of a hint (Hard's move and why) and of a review (a player's costliest decisions)."""

from __future__ import annotations

from bot.i18n import text
from bot.service.thinking.hints import Hint
from game import Action, Play, Quit, Ruleset, penalty_points
from game.ai.advice import Decision, Review

from ..words import card_name, percent, points


def move_text(locale: str, prefix: str, action: Action, ruleset: Ruleset) -> str:
    """A move in the words of ``prefix``: ``hint.move``, ``review.you`` or ``review.hard``."""
    if isinstance(action, Play):
        return text(locale, f"{prefix}.play", card=card_name(locale, action.card, ruleset))
    return text(locale, f"{prefix}.quit" if isinstance(action, Quit) else f"{prefix}.draw")


def hint_line(locale: str, hint: Hint) -> str:
    """One line: Hard's move and why, in the points each choice is expected to cost."""
    view, advice = hint.view, hint.advice
    now = penalty_points(view.hand, view.ruleset)
    chosen = advice.of(advice.choice)
    others = [e for e in advice.estimates if e.action != advice.choice]
    if not others:
        why = text(locale, "hint.why.only", now=now)
    else:
        # Compared with the move Hard rates next best; to a tenth where whole
        # numbers would look the same.
        other = max(others, key=lambda e: e.value)
        fine = round(chosen.cost) == round(other.cost)
        cost = points(locale, chosen.cost, fine=fine)
        going = points(locale, other.cost, fine=fine)
        if isinstance(advice.choice, Quit):
            why = text(locale, "hint.why.quit", now=now, going=points(locale, other.cost))
        elif isinstance(other.action, Quit):
            why = text(locale, "hint.why.vs_quit", cost=points(locale, chosen.cost), now=now)
        elif isinstance(other.action, Play):
            card = card_name(locale, other.action.card, view.ruleset)
            why = text(locale, "hint.why.vs_play", cost=cost, card=card, other=going)
        else:
            why = text(locale, "hint.why.vs_draw", cost=cost, other=going)
        if round(chosen.cost) > round(other.cost) and chosen.value > other.value:
            # Hard plays for the game (its chance of winning it), not for this
            # round's points alone.  An equal chance (a game lost or won
            # whatever the move) is no reason: then Hard's move is Normal's.
            why += text(locale, "hint.why.others")
    return text(
        locale,
        "hint.line",
        move=move_text(locale, "hint.move", advice.choice, view.ruleset),
        why=why,
    )


def cost_text(locale: str, decision: Decision) -> str:
    """What a decision lost by Hard's measure, in words: the chance to win the game
    (whole percentage points) and the points, losses first, then what it gained."""
    chance, points_ = round(decision.chance), round(decision.points)
    lost: list[str] = []
    gained: list[str] = []
    if chance >= 1:
        lost.append(text(locale, "review.chance_lost", percent=percent(locale, chance / 100)))
    if points_ >= 1:
        lost.append(text(locale, "review.points_lost", count=points_))
    if not lost:
        lost.append(text(locale, "review.lost_less"))
    if points_ <= -1:
        gained.append(text(locale, "review.points_saved", count=-points_))
    if chance <= -1:
        gained.append(text(locale, "review.chance_gained", percent=percent(locale, -chance / 100)))
    return ", ".join(lost + gained)


def review_text(locale: str, review: Review) -> str:
    """The review: the decisions that lost the most by Hard's measure, and which measure."""
    lines = [f"**{text(locale, 'review.title')}**"]
    for place, decision in enumerate(review.decisions, 1):
        lines.append(
            text(
                locale,
                "review.line",
                place=place,
                round=decision.round_no,
                move=decision.move_no,
                played=move_text(locale, "review.you", decision.played, review.ruleset),
                better=move_text(locale, "review.hard", decision.better, review.ruleset),
                cost=cost_text(locale, decision),
            )
        )
    if not review.checked:
        lines.append(text(locale, "review.busy"))
        return "\n".join(lines)
    if review.decisions:
        lines.append("-# " + text(locale, "review.footer"))
    elif review.complete:
        lines.append(text(locale, "review.none"))
    if not review.complete:
        partial = text(locale, "review.partial", count=review.checked)
        lines.append(f"-# {partial} {text(locale, 'review.go_on')}")
    return "\n".join(lines)


def queued_line(locale: str, ahead: int) -> str:
    """A review waiting its turn: how many go first."""
    return text(locale, "review.queued", count=ahead)

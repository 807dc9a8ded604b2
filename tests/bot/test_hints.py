"""Hints through Discord: the Hint button and /lama hint, the table option and its
badge, and a finished game's "Your three costliest decisions"."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.service.play.table import Status
from game import Card as C
from testkit.simcord_play import (
    custom_ids,
    enabled,
    forged,
    open_hand,
    open_lobby,
    rig,
    service,
    started_game,
    table_message,
    take_simple_turn,
    texts,
    two_player_game,
)

from .i18n.conftest import Locales, locales  # noqa: F401  (a fixture, found by name)


def said(result: Any) -> str:
    """What the bot answered, privately: the followup of a deferred click, else the
    response (a deferred command's answer fills it in)."""
    answers = result.followups or ([result.response] if result.response is not None else [])
    assert answers, "no answer"
    assert all(a.ephemeral for a in answers), "a hint or review must be private"
    return str(answers[-1].content)


def hint_button(hand: Any) -> list[str]:
    return [cid for cid, _label, _off in custom_ids(hand) if cid.startswith("lama:hint:")]


async def quit_or_draw_game(
    env: simcord.Env,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    channel: Any,
    **options: Any,
) -> Any:
    """Alice to move with a lone 1 on a 4; Bob holds a 5, his only card: Hard quits."""
    rig(env, [[C.ONE], [C.FIVE]], C.FOUR, [])
    return await two_player_game(env, alice, bob, channel, threshold=1, turn_timer=0, **options)


@pytest.mark.slow  # the AI's real worker processes
async def test_the_player_to_move_gets_hards_move_in_one_line(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await quit_or_draw_game(simcord_env, alice, bob, channel)
    assert table.to_move == 0
    hand = await open_hand(alice, channel)
    assert hint_button(hand) and enabled(hand, "lama:hint:")

    clicked = await alice.click(hand, custom_id=hint_button(hand)[0])
    line = said(clicked)
    assert "\n" not in line
    assert line.startswith(
        "💡 **Quit**: your hand costs 1 now; going on is expected to cost about "
    )

    typed = await alice.slash(channel, "lama hint")
    assert said(typed) == line, "the same view gives the same hint"
    assert table.match is not None and len(table.match.events) == 1, "a hint makes no move"


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_no_hint_out_of_turn_for_others_or_after_the_game(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    table = await quit_or_draw_game(simcord_env, alice, bob, channel)
    waiting = await open_hand(bob, channel)
    assert not hint_button(waiting), "only the player to move sees the Hint button"
    assert said(await bob.slash(channel, "lama hint")) == (
        "A hint is for the player to move: wait for your turn."
    )
    assert said(await carol.slash(channel, "lama hint")) == "You're not in this game."

    hand = await open_hand(alice, channel)
    await take_simple_turn(alice, channel)  # draws
    await take_simple_turn(bob, channel)  # plays his last card: the game is over
    assert table.status is Status.FINISHED
    # The Hint of her hand from before shows how the game ended, as its other buttons do.
    late = await alice.click(hand, custom_id=hint_button(hand)[0])
    assert late.response.ephemeral and "game over" in texts(late.response), said(late)
    assert said(await alice.slash(channel, "lama hint")) == (
        "There's no game running here to give a hint for."
    )


@pytest.mark.slow  # the AI's real worker processes
@pytest.mark.cooldowns
async def test_a_hint_refused_costs_no_wait_so_it_can_be_asked_once_it_is_allowed(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Out of turn, bob is told so; the moment it is his turn, his hint comes."""
    rig(simcord_env, [[C.ONE], [C.FIVE, C.SIX]], C.FOUR, [C.TWO])
    await two_player_game(simcord_env, alice, bob, channel, threshold=1, turn_timer=0)
    assert said(await bob.slash(channel, "lama hint")).startswith("A hint is for the player")
    await take_simple_turn(alice, channel)  # draws
    assert said(await bob.slash(channel, "lama hint")).startswith("💡")


@pytest.mark.slow  # the AI's real worker processes
@pytest.mark.cooldowns
async def test_a_hint_that_could_not_be_answered_costs_no_wait(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Discord no longer takes the click's answer (it came too late: "Unknown
    interaction"): alice got no hint, so her next click gets one, not "too soon"."""
    await quit_or_draw_game(simcord_env, alice, bob, channel)
    hand = await open_hand(alice, channel)
    simcord_env.inject_error(
        "POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction"
    )
    lost = await alice.click(hand, custom_id=hint_button(hand)[0])
    assert not lost.followups, "no hint was given"
    again = await alice.click(hand, custom_id=hint_button(hand)[0])
    assert said(again).startswith("💡 **Quit**")


@pytest.mark.slow  # the AI's real worker processes
@pytest.mark.cooldowns
# Hard thinks up to 0.5 s a decision: on a busy machine a review outlasts SimCord's 5 s
# wait for the bot to settle after the click, which this test does not measure.
@pytest.mark.simcord(settle_timeout=60)
async def test_a_review_refused_costs_no_wait_so_it_comes_once_the_game_is_over(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await quit_or_draw_game(simcord_env, alice, bob, channel)
    early = said(await alice.slash(channel, "lama review"))
    assert early == "The review is there once the game is over."
    for player in (alice, bob):  # alice draws, bob plays his last card: the game is over
        await take_simple_turn(player, channel)
    assert said(await alice.slash(channel, "lama review")).startswith(
        "**🔍 Your three costliest decisions**"
    )
    again = said(await alice.slash(channel, "lama review"))
    assert again == "You're doing that too often. Please try again in 10 seconds.", (
        "a review given starts the wait"
    )


@pytest.mark.parametrize(
    ("locale", "answer"),
    [
        ("en-US", "That game was cancelled, so there is no review of it."),
        ("de", "Dieses Spiel wurde abgebrochen, deshalb gibt es dazu keine Auswertung."),
        ("es-ES", "Esa partida se canceló, así que no tiene revisión."),
        ("pl", "Ta gra została anulowana, więc nie ma do niej podsumowania."),
    ],
)
async def test_a_review_of_a_cancelled_game_says_it_was_cancelled(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    locales: Locales,  # noqa: F811
    locale: str,
    answer: str,
) -> None:
    """Not "once the game is over": a cancelled game never will be."""
    table = await two_player_game(simcord_env, alice, bob, channel)
    await alice.slash(channel, "lama cancel")
    assert table.status is Status.CANCELLED
    review = forged(simcord_env, channel, f"lama:review:{table.game_id}")
    assert said(await locales.user(bob, locale).click(review, label="Forged")) == answer


async def test_the_host_turns_hints_off_and_the_table_says_so(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    assert table.hints and "**Hints:** 💡 on" in texts(table_message(channel))
    refused = await bob.click(table_message(channel), label="Hints: on")
    assert said(refused) == "Only the host can do that."
    assert table.hints

    await alice.click(table_message(channel), label="Hints: on")
    assert not table.hints
    assert "**Hints:** off" in texts(table_message(channel))
    stored = await service(simcord_env).store.games.load_game(table.game_id)
    assert stored is not None and stored.hints is False

    rig(simcord_env, [[C.ONE], [C.FIVE]], C.FOUR, [])
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    assert "💡" not in texts(table_message(channel)), "no badge when hints are off"
    hand = await open_hand(alice, channel)
    assert not hint_button(hand)
    assert said(await alice.slash(channel, "lama hint")) == "Hints are off at this table."


async def test_a_table_with_hints_shows_the_badge_and_the_option_turns_them_off(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await quit_or_draw_game(simcord_env, alice, bob, channel)
    badges = texts(table_message(channel)).split("\n")[1]  # small print under the title
    assert badges.startswith("-# ") and badges.endswith("· 💡 hints on")

    other = guild.create_text_channel("quiet-table")
    table = await quit_or_draw_game(simcord_env, alice, bob, other, hints=False)
    assert not table.hints and "💡" not in texts(table_message(other))


@pytest.mark.slow  # the AI's real worker processes
# Hard thinks up to 0.5 s a decision: on a busy machine a review outlasts SimCord's 5 s
# wait for the bot to settle after the click, which this test does not measure.
@pytest.mark.simcord(settle_timeout=60)
async def test_the_review_lists_the_costliest_decisions_once_the_game_is_over(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await quit_or_draw_game(simcord_env, alice, bob, channel)
    assert said(await alice.slash(channel, "lama review")) == (
        "The review is there once the game is over."
    )
    early = forged(simcord_env, channel, f"lama:review:{table.game_id}")
    assert said(await alice.click(early, label="Forged")) == (
        "The review is there once the game is over."
    )

    await take_simple_turn(alice, channel)  # draws, where Hard would quit
    await take_simple_turn(bob, channel)
    assert table.status is Status.FINISHED
    await simcord_env.advance_time(3)
    final = table_message(channel)
    shown = said(await alice.click(final, label="Your three costliest decisions"))
    lines = shown.split("\n")
    assert lines[0] == "**🔍 Your three costliest decisions**"
    # The threshold is 1: the round ends the game, and drawing lost Alice her chance of it.
    assert lines[1].startswith("1. Round 1, move 1: you drew; Hard would quit · −")
    assert "% chance to win the game" in lines[1]
    assert lines[-1].startswith("-# Ranked by Hard's measure")
    assert not any(line.startswith("2. ") for line in lines), "one decision differed"
    assert said(await alice.slash(channel, "lama review")) == shown

    # Bob played his only sensible card: nothing to regret.
    calm = said(await bob.click(final, label="Your three costliest decisions"))
    assert calm.split("\n")[1] == (
        "By Hard's measure none of your decisions cost you anything. Well played!"
    )
    carol = guild.add_member(simcord_env.create_user("carol"))
    assert said(await carol.click(final, label="Your three costliest decisions")) == (
        "You're not in this game."
    )


@pytest.mark.slow  # over a quarter second on a quiet machine
# Hard thinks up to 0.5 s a decision: on a busy machine a review outlasts SimCord's 5 s
# wait for the bot to settle after the click, which this test does not measure.
@pytest.mark.simcord(settle_timeout=60)
async def test_the_review_button_says_at_once_that_hard_is_thinking(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """A review may take Hard seconds: the click is answered at once with a private
    "thinking…" (a quiet ack showed nothing meanwhile), and the review fills it in."""
    table = await quit_or_draw_game(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    await take_simple_turn(bob, channel)
    assert table.status is Status.FINISHED
    before = len(simcord_env.http_requests)
    clicked = await alice.click(table_message(channel), label="Your three costliest decisions")
    calls = simcord_env.http_requests[before:]
    (ack,) = [call.json for call in calls if call.path.endswith("/callback")]
    assert ack["type"] == 5 and ack["data"]["flags"] & 64, "a private 'thinking…' at once"
    assert clicked.response is not None and clicked.response.ephemeral
    assert clicked.response.content.startswith("**🔍 Your three costliest decisions**")


@pytest.mark.slow  # the AI's real worker processes
async def test_a_hint_uses_nothing_but_the_players_own_view(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The same hand, top card and counts, with Bob's cards and the pile dealt
    differently at two tables: Alice gets the same hint at both."""
    mine = [C.TWO, C.FIVE, C.LLAMA, C.ONE, C.ONE, C.SIX]
    hints = []
    for name, his, pile in (
        ("first", [C.SIX] * 6, [C.THREE, C.FOUR]),
        ("second", [C.THREE, C.THREE, C.FOUR, C.FOUR, C.LLAMA, C.TWO], [C.SIX, C.SIX]),
    ):
        here = guild.create_text_channel(name)
        rig(simcord_env, [mine, his], C.ONE, pile)
        table = await two_player_game(simcord_env, alice, bob, here, turn_timer=0)
        assert table.match is not None and table.match.round is not None
        hints.append(said(await alice.slash(here, "lama hint")))
    assert hints[0] == hints[1]
    assert hints[0].startswith("💡 **")


def test_the_review_leaves_out_timeouts_and_moves_an_ai_made_for_the_seat() -> None:
    from bot.service.thinking.hints import made_for
    from data import SeatNote, SeatRecord
    from game import Match, Ruleset
    from testkit.records import finished_record

    match = Match(Ruleset(), 2)
    match.deal(seed=1)
    for _ in range(8):
        seat = match.to_move
        if seat is None:
            break
        match.apply(seat, match.legal_actions()[0])
    record = finished_record(
        (SeatRecord(0, 1, None, "alice"), SeatRecord(1, 2, None, "bob")),
        match.events,
        automatic={2: "timeout"},
        # Alice's seat is taken over after seq 3 and given back at seq 6; Bob's
        # note is not hers.
        notes=(SeatNote(3, 0, "takeover"), SeatNote(4, 1, "kicked"), SeatNote(6, 0, "back")),
    )
    assert made_for(record, 0) == frozenset({2, 3, 4, 5})
    assert made_for(record, 1) == frozenset({2, *range(4, len(match.events))})


@pytest.mark.slow  # the AI's real worker processes
async def test_a_hint_is_thought_in_the_ai_workers_not_on_the_event_loop(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    import multiprocessing

    bob = guild.add_member(simcord_env.create_user("bob"))
    before = set(multiprocessing.active_children())
    await quit_or_draw_game(simcord_env, alice, bob, channel)
    assert said(await alice.slash(channel, "lama hint")).startswith("💡 **Quit**")
    assert set(multiprocessing.active_children()) - before, "no worker process thought it"


async def test_no_hint_for_a_seat_an_ai_plays(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    rig(simcord_env, [[C.ONE], [C.FIVE], [C.SIX]], C.FOUR, [], starter=1)
    await started_game(simcord_env, alice, [bob, carol], channel, turn_timer=0)
    await alice.slash(channel, "lama kick", member=bob.user)
    # Kicked: the seat is the AI's for the rest of the game, no "I'm back" to press.
    assert said(await bob.slash(channel, "lama hint")) == (
        "Your seat was handed to an AI for the rest of this game."
    )


@pytest.mark.slow  # the AI's real worker processes
# Hard thinks up to 0.5 s a decision: on a busy machine a review outlasts SimCord's 5 s
# wait for the bot to settle after the click, which this test does not measure.
@pytest.mark.simcord(settle_timeout=60)
async def test_a_review_stops_at_its_time_budget_and_says_so(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await quit_or_draw_game(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    await take_simple_turn(bob, channel)
    assert table.status is Status.FINISHED
    timing = service(simcord_env).timing
    timing.review_budget = 0.0
    final = table_message(channel)
    busy = said(await alice.click(final, label="Your three costliest decisions"))
    assert busy.split("\n")[1] == (
        "There was no time for a review just now. Please try again in a few minutes."
    )
    timing.review_budget = 20.0
    again = said(await alice.click(final, label="Your three costliest decisions"))
    assert again.split("\n")[1].startswith("1. Round 1, move 1: you drew; Hard would quit"), (
        "a review cut short is not kept: asked again, it looks at the whole game"
    )


@pytest.mark.slow  # the AI's real worker processes
async def test_mashing_hint_thinks_once_so_other_tables_moves_are_not_queued_behind(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """Twenty Hint clicks at once (and more after) put one search in the AI workers."""
    import asyncio

    bob = guild.add_member(simcord_env.create_user("bob"))
    table = await quit_or_draw_game(simcord_env, alice, bob, channel)
    games = service(simcord_env)
    thought: list[Any] = []
    real_run = games.thinking.run

    async def counted(work: Any, *args: Any, **options: Any) -> Any:
        thought.append(work)
        return await real_run(work, *args, **options)

    games.thinking.run = counted  # type: ignore[method-assign]
    hints = await asyncio.gather(*(games.hints.hint(table, alice.id) for _ in range(20)))
    again = await games.hints.hint(table, alice.id)
    assert len(thought) == 1, f"{len(thought)} searches for one moment's hint"
    assert all(h == hints[0] for h in [*hints, again])


@pytest.mark.slow  # the AI's real worker processes
# Hard thinks up to 0.5 s a decision: on a busy machine a review outlasts SimCord's 5 s
# wait for the bot to settle after the click, which this test does not measure.
@pytest.mark.simcord(settle_timeout=60)
async def test_the_review_lists_a_cheap_quit_that_lost_the_game(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """To 10: Alice has 8 and Bob 5 after round 1. In round 2 Alice quits with a lone 3
    (3 points, fewer than drawing was expected to cost) and ends the game at 11; Bob
    plays his last card and wins. Ranked by Hard's measure, that quit is listed, with
    the chance to win it cost and the points it saved."""
    from .stats.games import Round, play_rigged_game

    rounds = [
        Round(hands=[[C.SIX, C.TWO], [C.FIVE]], top=C.ONE, starter=1, moves=[(1, "quit")]),
        Round(hands=[[C.THREE], [C.TWO]], top=C.ONE, moves=[(0, "quit"), (1, C.TWO)]),
    ]
    rounds[0].moves.append((0, "quit"))
    table = await play_rigged_game(simcord_env, channel, [alice, bob], rounds, threshold=10)
    assert table.match.points == [11, 4]
    await simcord_env.advance_time(3)
    shown = said(await alice.click(table_message(channel), label="Your three costliest decisions"))
    line = "Round 2, move 1: you quit; Hard would draw · "
    assert line + "−12% chance to win the game, though 2 points saved" in shown
    assert shown.split("\n")[-1].startswith("-# Ranked by Hard's measure")

"""Turn rules as players meet them: draw limits, scoring, who starts, bad clicks."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from simcord.components import walk_components

from bot.service.play.table import Status
from game import BLACK, WHITE, Card
from game.events import CardDrawn, CardPlayed, PlayerQuit
from testkit.simcord_play import (
    below_title,
    bot_token_calls,
    components,
    custom_ids,
    enabled,
    forged,
    moves_shown,
    open_hand,
    open_lobby,
    rig,
    service,
    table_message,
    take_simple_turn,
    text_blocks,
    texts,
    two_player_game,
)

C = Card


async def test_draw_is_disabled_with_the_reason_for_the_last_player_left(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(
        simcord_env,
        [[C.ONE, C.TWO, C.THREE, C.FOUR, C.FIVE, C.SIX], [C.SIX] * 3 + [C.ONE] * 3],
        C.THREE,
        [C.LLAMA] * 8,
    )
    table = await two_player_game(simcord_env, alice, bob, channel)
    hand = await open_hand(alice, channel)
    await alice.click(hand, label="Quit round")
    bobs = await open_hand(bob, channel)
    draw = [entry for entry in custom_ids(bobs) if entry[0].startswith("lama:draw:")]
    assert draw and draw[0][2], "drawing must be disabled for the last player"
    assert draw[0][1] == "Draw (you're last)"
    assert "last player in this round" in texts(bobs)
    assert table.match is not None and table.match.round is not None
    assert table.match.round.active == [False, True]


async def test_round_scoring_is_shown_and_the_emptier_starts_the_next_round(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    # Alice holds junk; Bob can empty his hand with a single 4 after she draws.
    rig(
        simcord_env,
        [[C.TWO, C.TWO, C.SIX, C.LLAMA, C.LLAMA, C.ONE], [C.FOUR]],
        C.FOUR,
        [C.ONE] * 7,
    )
    table = await two_player_game(simcord_env, alice, bob, channel)
    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:draw:")[0])
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:play:")[0])
    assert table.match is not None
    result = table.match.results[0]
    assert result.emptied_by == 1
    # 1, 2, 6 and the llamas: 1 + 2 + 6 + 10 (the drawn card is another 1).
    assert result.seats[0].gained == 19
    await simcord_env.advance_time(3)
    shown = table_message(channel)
    scoring = next(t for t in text_blocks(shown) if t.startswith("**Round 1 — scoring**"))
    assert "= **19**" in scoring and "emptied the hand" in scoring
    assert table.match.round is not None and table.match.round.round_no == 2
    assert table.match.to_move == 1, "the player who emptied their hand starts"
    assert "New round dealt; bob starts" in moves_shown(shown).split("\n")[-1]
    seats = texts(shown)
    faces = simcord_env.bot.faces
    chips = f"19 points ({faces.chip(BLACK)}1 {faces.chip(WHITE)}9)"
    assert chips in seats, "a seat's chips are shown with its points"


async def test_a_stale_hand_from_an_earlier_turn_changes_nothing(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel)
    old = await open_hand(alice, channel)  # a second hand message stays as it was
    current = await open_hand(alice, channel)
    await alice.click(current, custom_id=enabled(current, "lama:play:")[0])
    assert table.match is not None
    before = table.match.snapshot()
    result = await alice.click(old, custom_id=enabled(old, "lama:draw:")[0])
    assert result.response is not None and result.response.ephemeral
    assert "earlier turn" in texts(result.response)
    assert table.match.snapshot() == before


async def test_a_double_click_applies_exactly_one_move(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel)
    first = await open_hand(alice, channel)
    second = await open_hand(alice, channel)
    play = enabled(first, "lama:play:")[0]
    import asyncio

    results = await asyncio.gather(
        alice.click(first, custom_id=play),
        alice.click(second, custom_id=play),
        return_exceptions=True,
    )
    assert table.match is not None
    plays = [e for e in table.match.events if e.kind == "play"]
    assert len(plays) == 1
    assert any(not isinstance(r, BaseException) for r in results)


async def test_a_non_player_is_told_they_are_not_in_the_game(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    eve = guild.add_member(simcord_env.create_user("eve"))
    table = await two_player_game(simcord_env, alice, bob, channel)
    before = table.match.snapshot() if table.match else None
    result = await eve.click(table_message(channel), label="Show my hand")
    assert result.ephemeral and result.response.content == "You're not in this game."
    assert table.match is not None and table.match.snapshot() == before


async def test_a_forged_button_gets_an_explanation(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    assert table.match is not None
    before = table.match.snapshot()
    for custom_id in (
        f"lama:play:{table.game_id}:{table.stamp}:99",
        "lama:play:123456:0:4",
        "lama:nonsense",
    ):
        result = await alice.click(forged(simcord_env, channel, custom_id), label="Forged")
        assert result.ephemeral and result.response is not None
        assert result.response.content
    assert table.match.snapshot() == before


async def test_cancel_by_a_non_host_is_refused(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    result = await bob.slash(channel, "lama cancel")
    assert result.ephemeral and "Only the host" in result.response.content
    assert table.status is Status.RUNNING
    result = await alice.slash(channel, "lama cancel")
    assert table.status is Status.CANCELLED
    assert service(simcord_env).registry.table_in(channel.id) is None
    await simcord_env.advance_time(3)
    assert "cancelled" in below_title(table_message(channel))


def table_edits(calls: list[Any]) -> list[Any]:
    """The edits of the table message, whichever token made them."""
    return [
        c
        for c in calls
        if c.method == "PATCH"
        and isinstance(c.json, dict)
        and any(
            str(part.get("content", "")).startswith("## 🦙")
            for part in walk_components(c.json.get("components") or [])
        )
    ]


@pytest.mark.real_pacing
async def test_rest_calls_per_move_are_few_and_stable(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.FOUR] * 3 + [C.FIVE] * 3] * 2, C.FOUR, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel)
    await simcord_env.advance_time(5)
    counts = []
    players = {alice.id: alice, bob.id: bob}
    hands = {}
    for user in (alice, bob):
        hands[user.id] = await open_hand(user, channel)
    for _ in range(6):
        seat = table.to_move
        assert seat is not None
        player = players[table.seats[seat].user_id]
        hand = hands[player.id]
        await simcord_env.advance_time(6)  # the player thinks
        before = len(simcord_env.http_requests)
        await player.click(hand, custom_id=enabled(hand, "lama:play:")[0])
        await simcord_env.advance_time(1)
        calls = simcord_env.http_requests[before:]
        counts.append(len(calls))
        # Within the game's first quarter hour the Start click's token edits the
        # table, and the clicks' tokens send and take down the pings.
        assert bot_token_calls(simcord_env, calls) == []
        assert len(table_edits(calls)) == 1
    # answer the click, edit the table, refresh the next hand, replace the ping
    assert max(counts) <= 5
    assert len(set(counts)) == 1, counts


async def test_a_move_is_answered_before_the_ping_and_the_next_hand_go_out(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    # Every REST call before the answer would make the mover wait; the ping and
    # the next player's hand can go out a moment later.
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)
    await two_player_game(simcord_env, alice, bob, channel)
    await open_hand(bob, channel)
    hand = await open_hand(alice, channel)
    await simcord_env.advance_time(10)  # bob looks away
    before = len(simcord_env.http_requests)

    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])

    calls = [(c.method, c.path) for c in simcord_env.http_requests[before:]]
    assert calls[0][0] == "POST" and calls[0][1].endswith("/callback"), calls
    hook = f"/webhooks/{simcord_env.backend.application_id}/"
    assert any(m == "POST" and p.startswith(hook) for m, p in calls[1:]), "bob's ping, after"
    assert any(m == "PATCH" and p.startswith(hook) for m, p in calls[1:]), "bob's hand"


async def test_an_open_hand_refreshes_itself_when_the_turn_comes(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)
    await two_player_game(simcord_env, alice, bob, channel)
    bobs = await open_hand(bob, channel)
    assert not enabled(bobs, "lama:play:")
    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    # The very message bob opened before now offers his moves.
    assert enabled(bobs, "lama:play:") and enabled(bobs, "lama:draw:")
    assert "It's your turn" in texts(bobs)


@pytest.mark.real_pacing
async def test_rest_calls_per_ai_move_are_coalesced(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    for strength in ("easy", "easy", "easy"):
        await alice.select(table_message(channel), [strength])
    rig(
        simcord_env,
        [[C.FOUR] * 2 + [C.FIVE] * 4] + [[C.SIX, C.SIX, C.ONE, C.ONE, C.TWO, C.TWO]] * 3,
        C.FOUR,
        [],
    )
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(5)
    hand = await open_hand(alice, channel)
    per_cycle = []
    for _ in range(2):  # the first, and one as every later cycle goes
        assert table.to_move == 0
        events = len(table.match.events) if table.match else 0
        before = len(simcord_env.http_requests)
        await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
        await simcord_env.advance_time(10)
        ai_moves = len(table.match.events) - events - 1 if table.match else 0
        assert ai_moves == 3
        calls = simcord_env.http_requests[before:]
        # Four moves, one table edit: it waits for the AI seats to be done.
        assert len(table_edits(calls)) == 1
        assert "alice played" in moves_shown(table_message(channel)).split("\n")[-4]
        # Besides: the answer to the click and alice's open hand refreshed (she
        # clicked a moment ago: no ping), with the interaction tokens.
        assert bot_token_calls(simcord_env, calls) == []
        per_cycle.append(len(calls))
    # The first cycle also takes down the ping from the start.
    assert per_cycle[1:] == [3], per_cycle


@pytest.mark.slow  # the AI's real worker processes
async def test_a_hard_ai_takes_its_turns_without_stalling_the_table(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    # Hard thinks in a worker process; its moves must still land in order and
    # hand the turn back to the human.
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    await alice.select(table_message(channel), ["hard"])
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(5)
    assert table.match is not None
    hard_moves = 0
    for _ in range(8):
        if table.status is not Status.RUNNING:
            break
        if table.to_move == 0:
            before = len(table.match.events)
            await take_simple_turn(alice, channel)
            assert len(table.match.events) > before
        await simcord_env.advance_time(5)
        hard_moves = sum(
            1
            for e in table.match.events
            if isinstance(e, CardPlayed | CardDrawn | PlayerQuit) and e.seat == 1
        )
        assert table.status is not Status.RUNNING or table.to_move in (0, None)
    assert hard_moves > 0


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_every_card_button_carries_exactly_one_emoji_even_the_pink_llama(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    # Discord refuses a button whose emoji is two emojis, e.g. the pink Llama's "🩷🦙".
    hand = [C.PINK_LLAMA, C.TWO, C.TWO_PLUS, C.FOUR, C.FIVE, C.SIX]
    rig(simcord_env, [hand, [C.THREE] * 6], C.ONE, [])
    await two_player_game(simcord_env, alice, bob, channel, party=True)

    response = await open_hand(alice, channel)

    buttons = {
        str(button["label"]): button.get("emoji") or {}
        for button in components(response)
        if str(button.get("label", "")).startswith("Play")
    }
    # One emoji each: the card's own application emoji, the Plus card's too.
    assert {label: e.get("name") for label, e in buttons.items()} == {
        "Play Pink Llama": "lama_pink_llama",
        "Play 2": "lama_2",
        "Play 2+": "lama_2p",
    }
    assert all(e.get("id") for e in buttons.values())

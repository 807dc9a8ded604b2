"""English: the reference catalog. Every other language has the same keys."""
# ruff: noqa: E501

from __future__ import annotations

from collections.abc import Mapping

CATALOG: Mapping[str, str | Mapping[str, str]] = {
    # cards and seats
    "card.llama": "Llama",
    "card.pink_llama": "Pink Llama",
    "seat.ai": "{name} ({strength} AI)",
    "ai.easy": "Easy",
    "ai.normal": "Normal",
    "ai.hard": "Hard",
    "ai.easy.about": "Plays what fits, draws otherwise, quits when cheap",
    "ai.normal.about": "Weighs its hand, the pile and the others",
    "ai.hard.about": "Simulates the rest of the round before it moves",
    "variant.no_drama": "🎭 No Drama",
    "variant.party": "🎉 Party Edition",
    "variant.komarami": "🦟 Lato z Komarami",
    "variant.threshold": "🏁 ends at {points} points",
    "timer.off": "off",
    "timer.seconds": {"one": "{count} second per turn", "other": "{count} seconds per turn"},
    # lobby
    "lobby.title": "🦙 L.A.M.A. — lobby",
    "lobby.description": "{host} opened a table. Join with the button below; the host adds AI players and starts the game.",
    "lobby.players": "Players ({count}/{max})",
    "lobby.variants": "Rules",
    "lobby.timer": "Turn timer",
    "lobby.footer": "{min}–{max} players",
    "lobby.add_ai": "Add an AI player…",
    "button.join": "Join",
    "button.leave": "Leave",
    "button.start": "Start",
    "button.cancel": "Cancel",
    "done.join": "You joined the game.",
    "done.leave": "You left the lobby.",
    "done.start": "The game has started. Open your hand with the button on the table or /lama hand.",
    "done.cancel": "The game was cancelled.",
    "closed.title": "🦙 L.A.M.A. — closed",
    "closed.cancelled": "This game was cancelled.",
    "closed.empty": "Everybody left the lobby.",
    "closed.idle": "Nobody started this lobby for 15 minutes, so it was closed.",
    "closed.abandoned": "Every player's seat is held by an AI, so the game was ended.",
    # table
    "table.title": "🦙 L.A.M.A. — round {round}",
    "table.top": "# {emoji} {card}",
    "table.pile": {"one": "Draw pile: {count} card", "other": "Draw pile: {count} cards"},
    "table.deadline": "⏳ {name} must move {when}.",
    "table.seats": "Players",
    "table.cards": {"one": "{count} card", "other": "{count} cards"},
    "table.points": {"one": "{count} point", "other": "{count} points"},
    "table.recent": "Last moves",
    "table.over_title": "🦙 L.A.M.A. — game over",
    "table.winners": {"one": "🏆 The winner is {names}!", "other": "🏆 The winners are {names}!"},
    "table.standings": "Standings",
    "status.to_move": "to move",
    "status.out": "out of the round",
    "status.no_drama": "🎭 holds No Drama",
    "status.away": "away (an AI plays)",
    "status.kicked": "played by an AI",
    "log.play": "{name} played {card}",
    "log.draw": "{name} drew a card",
    "log.quit": "{name} quit the round",
    "log.timeout": "{name} ran out of time and quit the round",
    "log.takeover": "{name} missed two turns; an AI plays for them until they are back",
    "log.back": "{name} is back",
    "log.kicked": "{name}'s seat was handed to an AI",
    "log.round_end": "{name} ended the round",
    "log.deal": "New round dealt; {name} starts",
    "result.title": "Round {round} — scoring",
    "result.emptied": "emptied the hand ✨",
    "result.llamas": "🦙 {points}",
    "result.pink": "🩷🦙 {points}",
    "result.discarded": "(No Drama: discarded {card})",
    "result.returned": "(gave back a {points}-point chip)",
    "result.total": {"one": "· total {count} point", "other": "· total {count} points"},
    "button.show_hand": "Show my hand",
    "button.rules": "Rules",
    "button.back": "I'm back",
    "button.rematch": "Rematch",
    # hand
    "hand.title": "Your hand",
    "hand.top": "Top card: {emoji} **{card}**",
    "hand.cards": {"one": "**{count} card:**", "other": "**{count} cards:**"},
    "hand.quit_cost": {
        "one": "Quitting now would cost {count} point.",
        "other": "Quitting now would cost {count} points.",
    },
    "hand.your_turn": "**It's your turn.**",
    "hand.waiting": "Waiting for {name}.",
    "hand.you_quit": "You are out of this round.",
    "hand.away": "An AI is playing for you. Press “I'm back” to take your seat again.",
    "hand.between_rounds": "The round is over.",
    "hand.no_draw_empty": "You can't draw: the draw pile is empty.",
    "hand.no_draw_last": "You can't draw: you are the last player in this round.",
    "button.play": "Play {card}",
    "button.draw": "Draw",
    "button.draw_empty": "Draw (pile empty)",
    "button.draw_last": "Draw (you're last)",
    "button.quit": "Quit round",
    "button.refresh": "Refresh",
    "back.done": "Welcome back! Your next turn is yours again.",
    "kick.done": "An AI now plays for {name}.",
    # pings
    "ping.turn": "{mention}, it's your turn {when}",
    "ping.warning": "⏰ {mention}, your turn ends {when}!",
    # rules
    "rules.base": (
        "**L.A.M.A.** Play a card of the same value as the top card or one more "
        "(after 6 comes the Llama, after the Llama a 1 or another Llama; never a 1 on a 6). "
        "Or draw a card (not from an empty pile, not as the last player left), or quit the round. "
        "The round ends when someone plays their last card or everybody has quit. "
        "Each distinct number you still hold costs its value; Llamas cost 10 together. "
        "Emptying your hand gives back your largest chip. The game ends after a round in which "
        "someone reaches the threshold; the fewest points win."
    ),
    "rules.no_drama": "🎭 **No Drama:** the latest player to quit holds the No Drama card and discards one card before scoring; with nothing left they give back a chip.",
    "rules.party": "🎉 **Party Edition:** Plus cards play like their number and give another turn; the pink Llama goes on anything, only a Llama or a 1 may follow it, and it costs 20. Pink chips are worth 20.",
    "rules.komarami": "🦟 **Lato z Komarami:** 7 Llamas in the deck, and each Llama in your hand costs 10.",
    "rules.threshold": "🏁 This game ends at {points} points.",
    "rules.variants_all": "Variants: 🎭 No Drama, 🎉 Party Edition, 🦟 Lato z Komarami — choose them with /lama new.",
    # errors
    "error.unknown_button": "That button isn't valid any more. Use /lama hand to see your current hand.",
    "error.game_gone": "That game is over or was cancelled.",
    "error.lobby_closed": "This lobby is closed.",
    "error.channel_busy": "There is already a L.A.M.A. game in this channel. Finish or cancel it first.",
    "error.already_joined": "You're already in this game.",
    "error.lobby_full": "The lobby is full ({max} players).",
    "error.not_in_lobby": "You're not in this lobby.",
    "error.host_only": "Only the host can do that.",
    "error.not_enough_players": "At least {min} players are needed to start.",
    "error.already_started": "This game has already started.",
    "error.cancel_not_allowed": "Only the host or someone with Manage Server can cancel this game.",
    "error.kick_not_allowed": "Only the host or someone with Manage Server can hand a seat to an AI.",
    "error.not_a_player": "You're not in this game.",
    "error.target_not_a_player": "That member isn't playing in this game.",
    "error.already_ai": "An AI already plays that seat.",
    "error.not_started": "The game hasn't started yet.",
    "error.stale": "That button was from an earlier turn. Here is your hand as it is now.",
    "error.seat_is_ai": "An AI is playing your seat. Press “I'm back” first.",
    "error.not_away": "You're already playing your seat.",
    "error.kicked": "Your seat was handed to an AI for the rest of this game.",
    "error.save_failed": "Your move couldn't be saved, so it wasn't made. Please try again.",
    "error.no_game_here": "There's no running L.A.M.A. game in this channel.",
    "error.no_lobby_here": "There's no L.A.M.A. lobby in this channel. Open one with /lama new.",
    # illegal moves (the engine's errors)
    "illegal.not_your_turn": "It's not your turn.",
    "illegal.card_not_in_hand": "You don't have that card in your hand.",
    "illegal.card_does_not_fit": "You can't play a {card} on a {top}.",
    "illegal.draw_pile_empty": "The draw pile is empty.",
    "illegal.last_player_cannot_draw": "You are the last player in this round, so you can't draw.",
    "illegal.not_in_round": "You have quit this round and must wait for the next one.",
    "illegal.round_over": "This round is over.",
    "illegal.game_over": "This game is over.",
    "illegal.no_such_seat": "You're not in this game.",
    "illegal.illegal_move": "That move isn't allowed.",
    # settings
    "language.en": "English",
    "language.de": "German",
    "language.es": "Spanish",
    "settings.language.set": "New games in this server will show their lobby and table in {language}. Private replies still follow each player's Discord language.",
    "settings.language.default": "New games in this server will show their lobby and table in the server's Discord language (now {language}). Private replies still follow each player's Discord language.",
    "settings.not_allowed": "Only members with the Manage Server permission can change this server's settings.",
    # /lama-about
    "about.text": (
        "**L.A.M.A.** (Lege alle Minuspunkte ab — “lay down all minus points”) is a quick "
        "card game for 2–6 players. On your turn, play a card of the same value as the top "
        "of the discard pile or one higher (a llama follows a 6, a 1 follows a llama), draw a "
        "card, or quit the round. The round ends when someone empties their hand or everybody "
        "has quit; every *different* value left in your hand costs points (a llama is 10). "
        "Emptying your hand lets you return a chip, and the game ends when someone reaches "
        "40 points — lowest score wins.\n\n"
        "Start a table in this channel with `/lama new`."
    ),
}

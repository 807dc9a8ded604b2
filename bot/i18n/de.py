# Messages stay on one line each, so they are easy to find and to compare with en.py.
# ruff: noqa: E501
"""Deutsch, in den Begriffen der deutschen Ausgabe (Lama, aussteigen, Chips, Minuspunkte)."""

from __future__ import annotations

from collections.abc import Mapping

CATALOG: Mapping[str, str | Mapping[str, str]] = {
    # cards and seats
    "card.llama": "Lama",
    "card.pink_llama": "Pinkes Lama",
    "seat.ai": "{name} (KI: {strength})",
    "ai.easy": "Leicht",
    "ai.normal": "Normal",
    "ai.hard": "Schwer",
    "ai.easy.about": "Legt ab, was passt, zieht sonst und steigt aus, wenn es billig ist",
    "ai.normal.about": "Wägt die eigene Hand, den Ablagestapel und die anderen ab",
    "ai.hard.about": "Spielt vor jedem Zug den Rest der Runde durch",
    "variant.no_drama": "🎭 No Drama",
    "variant.party": "🎉 Party Edition",
    "variant.komarami": "🦟 Lato z Komarami",
    "variant.threshold": "🏁 endet bei {points} Minuspunkten",
    "timer.off": "aus",
    "timer.seconds": {"one": "{count} Sekunde pro Zug", "other": "{count} Sekunden pro Zug"},
    # lobby
    "lobby.title": "🦙 L.A.M.A. — Lobby",
    "lobby.description": "{host} hat einen Tisch eröffnet. Spiel mit über den Button unten; der Gastgeber fügt KI-Spieler hinzu und startet das Spiel.",
    "lobby.players": "Spieler ({count}/{max})",
    "lobby.variants": "Regeln",
    "lobby.timer": "Zugzeit",
    "lobby.footer": "{min}–{max} Spieler",
    "lobby.add_ai": "KI-Spieler hinzufügen …",
    "button.join": "Mitspielen",
    "button.leave": "Verlassen",
    "button.start": "Starten",
    "button.cancel": "Abbrechen",
    "done.join": "Du spielst jetzt mit.",
    "done.leave": "Du hast die Lobby verlassen.",
    "done.start": "Das Spiel hat begonnen. Öffne deine Hand mit dem Button am Tisch oder mit /lama hand.",
    "done.cancel": "Das Spiel wurde abgebrochen.",
    "closed.title": "🦙 L.A.M.A. — geschlossen",
    "closed.cancelled": "Dieses Spiel wurde abgebrochen.",
    "closed.empty": "Alle haben die Lobby verlassen.",
    "closed.idle": "Niemand hat diese Lobby innerhalb von 15 Minuten gestartet, deshalb wurde sie geschlossen.",
    "closed.abandoned": "Alle Plätze werden von einer KI gespielt, deshalb wurde das Spiel beendet.",
    # table
    "table.title": "🦙 L.A.M.A. — Runde {round}",
    "table.top": "# {emoji} {card}",
    "table.pile": {"one": "Nachziehstapel: {count} Karte", "other": "Nachziehstapel: {count} Karten"},
    "table.deadline": "⏳ {name} muss {when} einen Zug machen.",
    "table.seats": "Spieler",
    "table.cards": {"one": "{count} Karte", "other": "{count} Karten"},
    "table.points": {"one": "{count} Minuspunkt", "other": "{count} Minuspunkte"},
    "table.recent": "Letzte Züge",
    "table.over_title": "🦙 L.A.M.A. — Spielende",
    "table.winners": {"one": "🏆 Gewonnen hat {names}!", "other": "🏆 Gewonnen haben {names}!"},
    "table.standings": "Endstand",
    "status.to_move": "am Zug",
    "status.out": "aus der Runde ausgestiegen",
    "status.no_drama": "🎭 hat die „No Drama“-Karte",
    "status.away": "abwesend (eine KI spielt)",
    "status.kicked": "von einer KI gespielt",
    "log.play": "{name} hat {card} abgelegt",
    "log.draw": "{name} hat eine Karte gezogen",
    "log.quit": "{name} ist ausgestiegen",
    "log.timeout": "{name} hatte keine Zeit mehr und ist ausgestiegen",
    "log.takeover": "{name} hat zwei Züge verpasst; eine KI spielt, bis {name} zurück ist",
    "log.back": "{name} ist zurück",
    "log.kicked": "Der Platz von {name} wurde an eine KI übergeben",
    "log.round_end": "{name} hat die Runde beendet",
    "log.deal": "Neue Runde ausgeteilt; {name} beginnt",
    "result.title": "Runde {round} — Wertung",
    "result.emptied": "hat alle Karten abgelegt ✨",
    "result.llamas": "🦙 {points}",
    "result.pink": "🩷🦙 {points}",
    "result.discarded": "(No Drama: {card} abgeworfen)",
    "result.returned": "(hat einen {points}er-Chip abgegeben)",
    "result.total": {"one": "· insgesamt {count} Minuspunkt", "other": "· insgesamt {count} Minuspunkte"},
    "button.show_hand": "Meine Hand zeigen",
    "button.rules": "Regeln",
    "button.back": "Bin zurück",
    "button.rematch": "Revanche",
    # hand
    "hand.title": "Deine Hand",
    "hand.top": "Oberste Karte: {emoji} **{card}**",
    "hand.cards": {"one": "**{count} Karte:**", "other": "**{count} Karten:**"},
    "hand.quit_cost": {
        "one": "Aussteigen würde dich jetzt {count} Minuspunkt kosten.",
        "other": "Aussteigen würde dich jetzt {count} Minuspunkte kosten.",
    },
    "hand.your_turn": "**Du bist am Zug.**",
    "hand.waiting": "Warte auf {name}.",
    "hand.you_quit": "Du bist aus dieser Runde ausgestiegen.",
    "hand.away": "Eine KI spielt für dich. Drück „Bin zurück“, um deinen Platz wieder einzunehmen.",
    "hand.between_rounds": "Die Runde ist vorbei.",
    "hand.no_draw_empty": "Du kannst nicht ziehen: Der Nachziehstapel ist leer.",
    "hand.no_draw_last": "Du kannst nicht ziehen: Alle anderen sind aus dieser Runde ausgestiegen.",
    "button.play": "{card} ablegen",
    "button.draw": "Ziehen",
    "button.draw_empty": "Ziehen (Stapel leer)",
    "button.draw_last": "Ziehen (nur noch du)",
    "button.quit": "Aussteigen",
    "button.refresh": "Aktualisieren",
    "back.done": "Willkommen zurück! Deinen nächsten Zug machst du wieder selbst.",
    "kick.done": "Jetzt spielt eine KI für {name}.",
    # pings
    "ping.turn": "{mention}, du bist am Zug {when}",
    "ping.warning": "⏰ {mention}, dein Zug endet {when}!",
    # rules
    "rules.base": (
        "**L.A.M.A.** Lege eine Karte mit demselben Wert wie die oberste Karte oder genau eins höher ab "
        "(auf die 6 folgt das Lama, auf das Lama eine 1 oder ein weiteres Lama; nie eine 1 auf eine 6). "
        "Oder zieh eine Karte (nicht vom leeren Nachziehstapel und nicht, wenn alle anderen ausgestiegen "
        "sind), oder steig aus der Runde aus. Die Runde endet, sobald jemand die letzte Karte ablegt oder "
        "alle ausgestiegen sind. Jeder verschiedene Wert, den du noch hältst, kostet so viele Minuspunkte; "
        "Lamas kosten zusammen 10. Wer alle Karten ablegt, gibt seinen größten Chip ab. Das Spiel endet "
        "nach der Runde, in der jemand die Grenze erreicht; die wenigsten Minuspunkte gewinnen."
    ),
    "rules.no_drama": "🎭 **No Drama:** Wer zuletzt ausgestiegen ist, hält die „No Drama“-Karte und wirft vor der Wertung eine Karte ab; bleibt sonst nichts übrig, gibt er einen Chip ab.",
    "rules.party": "🎉 **Party Edition:** Plus-Karten werden wie ihre Zahl gespielt und geben einen weiteren Zug; das pinke Lama darf auf jede Karte, danach nur ein Lama oder eine 1, und es kostet 20. Pinke Chips zählen 20.",
    "rules.komarami": "🦟 **Lato z Komarami:** 7 Lamas im Spiel, und jedes Lama auf deiner Hand kostet 10.",
    "rules.threshold": "🏁 Dieses Spiel endet bei {points} Minuspunkten.",
    "rules.variants_all": "Varianten: 🎭 No Drama, 🎉 Party Edition, 🦟 Lato z Komarami — wähle sie bei /lama neu.",
    # errors
    "error.unknown_button": "Dieser Button gilt nicht mehr. Mit /lama hand siehst du deine aktuelle Hand.",
    "error.game_gone": "Dieses Spiel ist vorbei oder wurde abgebrochen.",
    "error.lobby_closed": "Diese Lobby ist geschlossen.",
    "error.channel_busy": "In diesem Kanal läuft schon ein L.A.M.A.-Spiel. Beende es oder brich es zuerst ab.",
    "error.already_joined": "Du bist schon in diesem Spiel.",
    "error.lobby_full": "Die Lobby ist voll ({max} Spieler).",
    "error.not_in_lobby": "Du bist nicht in dieser Lobby.",
    "error.host_only": "Das kann nur der Gastgeber.",
    "error.not_enough_players": "Zum Starten braucht es mindestens {min} Spieler.",
    "error.already_started": "Dieses Spiel hat schon begonnen.",
    "error.cancel_not_allowed": "Nur der Gastgeber oder jemand mit der Berechtigung „Server verwalten“ kann dieses Spiel abbrechen.",
    "error.kick_not_allowed": "Nur der Gastgeber oder jemand mit der Berechtigung „Server verwalten“ kann einen Platz an eine KI übergeben.",
    "error.not_a_player": "Du spielst in diesem Spiel nicht mit.",
    "error.target_not_a_player": "Dieses Mitglied spielt in diesem Spiel nicht mit.",
    "error.already_ai": "Diesen Platz spielt schon eine KI.",
    "error.not_started": "Das Spiel hat noch nicht begonnen.",
    "error.stale": "Dieser Button war von einem früheren Zug. Hier ist deine Hand, wie sie jetzt ist.",
    "error.seat_is_ai": "Eine KI spielt gerade deinen Platz. Drück zuerst „Bin zurück“.",
    "error.not_away": "Du spielst deinen Platz schon selbst.",
    "error.kicked": "Dein Platz wurde für den Rest des Spiels an eine KI übergeben.",
    "error.save_failed": "Dein Zug konnte nicht gespeichert werden und wurde deshalb nicht ausgeführt. Bitte versuch es noch einmal.",
    "error.no_game_here": "In diesem Kanal läuft kein L.A.M.A.-Spiel.",
    "error.no_lobby_here": "In diesem Kanal gibt es keine L.A.M.A.-Lobby. Eröffne eine mit /lama neu.",
    # illegal moves (the engine's errors)
    "illegal.not_your_turn": "Du bist nicht am Zug.",
    "illegal.card_not_in_hand": "Diese Karte hast du nicht auf der Hand.",
    "illegal.card_does_not_fit": "{card} passt nicht auf {top}.",
    "illegal.draw_pile_empty": "Der Nachziehstapel ist leer.",
    "illegal.last_player_cannot_draw": "Alle anderen sind aus dieser Runde ausgestiegen, deshalb darfst du nicht ziehen.",
    "illegal.not_in_round": "Du bist aus dieser Runde ausgestiegen und musst auf die nächste warten.",
    "illegal.round_over": "Diese Runde ist vorbei.",
    "illegal.game_over": "Dieses Spiel ist vorbei.",
    "illegal.no_such_seat": "Du spielst in diesem Spiel nicht mit.",
    "illegal.illegal_move": "Dieser Zug ist nicht erlaubt.",
    # settings
    "language.en": "Englisch",
    "language.de": "Deutsch",
    "language.es": "Spanisch",
    "settings.language.set": "Neue Spiele auf diesem Server zeigen Lobby und Tisch auf {language}. Private Antworten folgen weiter der Discord-Sprache der einzelnen Spieler.",
    "settings.language.default": "Neue Spiele auf diesem Server zeigen Lobby und Tisch in der Discord-Sprache des Servers (zurzeit {language}). Private Antworten folgen weiter der Discord-Sprache der einzelnen Spieler.",
    "settings.not_allowed": "Nur Mitglieder mit der Berechtigung „Server verwalten“ können die Einstellungen des Servers ändern.",
    # /lama-about
    "about.text": (
        "**L.A.M.A.** (Lege alle Minuspunkte ab) ist ein schnelles Kartenspiel für 2–6 Spieler. "
        "Wer am Zug ist, legt eine Karte mit demselben Wert wie die oberste Karte des Ablagestapels "
        "oder genau eins höher ab (auf die 6 folgt das Lama, auf das Lama eine 1), zieht eine Karte "
        "oder steigt aus der Runde aus. Die Runde endet, wenn jemand alle Karten abgelegt hat oder "
        "alle ausgestiegen sind; jeder *verschiedene* Wert, der noch auf der Hand ist, kostet "
        "Minuspunkte (ein Lama 10). Wer alle Karten ablegt, darf einen Chip abgeben, und das Spiel "
        "endet, sobald jemand 40 Minuspunkte hat — die wenigsten Minuspunkte gewinnen.\n\n"
        "Eröffne einen Tisch in diesem Kanal mit `/lama neu`."
    ),
}

#: Slash commands, keyed by the English string in the command definitions.
#: Names must match Discord's ``^[-_\p{L}\p{N}]{1,32}$`` and be lowercase.
COMMANDS: Mapping[str, str] = {
    # /lama and /lama-about
    "lama": "lama",
    "Play L.A.M.A. in this channel": "L.A.M.A. in diesem Kanal spielen",
    "lama-about": "lama-info",
    "What this bot is and how to play": "Was dieser Bot ist und wie man spielt",
    # lobby
    "new": "neu",
    "Open a L.A.M.A. lobby in this channel.": "Eine L.A.M.A.-Lobby in diesem Kanal eröffnen.",
    "no_drama": "no_drama",
    "No Drama card: the last to quit may discard one card": "„No Drama“-Karte: Wer zuletzt aussteigt, darf eine Karte abwerfen",
    "party": "party",
    "Party Edition: Plus cards and the pink Llama": "Party Edition: Plus-Karten und das pinke Lama",
    "komarami": "komarami",
    "Lato z Komarami: 7 Llamas, each costs 10": "Lato z Komarami: 7 Lamas, jedes kostet 10",
    "threshold": "grenze",
    "The game ends after a round in which someone reaches this many points": "Das Spiel endet nach der Runde, in der jemand so viele Minuspunkte erreicht",
    "turn_timer": "zugzeit",
    "Seconds per turn; 0 turns the timer off": "Sekunden pro Zug; 0 schaltet die Zugzeit aus",
    "join": "mitspielen",
    "Join the lobby in this channel.": "Der Lobby in diesem Kanal beitreten.",
    "leave": "verlassen",
    "Leave the lobby in this channel.": "Die Lobby in diesem Kanal verlassen.",
    "start": "starten",
    "Start the game in this channel (host only).": "Das Spiel in diesem Kanal starten (nur der Gastgeber).",
    "cancel": "abbrechen",
    "Cancel the lobby or game in this channel (host or Manage Server).": "Lobby oder Spiel in diesem Kanal abbrechen (Gastgeber oder „Server verwalten“).",
    # gameplay
    "hand": "hand",
    "Show your hand privately, with your move buttons.": "Deine Hand privat anzeigen, mit den Buttons für deinen Zug.",
    "rules": "regeln",
    "A short summary of the rules and the variants in use.": "Die Regeln und die gewählten Varianten in Kürze.",
    "kick": "ersetzen",
    "Hand a player's seat to an AI (host or Manage Server).": "Den Platz eines Spielers an eine KI übergeben (Gastgeber oder „Server verwalten“).",
    "member": "spieler",
    "The player whose seat an AI should take over": "Der Spieler, dessen Platz eine KI übernehmen soll",
    # settings
    "settings": "einstellungen",
    "Settings for this server (Manage Server).": "Einstellungen für diesen Server („Server verwalten“).",
    "language": "sprache",
    "The language of public game messages in this server.": "Die Sprache der öffentlichen Spielnachrichten auf diesem Server.",
    "Language of lobbies and tables; private replies follow each player's Discord language": "Sprache von Lobby und Tisch; private Antworten folgen der Discord-Sprache jedes Spielers",
    "English": "English",
    "Deutsch": "Deutsch",
    "Español": "Español",
    "Server default": "Server-Standard",
}

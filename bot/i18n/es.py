# Messages stay on one line each, so they are easy to find and to compare with en.py.
# ruff: noqa: E501
"""Español, con los términos de la edición española (llama, retirarse, fichas, puntos negativos)."""

from __future__ import annotations

from collections.abc import Mapping

CATALOG: Mapping[str, str | Mapping[str, str]] = {
    # cards and seats
    "card.llama": "Llama",
    "card.pink_llama": "Llama rosa",
    "seat.ai": "{name} (IA: {strength})",
    "ai.easy": "Fácil",
    "ai.normal": "Normal",
    "ai.hard": "Difícil",
    "ai.easy.about": "Juega lo que encaja, si no roba, y se retira cuando le sale barato",
    "ai.normal.about": "Sopesa su mano, la pila de descarte y a los demás",
    "ai.hard.about": "Simula el resto de la ronda antes de cada jugada",
    "variant.no_drama": "🎭 No Drama",
    "variant.party": "🎉 Party Edition",
    "variant.komarami": "🦟 Lato z Komarami",
    "variant.threshold": "🏁 termina a los {points} puntos",
    "timer.off": "desactivado",
    "timer.seconds": {"one": "{count} segundo por turno", "other": "{count} segundos por turno"},
    # lobby
    "lobby.title": "🦙 L.A.M.A. — sala",
    "lobby.description": "{host} abrió una mesa. Únete con el botón de abajo; el anfitrión añade jugadores IA e inicia la partida.",
    "lobby.players": "Jugadores ({count}/{max})",
    "lobby.variants": "Reglas",
    "lobby.timer": "Tiempo por turno",
    "lobby.footer": "{min}–{max} jugadores",
    "lobby.add_ai": "Añadir un jugador IA…",
    "button.join": "Unirse",
    "button.leave": "Salir",
    "button.start": "Empezar",
    "button.cancel": "Cancelar",
    "done.join": "Te uniste a la partida.",
    "done.leave": "Saliste de la sala.",
    "done.start": "La partida ha empezado. Abre tu mano con el botón de la mesa o con /lama mano.",
    "done.cancel": "La partida se canceló.",
    "closed.title": "🦙 L.A.M.A. — cerrada",
    "closed.cancelled": "Esta partida se canceló.",
    "closed.empty": "Todos salieron de la sala.",
    "closed.idle": "Nadie empezó esta sala en 15 minutos, así que se cerró.",
    "closed.abandoned": "Todos los puestos los juega una IA, así que la partida terminó.",
    # table
    "table.title": "🦙 L.A.M.A. — ronda {round}",
    "table.top": "# {emoji} {card}",
    "table.pile": {"one": "Mazo de robo: {count} carta", "other": "Mazo de robo: {count} cartas"},
    "table.deadline": "⏳ {name} debe jugar {when}.",
    "table.seats": "Jugadores",
    "table.cards": {"one": "{count} carta", "other": "{count} cartas"},
    "table.points": {"one": "{count} punto", "other": "{count} puntos"},
    "table.recent": "Últimas jugadas",
    "table.over_title": "🦙 L.A.M.A. — fin de la partida",
    "table.winners": {"one": "🏆 ¡Gana {names}!", "other": "🏆 ¡Ganan {names}!"},
    "table.standings": "Clasificación",
    "status.to_move": "le toca",
    "status.out": "se retiró de la ronda",
    "status.no_drama": "🎭 tiene la carta No Drama",
    "status.away": "ausente (juega una IA)",
    "status.kicked": "lo juega una IA",
    "log.play": "{name} jugó {card}",
    "log.draw": "{name} robó una carta",
    "log.quit": "{name} se retiró de la ronda",
    "log.timeout": "{name} se quedó sin tiempo y se retiró de la ronda",
    "log.takeover": "{name} perdió dos turnos; una IA juega por {name} hasta que vuelva",
    "log.back": "{name} ha vuelto",
    "log.kicked": "El puesto de {name} pasó a una IA",
    "log.round_end": "{name} terminó la ronda",
    "log.deal": "Nueva ronda repartida; empieza {name}",
    "result.title": "Ronda {round} — puntuación",
    "result.emptied": "vació su mano ✨",
    "result.llamas": "🦙 {points}",
    "result.pink": "🩷🦙 {points}",
    "result.discarded": "(No Drama: descartó {card})",
    "result.returned": "(devolvió una ficha de {points} puntos)",
    "result.total": {"one": "· total {count} punto", "other": "· total {count} puntos"},
    "button.show_hand": "Ver mi mano",
    "button.rules": "Reglas",
    "button.back": "He vuelto",
    "button.rematch": "Revancha",
    # hand
    "hand.title": "Tu mano",
    "hand.top": "Carta superior: {emoji} **{card}**",
    "hand.cards": {"one": "**{count} carta:**", "other": "**{count} cartas:**"},
    "hand.quit_cost": {
        "one": "Retirarte ahora te costaría {count} punto negativo.",
        "other": "Retirarte ahora te costaría {count} puntos negativos.",
    },
    "hand.your_turn": "**Te toca.**",
    "hand.waiting": "Esperando a {name}.",
    "hand.you_quit": "Te retiraste de esta ronda.",
    "hand.away": "Una IA juega por ti. Pulsa «He vuelto» para recuperar tu puesto.",
    "hand.between_rounds": "La ronda ha terminado.",
    "hand.no_draw_empty": "No puedes robar: el mazo de robo está vacío.",
    "hand.no_draw_last": "No puedes robar: todos los demás se retiraron de esta ronda.",
    "button.play": "Jugar {card}",
    "button.draw": "Robar",
    "button.draw_empty": "Robar (mazo vacío)",
    "button.draw_last": "Robar (solo quedas tú)",
    "button.quit": "Retirarse",
    "button.refresh": "Actualizar",
    "back.done": "¡Has vuelto! Tu próximo turno vuelve a ser tuyo.",
    "kick.done": "Ahora una IA juega por {name}.",
    # pings
    "ping.turn": "{mention}, te toca {when}",
    "ping.warning": "⏰ {mention}, ¡tu turno termina {when}!",
    # rules
    "rules.base": (
        "**L.A.M.A.** Juega una carta del mismo valor que la carta superior o uno más "
        "(después del 6 va la llama, después de la llama un 1 u otra llama; nunca un 1 sobre un 6). "
        "O roba una carta (no del mazo de robo vacío ni si todos los demás se retiraron), o retírate "
        "de la ronda. La ronda termina cuando alguien juega su última carta o todos se han retirado. "
        "Cada número distinto que te quede cuesta su valor en puntos negativos; las llamas cuestan 10 "
        "en total. Si vacías tu mano, devuelves tu ficha más alta. La partida termina tras la ronda en "
        "que alguien alcanza el límite; gana quien tenga menos puntos."
    ),
    "rules.no_drama": "🎭 **No Drama:** quien se retiró el último tiene la carta No Drama y descarta una carta antes de puntuar; si no le queda ninguna, devuelve una ficha.",
    "rules.party": "🎉 **Party Edition:** las cartas Plus se juegan como su número y dan otro turno; la llama rosa va sobre cualquier carta, detrás solo puede ir una llama o un 1, y cuesta 20. Las fichas rosas valen 20.",
    "rules.komarami": "🦟 **Lato z Komarami:** 7 llamas en el mazo, y cada llama en tu mano cuesta 10.",
    "rules.threshold": "🏁 Esta partida termina a los {points} puntos.",
    "rules.variants_all": "Variantes: 🎭 No Drama, 🎉 Party Edition, 🦟 Lato z Komarami — elígelas con /lama nueva.",
    # errors
    "error.unknown_button": "Ese botón ya no es válido. Usa /lama mano para ver tu mano actual.",
    "error.game_gone": "Esa partida terminó o se canceló.",
    "error.lobby_closed": "Esta sala está cerrada.",
    "error.channel_busy": "Ya hay una partida de L.A.M.A. en este canal. Termínala o cancélala primero.",
    "error.already_joined": "Ya estás en esta partida.",
    "error.lobby_full": "La sala está llena ({max} jugadores).",
    "error.not_in_lobby": "No estás en esta sala.",
    "error.host_only": "Solo el anfitrión puede hacer eso.",
    "error.not_enough_players": "Se necesitan al menos {min} jugadores para empezar.",
    "error.already_started": "Esta partida ya ha empezado.",
    "error.cancel_not_allowed": "Solo el anfitrión o alguien con el permiso «Gestionar servidor» puede cancelar esta partida.",
    "error.kick_not_allowed": "Solo el anfitrión o alguien con el permiso «Gestionar servidor» puede pasar un puesto a una IA.",
    "error.not_a_player": "No estás en esta partida.",
    "error.target_not_a_player": "Ese miembro no juega en esta partida.",
    "error.already_ai": "Una IA ya juega ese puesto.",
    "error.not_started": "La partida aún no ha empezado.",
    "error.stale": "Ese botón era de un turno anterior. Aquí tienes tu mano tal como está ahora.",
    "error.seat_is_ai": "Una IA está jugando tu puesto. Pulsa «He vuelto» primero.",
    "error.not_away": "Ya estás jugando tu puesto.",
    "error.kicked": "Tu puesto pasó a una IA para el resto de la partida.",
    "error.save_failed": "No se pudo guardar tu jugada, así que no se hizo. Inténtalo de nuevo.",
    "error.no_game_here": "No hay ninguna partida de L.A.M.A. en curso en este canal.",
    "error.no_lobby_here": "No hay ninguna sala de L.A.M.A. en este canal. Abre una con /lama nueva.",
    # illegal moves (the engine's errors)
    "illegal.not_your_turn": "No es tu turno.",
    "illegal.card_not_in_hand": "No tienes esa carta en la mano.",
    "illegal.card_does_not_fit": "No puedes jugar {card} sobre {top}.",
    "illegal.draw_pile_empty": "El mazo de robo está vacío.",
    "illegal.last_player_cannot_draw": "Todos los demás se retiraron de esta ronda, así que no puedes robar.",
    "illegal.not_in_round": "Te retiraste de esta ronda y debes esperar a la siguiente.",
    "illegal.round_over": "Esta ronda ha terminado.",
    "illegal.game_over": "Esta partida ha terminado.",
    "illegal.no_such_seat": "No estás en esta partida.",
    "illegal.illegal_move": "Esa jugada no está permitida.",
    # settings
    "language.en": "inglés",
    "language.de": "alemán",
    "language.es": "español",
    "settings.language.set": "Las partidas nuevas de este servidor mostrarán la sala y la mesa en {language}. Las respuestas privadas siguen el idioma de Discord de cada jugador.",
    "settings.language.default": "Las partidas nuevas de este servidor mostrarán la sala y la mesa en el idioma de Discord del servidor (ahora {language}). Las respuestas privadas siguen el idioma de Discord de cada jugador.",
    "settings.not_allowed": "Solo los miembros con el permiso «Gestionar servidor» pueden cambiar los ajustes del servidor.",
    # /lama-about
    "about.text": (
        "**L.A.M.A.** (Lege alle Minuspunkte ab, «descarta todos los puntos negativos») es un juego "
        "de cartas rápido para 2–6 jugadores. En tu turno, juega una carta del mismo valor que la "
        "carta superior de la pila de descarte o uno más (después del 6 va una llama, después de una "
        "llama un 1), roba una carta o retírate de la ronda. La ronda termina cuando alguien vacía su "
        "mano o todos se han retirado; cada valor *distinto* que te quede en la mano cuesta puntos "
        "negativos (una llama, 10). Si vacías tu mano, devuelves una ficha, y la partida termina "
        "cuando alguien llega a 40 puntos: gana quien tenga menos.\n\n"
        "Abre una mesa en este canal con `/lama nueva`."
    ),
}

#: Slash commands, keyed by the English string in the command definitions.
#: Names must match Discord's ``^[-_\p{L}\p{N}]{1,32}$`` and be lowercase.
COMMANDS: Mapping[str, str] = {
    # /lama and /lama-about
    "lama": "lama",
    "Play L.A.M.A. in this channel": "Juega a L.A.M.A. en este canal",
    "lama-about": "lama-info",
    "What this bot is and how to play": "Qué es este bot y cómo se juega",
    # lobby
    "new": "nueva",
    "Open a L.A.M.A. lobby in this channel.": "Abre una sala de L.A.M.A. en este canal.",
    "no_drama": "no_drama",
    "No Drama card: the last to quit may discard one card": "Carta No Drama: quien se retira el último puede descartar una carta",
    "party": "party",
    "Party Edition: Plus cards and the pink Llama": "Party Edition: cartas Plus y la llama rosa",
    "komarami": "komarami",
    "Lato z Komarami: 7 Llamas, each costs 10": "Lato z Komarami: 7 llamas, cada una cuesta 10",
    "threshold": "límite",
    "The game ends after a round in which someone reaches this many points": "La partida termina tras la ronda en que alguien llega a estos puntos",
    "turn_timer": "tiempo_turno",
    "Seconds per turn; 0 turns the timer off": "Segundos por turno; 0 desactiva el límite de tiempo",
    "join": "unirse",
    "Join the lobby in this channel.": "Únete a la sala de este canal.",
    "leave": "salir",
    "Leave the lobby in this channel.": "Sal de la sala de este canal.",
    "start": "empezar",
    "Start the game in this channel (host only).": "Empieza la partida de este canal (solo el anfitrión).",
    "cancel": "cancelar",
    "Cancel the lobby or game in this channel (host or Manage Server).": "Cancela la sala o la partida de este canal (anfitrión o «Gestionar servidor»).",
    # gameplay
    "hand": "mano",
    "Show your hand privately, with your move buttons.": "Muestra tu mano en privado, con los botones para jugar.",
    "rules": "reglas",
    "A short summary of the rules and the variants in use.": "Un resumen de las reglas y de las variantes en juego.",
    "kick": "reemplazar",
    "Hand a player's seat to an AI (host or Manage Server).": "Pasa el puesto de un jugador a una IA (anfitrión o «Gestionar servidor»).",
    "member": "jugador",
    "The player whose seat an AI should take over": "El jugador cuyo puesto debe tomar una IA",
    # settings
    "settings": "ajustes",
    "Settings for this server (Manage Server).": "Ajustes de este servidor («Gestionar servidor»).",
    "language": "idioma",
    "The language of public game messages in this server.": "El idioma de los mensajes públicos de las partidas en este servidor.",
    "Language of lobbies and tables; private replies follow each player's Discord language": "Idioma de salas y mesas; las respuestas privadas siguen el idioma de Discord de cada jugador",
    "English": "English",
    "Deutsch": "Deutsch",
    "Español": "Español",
    "Server default": "Predeterminado del servidor",
}

"""What the play-anywhere kit knows: places, installs, tokens and the counts of REST calls.

Plain records, no SimCord patching (that is ``testkit.anywhere_wire``). Every number here is
Discord's, and each says where Discord documents it.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field

import discord

#: Interaction context types (Discord, interactions/receiving-and-responding, "Interaction
#: Context Types"): GUILD 0, BOT_DM 1, PRIVATE_CHANNEL 2 (group DMs and DMs between people).
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
#: Application integration types, the keys of ``authorizing_integration_owners``.
GUILD_INSTALL, USER_INSTALL = 0, 1

_P = discord.Permissions
#: ``app_permissions`` in (group) DMs with other people: "ATTACH_FILES | EMBED_LINKS |
#: MENTION_EVERYONE ... and additionally USE_EXTERNAL_EMOJIS for DMs with the app's bot user"
#: (receiving-and-responding, Interaction Structure, footnote ***).
PRIVATE_APP_PERMISSIONS = _P.attach_files.flag | _P.embed_links.flag | _P.mention_everyone.flag
BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | _P.use_external_emojis.flag
#: In a server without the bot Discord documents only that ``app_permissions`` "correctly
#: represents the permissions for user-installed apps" (change log, 27 June 2024), not which
#: they are. The kit gives the (group) DM set: a front end must not rely on more there.
BOTLESS_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS
#: USE_EXTERNAL_APPS (1 << 50): "If Use External Apps is disabled and your app is not
#: installed to the server, your app's responses will be ephemeral" (change log, 27 June 2024).
USE_EXTERNAL_APPS = _P.use_external_apps.flag
EPHEMERAL = 1 << 6

#: "Interaction tokens are valid for 15 minutes" (receiving-and-responding, Followup Messages).
TOKEN_LIFE = 15 * 60.0
#: "Apps are limited to 5 followup messages per interaction if it was initiated from a
#: user-installed app and isn't installed in the server" (receiving-and-responding, Create
#: Followup Message; change log 27 June 2024: edits are not affected).
FOLLOWUP_CAP = 5
#: "Interactions webhooks share the same rate limit properties as normal webhooks"
#: (receiving-and-responding, Followup Messages); Discord publishes no figure for webhooks
#: (topics/rate-limits: limits are per route and read from the headers). The kit models a
#: conservative bucket per token on the /webhooks routes: 5 calls per 2 s of virtual time,
#: for tests that move virtual time between clicks as people do (``Anywhere(env,
#: webhook_bucket=WEBHOOK_BUCKET)``); a whole game clicked in one virtual instant would hit it.
WEBHOOK_BUCKET = (5, 2.0)


class PlaceKind(enum.Enum):
    SERVER = "server with the bot"
    BOTLESS_SERVER = "server without the bot"
    BOT_DM = "DM with the bot"
    GROUP_DM = "group DM"


@dataclass(frozen=True)
class Place:
    """Somewhere people talk: its channel, its server (None outside one), and what it is."""

    kind: PlaceKind
    channel_id: int
    guild_id: int | None = None

    @property
    def context(self) -> int:
        """The interaction context an interaction here carries."""
        if self.kind is PlaceKind.GROUP_DM:
            return PRIVATE_CHANNEL
        return BOT_DM if self.kind is PlaceKind.BOT_DM else GUILD

    @property
    def bot_present(self) -> bool:
        return self.kind in (PlaceKind.SERVER, PlaceKind.BOT_DM)


@dataclass
class Calls:
    """The REST calls the bot made, counted as Discord would bill them.

    ``bot`` and ``interaction`` count per channel id (``None``: a bot-token call that names no
    channel, e.g. a command sync); the others count answers.
    """

    bot: Counter[int | None] = field(default_factory=Counter)
    interaction: Counter[int] = field(default_factory=Counter)
    #: Bot-token calls refused 403 / 50001 Missing Access where the bot is not.
    refused: int = 0
    #: Calls made with a token past its 15 minutes or killed early (each one answered 401 / 404).
    dead_token: int = 0
    #: 401 answers (50027 Invalid Webhook Token).
    unauthorized: int = 0
    #: 400 / 40094 answers: a sixth followup of a user-installed-only interaction.
    followup_cap: int = 0
    #: 429 answers on the interaction webhooks, and the ``retry_after`` each one gave.
    rate_limited: int = 0
    retry_after: list[float] = field(default_factory=list)

    @property
    def bot_total(self) -> int:
        return sum(self.bot.values())

    @property
    def interaction_total(self) -> int:
        return sum(self.interaction.values())

    def at(self, place: Place) -> tuple[int, int]:
        """(bot-token calls, interaction-token calls) naming ``place``'s channel."""
        return self.bot[place.channel_id], self.interaction[place.channel_id]


@dataclass
class KitState:
    """The facts SimCord lacks, kept beside its backend for one ``simcord.Env``."""

    botless_guilds: set[int] = field(default_factory=set)
    group_dms: set[int] = field(default_factory=set)
    #: People who installed the app to themselves (user install).
    user_installs: set[int] = field(default_factory=set)
    #: ``authorizing_integration_owners`` of every interaction the kit saw, by interaction id.
    owners: dict[int, dict[str, str]] = field(default_factory=dict)
    #: Tokens killed early, with the status they answer (401 or 404).
    killed: dict[str, int] = field(default_factory=dict)
    followups: Counter[int] = field(default_factory=Counter)
    #: Per token: the virtual times (seconds) of its recent webhook calls.
    bucket_hits: dict[str, list[float]] = field(default_factory=dict)
    #: Off unless asked for (``WEBHOOK_BUCKET``): tests click in one virtual instant, people don't.
    webhook_bucket: tuple[int, float] | None = None
    calls: Calls = field(default_factory=Calls)
    #: Set while the kit creates a server the bot must never hear of.
    hiding_guild: bool = False
    #: The message a component interaction being built was clicked on.
    pending_source: int | None = None

    def hidden_channel(self, channel_id: int | None, guild_id: int | None) -> bool:
        """Whether the bot's gateway and bot token have no business with this channel."""
        return (channel_id is not None and channel_id in self.group_dms) or (
            guild_id is not None and guild_id in self.botless_guilds
        )

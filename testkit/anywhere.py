"""Play anywhere in SimCord: group DMs, servers without the bot, user installs, interaction tokens.

SimCord 3.2 knows only servers with the bot and the DM with the bot. ``Anywhere(env)``, used as
a context manager around a running ``simcord.Env``, adds what issue 41 needs, as Discord
documents it (each figure's source is in ``testkit.anywhere_model``):

- places: ``group_dm(*users)``, ``botless_server(name)`` (people only; the bot's gateway never
  hears of it), and ``place(channel)`` for any channel, ``bot_dm(user)`` for the DM with the bot;
- ``install(*users)``: the app installed to those people. Interactions then carry ``context``,
  ``authorizing_integration_owners`` and ``app_permissions`` as Discord sends them; a command
  nobody could run there raises ``SetupError``;
- ``slash`` and ``click`` for a person in any place (a ``UserHandle`` in a group DM, the member
  in a server);
- the bot token refused (403 / 50001) where the bot is not; interaction tokens that live
  15 minutes of virtual time (then 401 / 50027), ``kill(token)`` for an early death; 5 followups
  per interaction where the app is only user-installed (then 400 / 40094); on request
  (``webhook_bucket=WEBHOOK_BUCKET``) a webhook bucket per token (429); replies forced ephemeral
  where Use External Apps is off (``deny_external_apps``);
- ``calls``: every REST call counted (bot token vs interaction token, per channel) and every
  refusal; ``shown(place)`` / ``live(place)``: the public messages a place shows.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import discord
import simcord
from simcord.backend.errors import SetupError
from simcord.backend.models import Overwrite
from simcord.components import walk_components
from simcord.enums import AppCommandType, ComponentType, InteractionType, OverwriteType
from simcord.results import InteractionResult, ResponseMessage

from . import anywhere_wire as wire
from .anywhere_model import USE_EXTERNAL_APPS, WEBHOOK_BUCKET, Calls, KitState, Place, PlaceKind

Person = simcord.MemberActor | simcord.UserHandle
MessageRef = int | ResponseMessage | discord.Message

__all__ = ["WEBHOOK_BUCKET", "Anywhere", "Calls", "Place", "PlaceKind", "Shown"]


@dataclass(frozen=True)
class Shown:
    """A public message as the place shows it."""

    id: int
    content: str | None
    components: list[dict[str, Any]]

    @property
    def live_buttons(self) -> list[dict[str, Any]]:
        """Its buttons a person can press (enabled, not links)."""
        return [
            c
            for c in walk_components(self.components)
            if c.get("type") == ComponentType.BUTTON
            and c.get("custom_id")
            and not c.get("disabled")
        ]


class Anywhere:
    """The kit for one running ``simcord.Env``; enter it before making its places."""

    def __init__(
        self, env: simcord.Env, *, webhook_bucket: tuple[int, float] | None = None
    ) -> None:
        self.env = env
        self.state = KitState(webhook_bucket=webhook_bucket)
        self._exit = contextlib.ExitStack()

    def __enter__(self) -> Anywhere:
        self._exit.enter_context(wire.patched(self.env.backend, self.state))
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._exit.close()

    @property
    def calls(self) -> Calls:
        return self.state.calls

    # ------------------------------------------------------------------ places

    def place(self, channel: simcord.ChannelHandle | int) -> Place:
        """The place a channel is (any kind)."""
        channel_id = channel if isinstance(channel, int) else channel.id
        backend = self.env.backend
        kind = wire.place_kind(self.state, backend, channel_id)
        return Place(kind, channel_id, backend.get_channel(channel_id).guild_id)

    def bot_dm(self, user: simcord.UserHandle) -> Place:
        return self.place(user.dm_channel.id)

    def group_dm(self, *users: simcord.UserHandle, name: str | None = None) -> Place:
        """A group DM of these people (2 to 10: Discord's cap of recipients, error 30004).
        The bot is not in it: its gateway hears nothing of it, its token can't reach it."""
        if not 2 <= len(users) <= 10:
            raise SetupError("A group DM holds 2 to 10 people")
        channel = self.env.backend.create_channel(
            None,
            name,
            type=int(discord.ChannelType.group.value),
            announce=False,
            recipient_ids=[user.id for user in users],
            owner_id=users[0].id,
        )
        self.state.group_dms.add(channel.id)
        return Place(PlaceKind.GROUP_DM, channel.id, None)

    def botless_server(self, name: str = "Friends' server", channel: str = "general") -> Place:
        """A server of people only, with one text channel: the bot is no member and its gateway
        never saw it. ``guild(place)`` gives its handle, to add members (the kit hides the
        events) and channels. Use External Apps is on for @everyone, as Discord's default."""
        self.state.hiding_guild = True
        try:
            guild = self.env.create_guild(name)
        finally:
            self.state.hiding_guild = False
        backend = self.env.backend
        stored = backend.get_guild(guild.id)
        self.state.botless_guilds.add(guild.id)
        bot_roles = stored.members.pop(backend.bot_user.id).role_ids
        for role_id in bot_roles:
            stored.roles.pop(role_id, None)
        stored.everyone_role.permissions |= USE_EXTERNAL_APPS
        return self.place(guild.create_text_channel(channel))

    def guild(self, place: Place) -> simcord.GuildHandle:
        if place.guild_id is None:
            raise SetupError(f"A {place.kind.value} is not in a server")
        return simcord.GuildHandle(self.env, self.env.backend.get_guild(place.guild_id))

    def channel(self, place: Place) -> simcord.ChannelHandle:
        """SimCord's handle of the place's channel (a server's channel, or the DM with the bot)."""
        guild = self.guild(place) if place.guild_id is not None else None
        return simcord.ChannelHandle(
            self.env, guild, self.env.backend.get_channel(place.channel_id)
        )

    # ---------------------------------------------------------------- installs

    def install(self, *users: Person) -> None:
        """These people installed the app to themselves (user install)."""
        self.state.user_installs.update(user.id for user in users)

    def uninstall(self, *users: Person) -> None:
        self.state.user_installs.difference_update(user.id for user in users)

    def deny_external_apps(self, place: Place, member: simcord.MemberActor) -> None:
        """Use External Apps off for ``member`` in ``place``'s channel: a user-installed app's
        replies to them are forced ephemeral where the app is not installed to the server."""
        channel = self.env.backend.get_channel(place.channel_id)
        channel.overwrites.append(
            Overwrite(member.id, OverwriteType.MEMBER, deny=USE_EXTERNAL_APPS)
        )

    # ------------------------------------------------------------ people acting

    async def slash(
        self, person: Person, place: Place, name: str, /, **options: Any
    ) -> InteractionResult:
        """``person`` runs ``/name`` (``"lama new"`` for a subcommand) in ``place``."""
        if place.kind is not PlaceKind.GROUP_DM:
            if isinstance(person, simcord.MemberActor):
                return await person.slash(self.channel(place), name, **options)
            result: InteractionResult = await person.slash(name, **options)
            return result
        user = self._recipient(person, place)
        parts = name.split()
        root = self.env.backend.find_command(parts[0], None, type=AppCommandType.CHAT_INPUT)
        if root is None:
            raise SetupError(
                f"No global command /{parts[0]}: a group DM shows global commands only "
                "(a sync to a dev guild cannot reach it)"
            )
        leaf, nesting = simcord.interactions.walk_to_subcommand(root, parts[1:])
        leaf_options, resolved = simcord.interactions.build_options(
            user, name, leaf, options, channel_id=place.channel_id
        )
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": AppCommandType.CHAT_INPUT,
            "options": simcord.interactions.nest_options(root, nesting, leaf_options),
        }
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(user, place, InteractionType.APPLICATION_COMMAND, data)

    async def click(
        self,
        person: Person,
        place: Place,
        message: MessageRef,
        *,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> InteractionResult:
        """``person`` presses a button of ``message`` (an id, a response or a discord.Message)."""
        backend = self.env.backend
        stored = backend.get_message(
            place.channel_id, message if isinstance(message, int) else message.id
        )
        if place.kind is not PlaceKind.GROUP_DM:
            return await person.click(
                ResponseMessage(self.env, stored), label=label, custom_id=custom_id
            )
        user = self._recipient(person, place)
        if not stored.visible_to(user.id):
            raise SetupError("That message is not visible to this person")
        button = simcord.actors._find_component(
            stored.components, types=(ComponentType.BUTTON,), custom_id=custom_id, label=label
        )
        if button.get("style") in (5, 6) or not button.get("custom_id"):
            raise SetupError(
                "That button is a link or premium control, not an interactive callback"
            )
        data: dict[str, Any] = {
            "custom_id": button["custom_id"],
            "component_type": ComponentType.BUTTON,
        }
        if button.get("id") is not None:
            data["id"] = button["id"]
        return await self._component(user, place, stored, data)

    async def select(
        self,
        person: Person,
        place: Place,
        message: MessageRef,
        values: list[str],
        *,
        custom_id: str | None = None,
    ) -> InteractionResult:
        """``person`` chooses ``values`` in a string select of ``message`` (an AI seat's
        strength on a lobby, say)."""
        backend = self.env.backend
        stored = backend.get_message(
            place.channel_id, message if isinstance(message, int) else message.id
        )
        if place.kind is not PlaceKind.GROUP_DM:
            return await person.select(
                ResponseMessage(self.env, stored), values, custom_id=custom_id
            )
        user = self._recipient(person, place)
        if not stored.visible_to(user.id):
            raise SetupError("That message is not visible to this person")
        menu = simcord.actors._find_component(
            stored.components,
            types=(ComponentType.STRING_SELECT,),
            custom_id=custom_id,
            label=None,
        )
        offered = {option["value"] for option in menu.get("options") or []}
        if not set(values) <= offered:
            raise SetupError(f"Options {sorted(set(values) - offered)} are not offered")
        data: dict[str, Any] = {
            "custom_id": menu["custom_id"],
            "component_type": ComponentType.STRING_SELECT,
            "values": list(values),
        }
        if menu.get("id") is not None:
            data["id"] = menu["id"]
        return await self._component(user, place, stored, data)

    async def _component(
        self, user: simcord.UserHandle, place: Place, stored: Any, data: dict[str, Any]
    ) -> InteractionResult:
        """A component of ``stored`` used by ``user`` in a group DM."""
        backend = self.env.backend
        self.state.pending_source = stored.id
        try:
            return await self._dispatch(
                user,
                place,
                InteractionType.MESSAGE_COMPONENT,
                data,
                extra={
                    "message": dict(simcord.backend.serializers.message_payload(backend, stored))
                },
                source=stored.id,
            )
        finally:
            self.state.pending_source = None

    def _recipient(self, person: Person, place: Place) -> simcord.UserHandle:
        user = person.user if isinstance(person, simcord.MemberActor) else person
        if user.id not in self.env.backend.get_channel(place.channel_id).recipient_ids:
            raise SetupError("That person is not in this group DM")
        return user

    async def _dispatch(
        self,
        user: simcord.UserHandle,
        place: Place,
        type: int,
        data: dict[str, Any],
        *,
        extra: dict[str, Any] | None = None,
        source: int | None = None,
    ) -> InteractionResult:
        """SimCord's own dispatch, minus its rule that a user acts only in their DM with the bot."""
        env = self.env
        record, payload = simcord.interactions.base_payload(
            env.backend,
            type=type,
            channel_id=place.channel_id,
            guild_id=None,
            user_id=user.id,
            data=data,
        )
        if extra:
            payload.update(extra)
        record.source_message_id = source
        env._notify_dispatch_observers(record)
        env.backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
        return InteractionResult(env, record)

    # ------------------------------------------------------------------ tokens

    @staticmethod
    def token_of(interaction: InteractionResult | discord.Interaction) -> str:
        """The token of a kit-driven interaction, or of one discord.py received."""
        if isinstance(interaction, InteractionResult):
            return interaction._interaction.token
        return interaction.token

    def kill(self, result: InteractionResult | str, status: int = 401) -> None:
        """The token dies now, before its 15 minutes: it answers 401 / 50027 (or 404 / 10015)."""
        if status not in (401, 404):
            raise SetupError("Discord was seen answering 401 or 404 for an early-dead token")
        token = result if isinstance(result, str) else self.token_of(result)
        self.state.killed[token] = status

    def followups_made(self, result: InteractionResult) -> int:
        return self.state.followups[result._interaction.id]

    def owners(self, result: InteractionResult) -> dict[str, str]:
        """The ``authorizing_integration_owners`` the interaction carried."""
        return dict(self.state.owners[result._interaction.id])

    # ------------------------------------------------------------------- views

    def shown(self, place: Place) -> list[Shown]:
        """The public messages the place shows, oldest first."""
        stored = self.env.backend.messages.get(place.channel_id, {})
        return [
            Shown(m.id, m.content, list(m.components))
            for m in sorted(stored.values(), key=lambda m: m.id)
            if not m.is_ephemeral
        ]

    def live(self, place: Place) -> list[Shown]:
        """The public messages of the place with a button someone can press."""
        return [shown for shown in self.shown(place) if shown.live_buttons]


@contextlib.contextmanager
def anywhere(env: simcord.Env, **options: Any) -> Iterator[Anywhere]:
    with Anywhere(env, **options) as kit:
        yield kit

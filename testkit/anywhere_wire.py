"""The play-anywhere kit's hooks into SimCord: its gateway, its REST routes, its interactions.

``patched(backend, state)`` wraps, for as long as it is entered, SimCord's gateway feed (the
bot never hears of a group DM or a server without it), every route handler in
``simcord.http.router._ROUTES`` (bot-token calls refused and counted where the bot is not;
interaction tokens with a clock, a followup cap, a rate limit and forced-ephemeral replies) and
``simcord.interactions.base_payload`` (context, owners and app permissions on every
INTERACTION_CREATE). Other backends pass through untouched, and everything is restored on exit.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import simcord.actors
import simcord.gateway
import simcord.http._helpers
import simcord.interactions
from simcord.backend import Backend
from simcord.backend.errors import BackendError, SetupError
from simcord.enums import CallbackType, InteractionType
from simcord.http import router

from .anywhere_model import (
    BOT_DM_APP_PERMISSIONS,
    BOTLESS_APP_PERMISSIONS,
    EPHEMERAL,
    FOLLOWUP_CAP,
    GUILD_INSTALL,
    PRIVATE_APP_PERMISSIONS,
    USE_EXTERNAL_APPS,
    USER_INSTALL,
    KitState,
    PlaceKind,
)

#: The kits in force, one per SimCord backend.
_KITS: dict[int, tuple[Backend, KitState]] = {}


def state_of(backend: Backend) -> KitState | None:
    found = _KITS.get(id(backend))
    return found[1] if found is not None and found[0] is backend else None


def place_kind(state: KitState, backend: Backend, channel_id: int) -> PlaceKind:
    channel = backend.get_channel(channel_id)
    if channel.id in state.group_dms:
        return PlaceKind.GROUP_DM
    if channel.guild_id is None:
        return PlaceKind.BOT_DM
    if channel.guild_id in state.botless_guilds:
        return PlaceKind.BOTLESS_SERVER
    return PlaceKind.SERVER


_CONTEXT = {
    PlaceKind.SERVER: 0,
    PlaceKind.BOTLESS_SERVER: 0,
    PlaceKind.BOT_DM: 1,
    PlaceKind.GROUP_DM: 2,
}


def command_owners(
    state: KitState, kind: PlaceKind, guild_id: int | None, user_id: int, command: dict[str, Any]
) -> dict[str, str]:
    """``authorizing_integration_owners`` of a command run here, empty when nobody could run it.

    A key is present only if the app is installed that way, the command allows the place's
    context and the command allows that installation (receiving-and-responding, "Authorizing
    Integration Owners Object"). ``integration_types`` and ``contexts`` exist on global commands
    only; a command without ``integration_types`` is taken as guild-install only (what
    discord.py sends when ``allowed_installs`` is not set), without ``contexts`` as allowed in
    every context (Discord's default for new commands) unless ``dm_permission`` is false.
    """
    if command.get("guild_id") is not None:
        return {"0": str(guild_id)} if kind is PlaceKind.SERVER else {}
    contexts = command.get("contexts")
    if contexts is None:  # the legacy dm_permission=False (discord.py's guild_only) is GUILD only
        contexts = [0] if command.get("dm_permission") is False else [0, 1, 2]
    if _CONTEXT[kind] not in contexts:
        return {}
    installs = command.get("integration_types") or [GUILD_INSTALL]
    owners: dict[str, str] = {}
    if GUILD_INSTALL in installs and kind is PlaceKind.SERVER:
        owners["0"] = str(guild_id)
    elif GUILD_INSTALL in installs and kind is PlaceKind.BOT_DM:
        owners["0"] = (
            "0"  # "The value will be "0" if ... triggered from a DM with the app's bot user"
        )
    if USER_INSTALL in installs and user_id in state.user_installs:
        owners["1"] = str(user_id)
    return owners


def _command_by_id(backend: Backend, command_id: Any) -> dict[str, Any] | None:
    for scope in backend.commands.values():
        for command in scope.values():
            if str(command["id"]) == str(command_id):
                return command
    return None


def _click_owners(
    state: KitState, backend: Backend, kind: PlaceKind, channel_id: int
) -> dict[str, str]:
    """A component's interaction is authorized like the message's own interaction: anyone who
    sees the button can press it without installing anything."""
    source = state.pending_source
    if source is not None:
        message = backend.get_message(channel_id, source)
        meta = message.interaction_metadata or {}
        if meta.get("id") is not None and int(meta["id"]) in state.owners:
            return dict(state.owners[int(meta["id"])])
    channel = backend.get_channel(channel_id)
    if kind is PlaceKind.SERVER:
        return {"0": str(channel.guild_id)}
    return {"0": "0"} if kind is PlaceKind.BOT_DM else {}


def _group_dm_payload(backend: Backend, channel_id: int) -> dict[str, Any]:
    channel = backend.get_channel(channel_id)
    return {
        "id": str(channel.id),
        "type": 3,
        "name": channel.name,
        "icon": None,
        "owner_id": str(channel.owner_id or channel.recipient_ids[0]),
        "last_message_id": str(channel.last_message_id) if channel.last_message_id else None,
        "recipients": [
            {
                "id": str(uid),
                "username": backend.users[uid].name,
                "discriminator": "0",
                "avatar": None,
            }
            for uid in channel.recipient_ids
        ],
    }


def _base_payload(original: Callable[..., Any]) -> Callable[..., Any]:
    def base_payload(
        backend: Backend,
        *,
        type: int,
        channel_id: int,
        guild_id: int | None,
        user_id: int,
        data: dict[str, Any],
    ) -> Any:
        state = state_of(backend)
        if state is None:
            return original(
                backend,
                type=type,
                channel_id=channel_id,
                guild_id=guild_id,
                user_id=user_id,
                data=data,
            )
        kind = place_kind(state, backend, channel_id)
        if int(type) in (
            InteractionType.APPLICATION_COMMAND,
            InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
        ):
            command = _command_by_id(backend, data.get("id"))
            if command is None:
                raise SetupError(f"No registered command has id {data.get('id')}")
            owners = command_owners(state, kind, guild_id, user_id, command)
            if not owners:
                raise SetupError(
                    f"/{command['name']} is not offered to this person in a {kind.value}: Discord "
                    "shows a command only where its contexts and integration_types allow it and "
                    "the app is installed (to the server, or to this person)"
                )
        else:
            owners = _click_owners(state, backend, kind, channel_id)
        record, payload = original(
            backend, type=type, channel_id=channel_id, guild_id=guild_id, user_id=user_id, data=data
        )
        payload["context"] = _CONTEXT[kind]
        payload["authorizing_integration_owners"] = owners
        if kind is PlaceKind.GROUP_DM:
            payload["channel"] = _group_dm_payload(backend, channel_id)
            payload["app_permissions"] = str(PRIVATE_APP_PERMISSIONS)
        elif kind is PlaceKind.BOT_DM:
            payload["app_permissions"] = str(BOT_DM_APP_PERMISSIONS)
        elif kind is PlaceKind.BOTLESS_SERVER:
            # A partial guild rides along where the app has no bot member (the Interaction
            # Structure's ``guild?``); discord.py builds an uncached Guild from it.
            payload["guild"] = {"id": str(guild_id), "locale": "en-US", "features": []}
            payload["app_permissions"] = str(BOTLESS_APP_PERMISSIONS)
        state.owners[record.id] = owners
        return record, payload

    return base_payload


def _dispatch(original: Callable[..., Any]) -> Callable[..., Any]:
    """SimCord builds a click's payload before it adds the message: tell ``base_payload`` which."""

    async def dispatch(
        actor: Any, *args: Any, source_message_id: int | None = None, **kwargs: Any
    ) -> Any:
        state = state_of(actor._env.backend)
        if state is not None:
            state.pending_source = source_message_id
        try:
            return await original(actor, *args, source_message_id=source_message_id, **kwargs)
        finally:
            if state is not None:
                state.pending_source = None

    return dispatch


def _hides(state: KitState, event: str, payload: Any) -> bool:
    if event == "INTERACTION_CREATE":
        return False
    if event == "GUILD_CREATE" and state.hiding_guild:
        return True
    guild_id = payload.get("guild_id")
    if guild_id is None and event.startswith("GUILD_"):
        guild_id = payload.get("id")
    channel_id = payload.get("channel_id")
    if channel_id is None and event.startswith(("CHANNEL_", "THREAD_")):
        channel_id = payload.get("id")
    return state.hidden_channel(
        int(channel_id) if channel_id else None, int(guild_id) if guild_id else None
    )


def _feed(original: Callable[..., None]) -> Callable[..., None]:
    def feed(gateway: Any, event: str, payload: Any) -> None:
        state = state_of(gateway._backend)
        if state is not None and _hides(state, event, payload):
            gateway._backend.transcript.append(("DROPPED", event, "the bot is not in this place"))
            return
        original(gateway, event, payload)

    return feed


class RateLimited(BackendError):
    """429 with ``retry_after`` (seconds of virtual time), as Discord's rate-limit body."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(429, 0, "You are being rate limited.")
        self.retry_after = retry_after

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "retry_after": self.retry_after, "global": False}


def _token_call(state: KitState, ctx: router.RequestContext, handler: router.Handler) -> Any:
    backend = ctx.backend
    token = ctx.args["token"]
    record = backend.interactions[backend.interaction_tokens[token]]
    state.calls.interaction[record.channel_id] += 1
    callback = ctx.path.startswith("/interactions/")
    creating = False
    if not callback:
        status = state.killed.get(token)
        if (
            status is None
            and record.expires_at is not None
            and backend.now_iso() >= record.expires_at
        ):
            status = 401
        if status is not None:
            state.calls.dead_token += 1
            if status == 401:
                state.calls.unauthorized += 1
                raise BackendError(401, 50027, "Invalid Webhook Token")
            raise BackendError(404, 10015, "Unknown Webhook")
        _take_from_bucket(state, backend, token)
        creating = ctx.method == "POST" and ctx.path.count("/") == 3 and not record.loading
        owners = state.owners.get(record.id, {})
        if creating and "0" not in owners and state.followups[record.id] >= FOLLOWUP_CAP:
            state.calls.followup_cap += 1
            raise BackendError(
                400, 40094, "This interaction has hit the maximum number of follow up messages"
            )
    if _forced_ephemeral(state, backend, record):
        _make_ephemeral(ctx, callback=callback, creating=creating)
    result = handler(ctx)
    if creating:
        state.followups[record.id] += 1
    return result


def _take_from_bucket(state: KitState, backend: Backend, token: str) -> None:
    if state.webhook_bucket is None:
        return
    size, per = state.webhook_bucket
    now = backend.clock.now().timestamp()
    hits = [t for t in state.bucket_hits.get(token, []) if t > now - per]
    if len(hits) >= size:
        state.calls.rate_limited += 1
        state.bucket_hits[token] = hits
        retry_after = round(hits[0] + per - now, 3)
        state.calls.retry_after.append(retry_after)
        raise RateLimited(retry_after)
    state.bucket_hits[token] = [*hits, now]


def _forced_ephemeral(state: KitState, backend: Backend, record: Any) -> bool:
    """Use External Apps off for the person, and the app not installed to the server."""
    if record.guild_id is None or "0" in state.owners.get(record.id, {}):
        return False
    permissions = backend.compute_permissions(record.guild_id, record.user_id, record.channel_id)
    return not permissions & USE_EXTERNAL_APPS


def _make_ephemeral(ctx: router.RequestContext, *, callback: bool, creating: bool) -> None:
    body = copy.deepcopy(ctx.body())
    if callback and body.get("type") in (
        CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
        CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    ):
        data = body.setdefault("data", {}) or {}
        data["flags"] = int(data.get("flags") or 0) | EPHEMERAL
        body["data"] = data
    elif creating:
        body["flags"] = int(body.get("flags") or 0) | EPHEMERAL
    else:
        return
    ctx.json = body


def _bot_call(state: KitState, ctx: router.RequestContext, handler: router.Handler) -> Any:
    backend = ctx.backend
    raw_channel = ctx.args.get("channel_id") or ctx.args.get("thread_id")
    channel_id = int(raw_channel) if raw_channel and raw_channel.isdigit() else None
    raw_guild = ctx.args.get("guild_id")
    guild_id = int(raw_guild) if raw_guild and raw_guild.isdigit() else None
    channel = backend.channels.get(channel_id) if channel_id is not None else None
    if channel is not None and guild_id is None:
        guild_id = channel.guild_id
    state.calls.bot[channel_id] += 1
    if state.hidden_channel(channel_id, guild_id):
        state.calls.refused += 1
        raise BackendError(403, 50001, "Missing Access")
    return handler(ctx)


def _route(handler: router.Handler) -> router.Handler:
    def wrapped(ctx: router.RequestContext) -> Any:
        state = state_of(ctx.backend)
        if state is None:
            return handler(ctx)
        token = ctx.args.get("token")
        if token is not None and token in ctx.backend.interaction_tokens:
            return _token_call(state, ctx, handler)
        if token is not None:  # a channel webhook's own token: not the bot's
            return handler(ctx)
        return _bot_call(state, ctx, handler)

    return wrapped


def _prepare(original: Callable[..., Any]) -> Callable[..., Any]:
    """A message an interaction posts carries its owners in ``interaction_metadata`` (Message
    Interaction Metadata Object), where discord.py's ``is_user_integration()`` reads them."""

    def prepare_bot_message(ctx: router.RequestContext, channel_id: int, **kwargs: Any) -> Any:
        prepared = original(ctx, channel_id, **kwargs)
        state = state_of(ctx.backend)
        interaction = kwargs.get("interaction")
        meta = prepared[0].interaction_metadata
        if state is not None and interaction is not None and meta is not None:
            meta["authorizing_integration_owners"] = dict(state.owners.get(interaction.id, {}))
        return prepared

    return prepare_bot_message


@contextmanager
def patched(backend: Backend, state: KitState) -> Iterator[None]:
    """Give ``backend`` the kit's Discord until exit; other backends see SimCord as it is."""
    _KITS[id(backend)] = (backend, state)
    routes = {method: list(entries) for method, entries in router._ROUTES.items()}
    saved = (
        simcord.interactions.base_payload,
        simcord.actors._dispatch_actor_interaction,
        simcord.gateway.FakeGateway.feed,
        simcord.http._helpers.prepare_bot_message,
    )
    for method, entries in routes.items():
        router._ROUTES[method] = [(template, _route(handler)) for template, handler in entries]
    simcord.interactions.base_payload = _base_payload(saved[0])
    simcord.actors._dispatch_actor_interaction = _dispatch(saved[1])
    simcord.gateway.FakeGateway.feed = _feed(saved[2])  # type: ignore[method-assign]
    simcord.http._helpers.prepare_bot_message = _prepare(saved[3])
    try:
        yield
    finally:
        router._ROUTES.clear()
        router._ROUTES.update(routes)
        simcord.interactions.base_payload = saved[0]
        simcord.actors._dispatch_actor_interaction = saved[1]
        simcord.gateway.FakeGateway.feed = saved[2]  # type: ignore[method-assign]
        simcord.http._helpers.prepare_bot_message = saved[3]
        _KITS.pop(id(backend), None)

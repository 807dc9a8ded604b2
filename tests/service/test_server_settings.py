"""The service's settings accessors: a server's defaults and channels, a failed write refused."""

from __future__ import annotations

import pytest

from bot.service import ServiceError
from bot.service.front_store import FrontStore
from bot.service.saver import Saver
from data import ServerSettings, Store, StoreError
from testkit.service_game import ServiceGame


async def test_the_service_keeps_a_servers_defaults_and_channels(game: ServiceGame) -> None:
    service = game.service
    await service.front.set_default_timer(1, 30)
    await service.front.set_default_hints(1, False)
    assert await service.front.allow_channel(1, 8, True) == (8,)
    assert await service.front.allow_channel(1, 9, True) == (8, 9)
    assert await service.front.allow_channel(1, 8, False) == (9,)
    assert await service.front.server_settings(1) == ServerSettings(None, 30, False, (9,))
    await service.front.allow_every_channel(1)
    await service.front.set_default_timer(1, None)
    assert await service.front.server_settings(1) == ServerSettings(None, None, False, ())
    assert await service.front.public_locale(1, "pl") == "pl"


async def test_a_setting_the_store_refuses_is_a_readable_refusal(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def full(*args: object) -> None:
        raise StoreError("disk full")

    for name in ("set_default_timer", "set_default_hints", "allow_channel", "allow_every_channel"):
        monkeypatch.setattr(store.settings, name, full)
    front = FrontStore(store, Saver())
    for write in (
        front.set_default_timer(1, 60),
        front.set_default_hints(1, True),
        front.allow_channel(1, 2, True),
        front.allow_every_channel(1),
    ):
        with pytest.raises(ServiceError) as refused:
            await write
        assert refused.value.key == "error.save_failed"
    assert await front.server_settings(1) == ServerSettings()

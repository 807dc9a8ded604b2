"""A server's settings on both backends: language, /lama new's defaults, allowed channels."""

from __future__ import annotations

import shutil
from pathlib import Path

from data import ServerSettings, Store
from data.schema import bundled_migrations

from ._helpers import Backend, counter_clock

BUNDLED = Path(str(bundled_migrations()))


async def test_a_server_without_settings_has_the_bots_defaults(store: Store) -> None:
    assert await store.settings.guild_settings(1) == ServerSettings()


async def test_each_setting_is_kept_apart(store: Store) -> None:
    await store.settings.set_language(1, "pl")
    await store.settings.set_default_timer(1, 90)
    await store.settings.set_default_hints(1, False)
    assert await store.settings.guild_settings(1) == ServerSettings("pl", 90, False, ())
    await store.settings.set_default_timer(1, 0)  # 0: no timer, which is not the bot's default
    assert (await store.settings.guild_settings(1)).turn_timer == 0
    await store.settings.set_default_timer(1, None)
    await store.settings.set_default_hints(1, True)
    assert await store.settings.guild_settings(1) == ServerSettings("pl", None, True, ())
    await store.settings.set_language(1, None)
    assert await store.settings.get_language(1) is None
    assert (await store.settings.guild_settings(1)).hints is True
    assert await store.settings.guild_settings(2) == ServerSettings()


async def test_allowed_channels_are_added_taken_off_and_emptied(store: Store) -> None:
    assert await store.settings.allow_channel(1, 30) == (30,)
    assert await store.settings.allow_channel(1, 20) == (20, 30)
    assert await store.settings.allow_channel(1, 20) == (20, 30)  # twice is once
    await store.settings.allow_channel(2, 99)
    assert (await store.settings.guild_settings(1)).channels == (20, 30)
    assert await store.settings.disallow_channel(1, 30) == (20,)
    assert await store.settings.disallow_channel(1, 77) == (20,)  # not listed: nothing changes
    await store.settings.allow_every_channel(1)
    assert (await store.settings.guild_settings(1)).channels == ()
    assert (await store.settings.guild_settings(2)).channels == (99,)
    # Allowing a channel made the server a settings row; its language is still unset.
    assert await store.settings.get_language(2) is None


async def test_forgetting_a_server_deletes_its_defaults_and_channels(
    store: Store, backend: Backend
) -> None:
    await store.settings.set_language(1, "de")
    await store.settings.set_default_timer(1, 60)
    await store.settings.allow_channel(1, 10)
    await store.settings.allow_channel(1, 11)
    await store.settings.allow_channel(2, 12)
    done = await store.forget.forget_guild(1)
    assert done.settings == 1
    assert await store.settings.guild_settings(1) == ServerSettings()
    assert await backend.rows("SELECT guild_id, channel_id FROM guild_channels") == [(2, 12)]
    assert (await store.settings.guild_settings(2)).channels == (12,)


def _migrations_up_to(tmp_path: Path, version: int) -> Path:
    folder = tmp_path / "migrations"
    (folder / "postgres").mkdir(parents=True)
    for name in ("", "postgres"):
        for path in (BUNDLED / name).glob("*.sql"):
            if int(path.name[:4]) <= version:
                shutil.copy(path, folder / name / path.name)
    return folder


async def test_upgrading_from_10_to_11_keeps_the_languages(
    empty_backend: Backend, tmp_path: Path
) -> None:
    old = await Store.open(
        empty_backend.target, migrations=_migrations_up_to(tmp_path, 10), clock=counter_clock()
    )
    try:
        assert old.schema_version == 10
        await old.settings.set_language(1, "es")
        await old.settings.set_language(2, None)
    finally:
        await old.close()
    store = await Store.open(empty_backend.target, clock=counter_clock())
    try:
        assert store.schema_version >= 11
        assert await store.settings.guild_settings(1) == ServerSettings(language="es")
        assert await store.settings.guild_settings(2) == ServerSettings()
        await store.settings.set_default_hints(2, False)
        await store.settings.allow_channel(2, 5)
        assert await store.settings.guild_settings(2) == ServerSettings(None, None, False, (5,))
    finally:
        await store.close()

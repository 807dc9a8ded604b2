"""The saver: what a store raises becomes a refusal the player can read."""

from __future__ import annotations

import pytest

from bot.service import ServiceError
from bot.service.saver import Saver
from data import ChannelBusy, StoreError


async def answer() -> int:
    return 7


@pytest.mark.parametrize(
    ("raised", "key"),
    [
        (ChannelBusy("taken"), "error.channel_busy"),
        (StoreError("disk full"), "error.save_failed"),
        (RuntimeError("driver bug"), "error.save_failed"),
    ],
)
async def test_a_failed_write_is_a_refusal(raised: Exception, key: str) -> None:
    async def write() -> None:
        raise raised

    with pytest.raises(ServiceError) as refused:
        await Saver().save(write())
    assert refused.value.key == key
    assert refused.value.__cause__ is raised


async def test_a_write_that_works_gives_back_what_it_returned() -> None:
    assert await Saver().save(answer()) == 7

"""Table tokens in the store: the click's token that edits each running table, for a restart,
and a group DM's game (its place minus its channel's id) served with shard 0."""

from __future__ import annotations

from data import PingRecord, Shards, Store, TableTokenRecord
from game import Ruleset

from ._helpers import Backend, humans

GROUP_DM = 1456074443980800027  # a channel id, its place -GROUP_DM
SERVER_ON_SHARD_1 = 1 << 22  # (id >> 22) % 2 == 1


async def new_game(store: Store, guild_id: int, channel_id: int) -> int:
    return await store.games.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=10,
        ruleset=Ruleset(),
        turn_timer=60,
        seats=humans((10, "alice"), (11, "bob")),
    )


async def test_a_tables_token_is_kept_replaced_and_read_back_for_its_shard(
    backend: Backend,
) -> None:
    store = await Store.open(backend.target, durable=False)
    try:
        await store.leases.claim_shards(Shards(2, (0,)))
        group = await new_game(store, -GROUP_DM, GROUP_DM)
        other = await new_game(store, SERVER_ON_SHARD_1, 5)
        first = TableTokenRecord(group, 99, "t1", 7001, 100.0, bot_member=False, original=True)
        newer = TableTokenRecord(group, 99, "t2", 7002, 700.0, bot_member=False)
        for record in (first, newer, TableTokenRecord(other, 99, "t3", 7003, 1.0, True)):
            await store.table_tokens.save(record)

        # The group DM's game is shard 0's (Discord sends interactions without a server
        # there); the server's on shard 1 is another process's.
        assert await store.table_tokens.table_tokens() == [newer]
        await store.pings.add_ping(PingRecord(group, -GROUP_DM, GROUP_DM, 8001, 99, "t2", 700.0))
        [ping] = await store.pings.standing_pings()
        assert (ping.guild_id, ping.token, ping.sent_at) == (-GROUP_DM, "t2", 700.0)

        await store.forget.forget_guild(-GROUP_DM)
        assert await store.table_tokens.table_tokens() == []
    finally:
        await store.close()

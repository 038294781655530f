"""discord.py 2.2.2 (Debian's python3-discord) on Guildhall's gateway.

Pointed at the server like guild_management.py: `Route.BASE` for HTTP, and for the gateway the URL GET /gateway
answers, set as `DiscordWebSocket.DEFAULT_GATEWAY` (discord.py 2.2.2 connects there first, then resumes at READY's
resume_gateway_url). `client.start()` logs in, connects with compress=zlib-stream, identifies with the members intent
(so it also chunks every guild at startup with REQUEST_GUILD_MEMBERS) and waits for on_ready.

Prints one JSON line per event: {"event": "ready", ...} once ready, then {"event": "member_ban", ...} and
{"event": "guild_channel_update", ...} as the test makes those changes through REST; it exits once both came, or
after 60 s. Environment: GUILDHALL_URL, GUILDHALL_BOT_TOKEN, GUILDHALL_WORLD.
"""

import asyncio
import json
import os
import sys
import urllib.request

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

BASE_URL = os.environ["GUILDHALL_URL"]
TOKEN = os.environ["GUILDHALL_BOT_TOKEN"]
WORLD = json.loads(os.environ["GUILDHALL_WORLD"])
GUILD_ID = int(WORLD["guildId"])

Route.BASE = f"{BASE_URL}/api/v10"
with urllib.request.urlopen(f"{BASE_URL}/api/v10/gateway") as response:
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(json.load(response)["url"])


def emit(event, **fields):
    print(json.dumps({"event": event, **fields}), flush=True)


async def main():
    intents = discord.Intents.default()
    intents.members = True
    client = discord.Client(intents=intents)
    expected = {"member_ban", "guild_channel_update"}
    done = asyncio.Event()

    def seen(event, **fields):
        emit(event, **fields)
        expected.discard(event)
        if not expected:
            done.set()

    @client.event
    async def on_ready():
        guild = client.get_guild(GUILD_ID)
        emit(
            "ready",
            user=str(client.user.id),
            guilds=sorted(str(g.id) for g in client.guilds),
            channels=len(guild.channels) if guild else 0,
            roles=len(guild.roles) if guild else 0,
            members=len(guild.members) if guild else 0,
            member_count=guild.member_count if guild else 0,
            chunked=guild.chunked if guild else False,
        )

    @client.event
    async def on_member_ban(guild, user):
        seen("member_ban", guild=str(guild.id), user=str(user.id))

    @client.event
    async def on_guild_channel_update(before, after):
        seen(
            "guild_channel_update",
            channel=str(after.id),
            before=getattr(before, "topic", None),
            after=getattr(after, "topic", None),
        )

    runner = asyncio.create_task(client.start(TOKEN))
    try:
        await asyncio.wait_for(done.wait(), timeout=60)
    finally:
        await client.close()
        runner.cancel()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except asyncio.TimeoutError:
        emit("timeout")
        sys.exit(1)

"""The fake Discord's gateway: identify, resume, shards and dispatched events."""

from __future__ import annotations

import json
import secrets
from typing import Any

from aiohttp import WSMsgType, web

from bot.sandbox.fake_discord.base import FakeBase
from bot.sandbox.fake_discord.model import (
    _Session,
    shard_of,
)


class FakeGateway(FakeBase):
    """The websocket gateway (incl. sharding)."""

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: _Session | None = None
        try:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    session = await self._identify(ws, frame["d"])
                elif op == 6:
                    session = await self._resume(ws, frame["d"])
        finally:
            self._sockets.discard(ws)
            if session is not None and self._live.get(session.shard[0]) is session:
                del self._live[session.shard[0]]
            self._touch()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> _Session | None:
        self.identifies.append(data)
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]
        ):
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        session = _Session(ws=ws, session_id=secrets.token_hex(16))
        if shard is not None:
            session.shard = (shard[0], shard[1])
        guilds = [g for g in self.guilds if self._serves(session, g.id)]
        self._sessions[session.session_id] = session
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        if shard is not None:
            ready["shard"] = list(session.shard)
        await self._send(session, "READY", ready)
        for guild in guilds:
            await self._send(session, "GUILD_CREATE", guild.payload(self.bot_user))
        session.ready = True
        self._live[session.shard[0]] = session
        self._identified.add(session.shard[0])
        self._touch()
        return session

    @staticmethod
    def _serves(session: _Session, guild_id: int | None) -> bool:
        shard_id, count = session.shard
        return shard_of(guild_id, count) == shard_id

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> _Session | None:
        self.resumes.append(data)
        session = self._sessions.get(data.get("session_id", ""))
        if session is None:
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        session.ws = ws
        session.ready = True
        await self._send(session, "RESUMED", {})
        self._live[session.shard[0]] = session
        self._touch()
        return session

    async def _send(self, session: _Session, event: str, data: Any) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        await session.ws.send_str(json.dumps(frame))

    async def dispatch(
        self, event: str, data: Any, timeout: float = 10.0, *, shard: int | None = None
    ) -> None:
        """Push a gateway DISPATCH event to the shard of its guild (DMs: shard 0), as Discord
        routes them, or to ``shard`` (two processes seeing one game, as while a bot reshards);
        waits for that shard's connection."""
        raw_guild = data.get("guild_id") if isinstance(data, dict) else None
        guild_id = int(raw_guild) if raw_guild is not None else None

        def target() -> _Session | None:
            if not self._live:
                return None
            count = next(iter(self._live.values())).shard[1]
            shard_id = shard_of(guild_id, count) if shard is None else shard
            return self._live[shard_id] if self.shard_connected(shard_id) else None

        session = await self.wait(target, timeout, "the gateway handshake")
        await self._send(session, event, data)

    async def reconnect_request(self, shard_id: int = 0) -> None:
        """Ask the bot (its session of ``shard_id``) to reconnect (op 7); it will RESUME."""
        session = self._live[shard_id]
        await session.ws.send_str(json.dumps({"op": 7, "d": None}))

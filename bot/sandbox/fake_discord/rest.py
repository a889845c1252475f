"""The fake Discord's REST API: routes, payload refusals, messages, channels, threads,
and the answers to interactions (callbacks, follow-ups, webhook edits)."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from aiohttp import BodyPartReader, web

from bot.sandbox import fake_limits
from bot.sandbox.fake_discord import model
from bot.sandbox.fake_discord.gateway import FakeGateway
from bot.sandbox.fake_discord.model import (
    CALLBACK_DEFER,
    CALLBACK_DEFER_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_UPDATE,
    CREATE_PUBLIC_THREADS,
    EMPTY,
    EPHEMERAL,
    JSON_CONTENT_TYPE,
    LOADING,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    THREAD_ARCHIVE_MINUTES,
    CallbackTooLate,
    Exchange,
    FakeChannel,
    PayloadRefused,
    RecordedRequest,
    Reply,
    StoredAttachment,
    StoredMessage,
    UploadedFile,
    _now_iso,
)


class FakeRest(FakeGateway):
    """The REST routes the bot calls."""

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        rec = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            files=files,
            authorization=request.headers.get("Authorization"),
        )
        self.requests.append(rec)
        try:
            response = await self._route(rec)
        finally:
            self._touch()
        rec.status = response.status
        return response

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        if not request.can_read_body:
            return None, []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            body: Any = None
            files: list[UploadedFile] = []
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader)
                data = await part.read()
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(data)
                else:
                    files.append(
                        UploadedFile(
                            field=name,
                            filename=part.filename or name,
                            content_type=part.headers.get("Content-Type", ""),
                            data=bytes(data),
                        )
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode(errors="replace"), []

    _ROUTES: tuple[tuple[str, str, str], ...] = (
        ("GET", r"/users/@me", "_get_me"),
        ("GET", r"/oauth2/applications/@me", "_get_app"),
        ("GET", r"/applications/@me", "_get_app"),
        ("GET", r"/gateway", "_get_gateway"),
        ("GET", r"/gateway/bot", "_get_gateway_bot"),
        ("PUT", r"/applications/(?P<app>\d+)/commands", "_put_commands"),
        ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", "_put_commands"),
        ("GET", r"/applications/(?P<app>\d+)/commands", "_get_commands"),
        ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", "_get_commands"),
        ("POST", r"/applications/(?P<app>\d+)/commands", "_post_command"),
        ("POST", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", "_post_command"),
        ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", "_callback"),
        ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", "_followup"),
        ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)", "_wh_get"),
        ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)", "_wh_edit"),
        ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)", "_wh_del"),
        ("POST", r"/users/@me/channels", "_open_dm"),
        ("GET", r"/users/(?P<uid>\d+)", "_get_user"),
        ("GET", r"/channels/(?P<cid>\d+)", "_get_channel"),
        ("PATCH", r"/channels/(?P<cid>\d+)", "_patch_channel"),
        ("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", "_start_thread"),
        ("POST", r"/channels/(?P<cid>\d+)/messages", "_post_message"),
        ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_get_message"),
        ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_patch_message"),
        ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "_delete_message"),
        ("POST", r"/channels/(?P<cid>\d+)/typing", "_no_content"),
        ("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", "_get_member"),
        ("GET", r"/attachments/(?P<cid>\d+)/(?P<aid>\d+)/(?P<fname>[^/]+)", "_get_attachment"),
    )

    async def _route(self, rec: RecordedRequest) -> web.Response:
        for method, pattern, handler in self._ROUTES:
            if rec.method == method and (m := re.fullmatch(pattern, rec.path)):
                result: web.Response = await getattr(self, handler)(rec, **m.groupdict())
                return result
        self.unhandled.append(rec)
        return self._error(404, 0, f"fake Discord has no route {rec.method} {rec.path}")

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        return web.Response(
            status=status, body=json.dumps(data).encode(), content_type=JSON_CONTENT_TYPE
        )

    def _error(self, status: int, code: int, message: str) -> web.Response:
        return self._json({"message": message, "code": code}, status)

    def _refuse(self, rec: RecordedRequest, problems: fake_limits.Problems) -> web.Response | None:
        """Discord's 400 Invalid Form Body for a body over its limits (413 for a file over
        the upload limit), else ``None``."""
        big = [f for f in rec.files if len(f.data) > fake_limits.FILE_SIZE]
        if big:
            problems = [*problems, *(((f.field,), "FILE_TOO_LARGE", "too large") for f in big)]
        if not problems:
            return None
        errors = fake_limits.tree(problems)
        refusal = PayloadRefused(rec, errors)
        self.refused.append(refusal)
        if self.report_refusals:
            self.report_error(refusal)
        if big:
            return self._error(413, 40005, "Request entity too large")
        return self._json(fake_limits.invalid_form_body(errors), 400)

    def _refuse_message(
        self, rec: RecordedRequest, *, flags: int, new: bool = False
    ) -> web.Response | None:
        """A body over Discord's limits, or (``new``: a message being created) an empty one."""
        if refused := self._refuse(rec, fake_limits.check_message(rec.json or {}, flags=flags)):
            return refused
        return self._refuse_empty(rec, rec.json) if new else None

    def _refuse_empty(self, rec: RecordedRequest, body: Any) -> web.Response | None:
        """Discord's 400 ``Cannot send an empty message`` (code 50006) for a new message with
        nothing to show, else ``None``."""
        if not fake_limits.is_empty(body, len(rec.files)):
            return None
        refusal = PayloadRefused(rec, {"_errors": [{"code": "50006", "message": EMPTY}]})
        self.refused.append(refusal)
        if self.report_refusals:
            self.report_error(refusal)
        return self._error(400, 50006, EMPTY)

    async def _no_content(self, rec: RecordedRequest, **_: str) -> web.Response:
        return web.Response(status=204)

    async def _get_me(self, rec: RecordedRequest) -> web.Response:
        return self._json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _get_app(self, rec: RecordedRequest) -> web.Response:
        return self._json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "fake application",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.user("owner").payload(),
                "summary": "",
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_gateway(self, rec: RecordedRequest) -> web.Response:
        return self._json({"url": self.gateway_url})

    async def _get_gateway_bot(self, rec: RecordedRequest) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return self._json(
            {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}
        )

    async def _put_commands(
        self, rec: RecordedRequest, app: str, guild: str | None = None
    ) -> web.Response:
        if refused := self._refuse(rec, fake_limits.check_commands(rec.json)):
            return refused
        stored = self.register_commands(rec.json or [], int(guild) if guild else None)
        self.sync_count += 1
        return self._json(stored)

    async def _get_commands(
        self, rec: RecordedRequest, app: str, guild: str | None = None
    ) -> web.Response:
        return self._json(self.commands.get(int(guild) if guild else None, []))

    async def _post_command(
        self, rec: RecordedRequest, app: str, guild: str | None = None
    ) -> web.Response:
        problems: fake_limits.Problems = []
        fake_limits.check_command(problems, rec.json or {}, ())
        if refused := self._refuse(rec, problems):
            return refused
        scope = int(guild) if guild else None
        others = [c for c in self.commands.get(scope, []) if c["name"] != rec.json["name"]]
        stored = self.register_commands([*others, rec.json], scope)
        return self._json(next(c for c in stored if c["name"] == rec.json["name"]), 201)

    # --- messages

    def _new_message(
        self,
        channel_id: int,
        body: Mapping[str, Any] | None,
        files: Sequence[UploadedFile],
        *,
        webhook: bool = False,
        interaction: dict[str, Any] | None = None,
    ) -> StoredMessage:
        guild_id = None
        with contextlib.suppress(LookupError):
            guild_id = self.channel(channel_id).guild_id
        msg = StoredMessage(
            id=self.snowflake(),
            channel_id=channel_id,
            guild_id=guild_id,
            author=self.bot_user,
            webhook_id=self.application_id if webhook else None,
            interaction=interaction,
        )
        self._apply_body(msg, body or {}, files, edit=False)
        self.messages[msg.id] = msg
        return msg

    def _apply_body(
        self,
        msg: StoredMessage,
        body: Mapping[str, Any],
        files: Sequence[UploadedFile],
        *,
        edit: bool,
    ) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
            msg.allowed_mentions = body.get("allowed_mentions")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            flags = int(body["flags"])
            # An edit cannot make a message ephemeral or public.
            msg.flags = (flags & ~EPHEMERAL) | (msg.flags & EPHEMERAL) if edit else flags
        msg.attachments = self._attachments(msg, body, files)
        if edit:
            msg.flags &= ~LOADING
            msg.edits += 1
            msg.edited_at = _now_iso()

    def _attachments(
        self, msg: StoredMessage, body: Mapping[str, Any], files: Sequence[UploadedFile]
    ) -> list[StoredAttachment]:
        """Keep the listed existing attachments and add the uploaded files (``files[n]``)."""
        uploads = {f.field: f for f in files}
        new: list[StoredAttachment] = []
        if "attachments" not in body:
            new = list(msg.attachments)
            listed: list[Mapping[str, Any]] = [{"id": i} for i in range(len(files))]
        else:
            listed = body["attachments"] or []
        existing = {a.id: a for a in msg.attachments}
        for entry in listed:
            ident = int(entry["id"])
            upload = uploads.get(f"files[{ident}]")
            if upload is not None:
                new.append(
                    StoredAttachment(
                        id=self.snowflake(),
                        filename=entry.get("filename") or upload.filename,
                        content_type=upload.content_type,
                        data=upload.data,
                        description=entry.get("description"),
                    )
                )
            elif ident in existing:
                new.append(existing[ident])
        return new

    def _message_or_404(
        self, mid: str, *, via_channel: bool = False
    ) -> StoredMessage | web.Response:
        """The stored message; through the channel routes an ephemeral one does not exist."""
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted or (via_channel and msg.ephemeral):
            return self._error(404, 10008, "Unknown Message")
        return msg

    async def _post_message(self, rec: RecordedRequest, cid: str) -> web.Response:
        try:
            chan = self.channel(int(cid))
        except LookupError:
            return self._error(404, 10003, "Unknown Channel")
        if chan.is_thread and self._lacks(chan, SEND_MESSAGES_IN_THREADS):
            return self._error(403, 50013, "Missing Permissions")
        if refused := self._refuse_message(rec, flags=fake_limits.CHANNEL_FLAGS, new=True):
            return refused
        self.archived.discard(chan.id)  # posting in an archived thread unarchives it
        msg = self._new_message(int(cid), rec.json, rec.files)
        return self._json(msg.payload(self.api_base))

    async def _get_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        msg = self._message_or_404(mid, via_channel=True)
        return msg if isinstance(msg, web.Response) else self._json(msg.payload(self.api_base))

    async def _patch_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        msg = self._message_or_404(mid, via_channel=True)
        if isinstance(msg, web.Response):
            return msg
        if refused := self._refuse_message(rec, flags=fake_limits.CHANNEL_FLAGS):
            return refused
        self._apply_body(msg, rec.json or {}, rec.files, edit=True)
        return self._json(msg.payload(self.api_base))

    async def _delete_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        msg = self._message_or_404(mid, via_channel=True)
        if isinstance(msg, web.Response):
            return msg
        msg.deleted = True
        return web.Response(status=204)

    async def _get_attachment(
        self, rec: RecordedRequest, cid: str, aid: str, fname: str
    ) -> web.Response:
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == int(aid):
                    return web.Response(body=att.data, content_type=att.content_type or None)
        return self._error(404, 0, "Unknown attachment")

    async def _open_dm(self, rec: RecordedRequest) -> web.Response:
        chan = self.dm_channel(int(rec.json["recipient_id"]))
        return self._json(chan.payload())

    async def _get_user(self, rec: RecordedRequest, uid: str) -> web.Response:
        return self._json(self.user(int(uid)).payload())

    async def _get_member(self, rec: RecordedRequest, gid: str, uid: str) -> web.Response:
        return self._json(model._member_payload(self.user(int(uid))))

    async def _get_channel(self, rec: RecordedRequest, cid: str) -> web.Response:
        try:
            return self._json(self._channel_payload(self.channel(int(cid))))
        except LookupError:
            return self._error(404, 10003, "Unknown Channel")

    async def _patch_channel(self, rec: RecordedRequest, cid: str) -> web.Response:
        """Only what the bot changes on a thread: archive or unarchive it, rename it."""
        thread = self.threads.get(int(cid))
        if thread is None:
            return self._error(404, 10003, "Unknown Channel")
        body = rec.json or {}
        if "name" in body:
            name = str(body["name"] or "")
            if not 1 <= len(name) <= 100:
                return self._error(400, 50035, "Invalid Form Body: name must be 1-100 characters")
            thread = self.threads[thread.id] = FakeChannel(
                thread.id, name, thread.guild_id, PUBLIC_THREAD, parent_id=thread.parent_id
            )
        if body.get("archived") is True:
            self.archived.add(thread.id)
        elif body.get("archived") is False:
            self.archived.discard(thread.id)
        return self._json(self._channel_payload(thread))

    async def _start_thread(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        """A public thread from a message of a text channel, as Discord opens it: its id is the
        message's, one per message; not in a DM or a thread, not without the permission."""
        try:
            chan = self.channel(int(cid))
        except LookupError:
            return self._error(404, 10003, "Unknown Channel")
        if chan.is_dm or chan.is_thread or chan.type != 0:
            return self._error(400, 50024, "Cannot execute action on this channel type")
        if self._lacks(chan, CREATE_PUBLIC_THREADS):
            return self._error(403, 50013, "Missing Permissions")
        msg = self._message_or_404(mid, via_channel=True)
        if isinstance(msg, web.Response):
            return msg
        if msg.channel_id != chan.id:
            return self._error(404, 10008, "Unknown Message")
        if msg.id in self.threads:
            return self._error(400, 160004, "A thread has already been created for this message")
        body = rec.json or {}
        name = str(body.get("name") or "")
        duration = body.get("auto_archive_duration", 1440)
        if not 1 <= len(name) <= 100 or duration not in THREAD_ARCHIVE_MINUTES:
            return self._error(400, 50035, "Invalid Form Body: thread name or archive duration")
        thread = FakeChannel(msg.id, name, chan.guild_id, PUBLIC_THREAD, parent_id=chan.id)
        self.threads[thread.id] = thread
        return self._json(self._channel_payload(thread), 201)

    # --- interaction responses

    def _exchange(self, token: str, rec: RecordedRequest) -> Exchange | web.Response:
        ex = self.exchanges.get(token)
        if ex is None:
            return self._error(404, 10015, "Unknown Webhook")
        rec.exchange = ex
        return ex

    async def _callback(self, rec: RecordedRequest, iid: str, token: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return self._error(404, 10062, "Unknown interaction")
        if ex.callback_reply is not None:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        late = time.monotonic() - ex.pushed_at
        if late > self.callback_deadline:  # Discord has forgotten the interaction by then
            self.late_callbacks.append((ex, late))
            refusal = CallbackTooLate(rec, late)
            self.refused.append(refusal)
            if self.report_refusals:
                self.report_error(refusal)
            return self._error(404, 10062, "Unknown interaction")
        if refused := self._refuse(rec, fake_limits.check_callback(rec.json)):
            return refused
        body = rec.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        if kind == CALLBACK_MESSAGE and (refused := self._refuse_empty(rec, data)):
            return refused
        message: StoredMessage | None = None
        if kind in (CALLBACK_MESSAGE, CALLBACK_DEFER):
            first = dict(data) if kind == CALLBACK_MESSAGE else {}
            first["flags"] = int(data.get("flags") or 0) | (
                LOADING if kind == CALLBACK_DEFER else 0
            )
            message = self._new_message(
                ex.channel.id, first, rec.files, webhook=True, interaction=self._metadata(ex)
            )
            ex.original = message
        elif kind in (CALLBACK_UPDATE, CALLBACK_DEFER_UPDATE):
            if ex.source is None:
                return self._error(400, 50035, "update callback on an interaction without message")
            # Discord updates the one message, whatever copy of it the clicking client showed
            message = self.messages.get(ex.source.id, ex.source)
            if kind == CALLBACK_UPDATE:
                self._apply_body(message, data, rec.files, edit=True)
            ex.original = message
        ex.replies.append(Reply("callback", rec, message))
        interaction = {
            "id": str(ex.id),
            "type": ex.payload["type"],
            "response_message_loading": kind == CALLBACK_DEFER,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        if message is not None:
            interaction["response_message_id"] = str(message.id)
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind in (CALLBACK_MESSAGE, CALLBACK_UPDATE):
            resource["message"] = message.payload(self.api_base)
        return self._json({"interaction": interaction, "resource": resource})

    def _metadata(self, ex: Exchange) -> dict[str, Any]:
        owner = "0" if ex.channel.guild_id is not None else "1"
        owner_id = ex.channel.guild_id if ex.channel.guild_id is not None else ex.user.id
        return {
            "id": str(ex.id),
            "type": ex.payload["type"],
            "user": ex.user.payload(),
            "authorizing_integration_owners": {owner: str(owner_id)},
        }

    async def _followup(self, rec: RecordedRequest, app: str, token: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return ex
        if ex.callback_reply is None:
            return self._error(404, 10015, "Unknown Webhook")
        if refused := self._refuse_message(rec, flags=fake_limits.INTERACTION_FLAGS, new=True):
            return refused
        body = rec.json or {}
        original = ex.original
        cb = ex.callback_reply
        if original is not None and original.loading and cb.type == CALLBACK_DEFER:
            # Discord: the first followup after a deferred (thinking) response edits it.
            self._apply_body(original, body, rec.files, edit=True)
            message = original
        else:
            message = self._new_message(
                ex.channel.id, body, rec.files, webhook=True, interaction=self._metadata(ex)
            )
            ex.followups.append(message)
        ex.replies.append(Reply("followup", rec, message))
        return self._json(message.payload(self.api_base))

    def _webhook_message(self, ex: Exchange, mid: str) -> StoredMessage | web.Response:
        if mid == "@original":
            if ex.original is None or ex.original.deleted:
                return self._error(404, 10008, "Unknown Message")
            return ex.original
        msg = self._message_or_404(mid)
        if isinstance(msg, StoredMessage) and msg is not ex.original and msg not in ex.followups:
            return self._error(404, 10008, "Unknown Message")
        return msg

    async def _wh_get(self, rec: RecordedRequest, app: str, token: str, mid: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return ex
        msg = self._webhook_message(ex, mid)
        return msg if isinstance(msg, web.Response) else self._json(msg.payload(self.api_base))

    async def _wh_edit(self, rec: RecordedRequest, app: str, token: str, mid: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return ex
        msg = self._webhook_message(ex, mid)
        if isinstance(msg, web.Response):
            return msg
        if refused := self._refuse_message(rec, flags=fake_limits.INTERACTION_FLAGS):
            return refused
        self._apply_body(msg, rec.json or {}, rec.files, edit=True)
        ex.replies.append(Reply("edit", rec, msg))
        return self._json(msg.payload(self.api_base))

    async def _wh_del(self, rec: RecordedRequest, app: str, token: str, mid: str) -> web.Response:
        ex = self._exchange(token, rec)
        if isinstance(ex, web.Response):
            return ex
        msg = self._webhook_message(ex, mid)
        if isinstance(msg, web.Response):
            return msg
        msg.deleted = True
        ex.replies.append(Reply("delete", rec, msg))
        return web.Response(status=204)

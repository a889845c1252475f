"""Pushing interactions to the bot: slash commands, autocomplete, clicks, selects and
modals built from the synced command schema, and forged ones."""

from __future__ import annotations

import mimetypes
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from bot.sandbox.fake_discord import model
from bot.sandbox.fake_discord.model import (
    ACTION_ROW,
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BUTTON,
    CHANNEL_SELECT,
    DEFAULT_TIMEOUT,
    LABEL,
    LOCALE_ALIASES,
    MENTIONABLE_SELECT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_GROUP,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_SUBCOMMAND,
    OPT_USER,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    USER_SELECT,
    Exchange,
    FakeChannel,
    FakeUser,
    StoredAttachment,
    StoredMessage,
    _names,
    _walk,
)
from bot.sandbox.fake_discord.rest import FakeRest


class FakeInteractions(FakeRest):
    """Interactions a test pushes as a user would."""

    def _base_interaction(
        self, kind: int, user: FakeUser, channel: FakeChannel, locale: str
    ) -> dict[str, Any]:
        interaction_id = self.snowflake()
        locale = LOCALE_ALIASES.get(locale, locale)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": f"fake-{interaction_id}-{secrets.token_hex(8)}",
            "version": 1,
            "channel_id": str(channel.id),
            "channel": self._channel_payload(channel),
            "locale": locale,
            "app_permissions": str(
                int(ALL_PERMISSIONS)
                & ~(
                    self.denied.get(channel.id, 0)
                    | self.denied.get(channel.parent_id or channel.id, 0)
                )
            ),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        guild = self._guild_of(channel)
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = model._member_payload(user)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        else:
            payload["user"] = user.payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
        return payload

    async def _push(
        self,
        payload: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        source: StoredMessage | None = None,
        shard: int | None = None,
    ) -> Exchange:
        ex = Exchange(self, payload, user, channel, source)
        self.exchanges[ex.token] = ex
        await self.dispatch("INTERACTION_CREATE", payload, shard=shard)
        return ex

    def _command_path(
        self, name: str, guild_id: int | None
    ) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
        """Resolve ``"essenz start"`` to (root command, sub path, the leaf's option schema)."""
        words = name.strip().lstrip("/").split()
        root = self.command(words[0], guild_id)
        schema = root.get("options") or []
        path: list[str] = []
        for word in words[1:]:
            sub = next(
                (
                    o
                    for o in schema
                    if word in _names(o) and o["type"] in (OPT_SUBCOMMAND, OPT_GROUP)
                ),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in schema if o["type"] in (OPT_SUBCOMMAND, OPT_GROUP)]
                raise LookupError(f"/{root['name']} has no subcommand {word!r}; there are {subs}")
            path.append(sub["name"])
            schema = sub.get("options") or []
        if any(o["type"] in (OPT_SUBCOMMAND, OPT_GROUP) for o in schema):
            subs = [o["name"] for o in schema]
            raise LookupError(f"/{name} needs a subcommand: {subs}")
        return root, path, schema

    def _command_data(
        self,
        name: str,
        options: Mapping[str, Any],
        channel: FakeChannel,
        *,
        focused: str | None = None,
    ) -> dict[str, Any]:
        root, path, schema = self._command_path(name, channel.guild_id)
        resolved: dict[str, dict[str, Any]] = {}
        by_name = {alias: o for o in schema for alias in _names(o)}
        built = []
        given = set()
        for typed, value in options.items():
            opt = by_name.get(typed)
            if opt is None:
                raise ValueError(f"/{name} has no option {typed!r}; options: {list(by_name)}")
            key = opt["name"]
            given.add(key)
            if typed == focused:
                built.append(
                    {"name": key, "type": opt["type"], "value": str(value), "focused": True}
                )
            else:
                converted = self._convert(opt, value, channel, resolved)
                built.append({"name": key, "type": opt["type"], "value": converted})
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise ValueError(f"/{name}: required option(s) missing: {missing}")
        nested: list[dict[str, Any]] = built
        for depth in range(len(path) - 1, -1, -1):  # innermost subcommand first
            kind = OPT_SUBCOMMAND if depth == len(path) - 1 else OPT_GROUP
            nested = [{"name": path[depth], "type": kind, "options": nested}]
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", 1),
            "options": nested,
        }
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _convert(
        self,
        opt: Mapping[str, Any],
        value: Any,
        channel: FakeChannel,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        kind = opt["type"]
        if kind in (OPT_USER, OPT_MENTIONABLE):
            user = self.user(_mention_id(value))
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if channel.guild_id is not None:
                member = model._member_payload(user, with_user=False)
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if kind == OPT_CHANNEL:
            chan = self.channel(_channel_ref(value))
            entry = {**chan.payload(), "permissions": ALL_PERMISSIONS}
            resolved.setdefault("channels", {})[str(chan.id)] = entry
            return str(chan.id)
        if kind == OPT_ROLE:
            role_id = int(str(value).strip("<@&>"))
            role = {"id": str(role_id), "name": f"role{role_id}", "color": 0, "hoist": False,
                    "position": 1, "permissions": "0", "managed": False, "mentionable": True,
                    "flags": 0}  # fmt: skip
            resolved.setdefault("roles", {})[str(role_id)] = role
            return str(role_id)
        if kind == OPT_ATTACHMENT:
            filename, data = value if isinstance(value, tuple) else ("upload.bin", bytes(value))
            kind = mimetypes.guess_type(filename)[0] or "application/octet-stream"
            att = StoredAttachment(self.snowflake(), filename, kind, data)
            holder = StoredMessage(self.snowflake(), channel.id, channel.guild_id, self.user())
            holder.attachments.append(att)
            holder.deleted = True
            self.messages[holder.id] = holder
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload(
                self.api_base, channel.id
            )
            return str(att.id)
        converted = _scalar(opt, value)
        _check_limits(opt, converted)
        return converted

    async def slash(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | str | int | None = None,
        channel: FakeChannel | str | int | None = None,
        locale: str = "de",
    ) -> Exchange:
        """Push a slash command. ``name`` may hold subcommands (``"essenz start"``); option
        values are converted by the synced schema (users by name/id/FakeUser/mention, channels by
        name/id, choices by value or display name). Raises ``LookupError`` / ``ValueError`` for
        something Discord's client would not let a user send."""
        u, chan = self.user(user), self.channel(channel)
        payload = self._base_interaction(APPLICATION_COMMAND, u, chan, locale)
        payload["data"] = self._command_data(name, options or {}, chan)
        return await self._push(payload, u, chan)

    async def autocomplete(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str | None = None,
        user: FakeUser | str | int | None = None,
        channel: FakeChannel | str | int | None = None,
        locale: str = "de",
        timeout: float = DEFAULT_TIMEOUT,
    ) -> list[dict[str, Any]]:
        """Push an autocomplete request for ``focused`` (default: the last option given) and
        return the choices the bot answered with."""
        options = dict(options or {})
        if focused is None:
            if not options:
                raise ValueError("autocomplete needs the typed option value")
            focused = list(options)[-1]
        options.setdefault(focused, "")
        u, chan = self.user(user), self.channel(channel)
        payload = self._base_interaction(AUTOCOMPLETE, u, chan, locale)
        payload["data"] = self._command_data(name, options, chan, focused=focused)
        ex = await self._push(payload, u, chan)
        return await ex.choices(timeout)

    def _message(self, message: StoredMessage | int) -> StoredMessage:
        msg = self.messages[message] if isinstance(message, int) else message
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        return msg

    async def click(
        self,
        message: StoredMessage | int,
        custom_id: str | int,
        *,
        user: FakeUser | str | int | None = None,
        locale: str = "de",
        shard: int | None = None,
    ) -> Exchange:
        """Press a button on a stored message: by ``custom_id``, or by 1-based position among the
        message's buttons when an int is given (to the guild's shard, or to ``shard``). Raises
        ``LookupError`` for a missing button and ``ValueError`` for a disabled or link button."""
        msg = self._message(message)
        if isinstance(custom_id, int):
            buttons = msg.buttons
            if not 1 <= custom_id <= len(buttons):
                raise LookupError(f"message {msg.id} has {len(buttons)} button(s)")
            comp = buttons[custom_id - 1]
        else:
            comp = msg.component(custom_id)
        if comp["type"] != BUTTON:
            raise ValueError(f"{comp.get('custom_id')!r} is not a button")
        if comp.get("disabled"):
            raise ValueError(f"button {comp.get('custom_id')!r} is disabled")
        if "custom_id" not in comp:
            raise ValueError("link/premium buttons do not send interactions")
        return await self._component(msg, comp, [], user, locale, shard)

    async def select(
        self,
        message: StoredMessage | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        user: FakeUser | str | int | None = None,
        locale: str = "de",
        shard: int | None = None,
    ) -> Exchange:
        """Choose ``values`` in a select menu of a stored message. String selects check the
        values against the options; user selects take names/ids/FakeUsers."""
        msg = self._message(message)
        comp = msg.component(custom_id)
        if comp["type"] not in SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select menu")
        if comp.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        if comp["type"] == STRING_SELECT:
            allowed = [o["value"] for o in comp.get("options", [])]
            labels = {o["label"]: o["value"] for o in comp.get("options", [])}
            values = [labels.get(str(v), str(v)) for v in values]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} not among the options {allowed}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        return await self._component(msg, comp, list(values), user, locale, shard)

    async def _component(
        self,
        msg: StoredMessage,
        comp: Mapping[str, Any],
        values: list[Any],
        who: FakeUser | str | int | None,
        locale: str,
        shard: int | None = None,
    ) -> Exchange:
        u, chan = self.user(who), self.channel(msg.channel_id)
        payload = self._base_interaction(MESSAGE_COMPONENT, u, chan, locale)
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp["type"] in SELECT_TYPES:
            resolved: dict[str, dict[str, Any]] = {}
            if comp["type"] in (USER_SELECT, MENTIONABLE_SELECT):
                opt = {"type": OPT_USER}
                values = [self._convert(opt, v, chan, resolved) for v in values]
            elif comp["type"] == CHANNEL_SELECT:
                opt = {"type": OPT_CHANNEL}
                values = [self._convert(opt, v, chan, resolved) for v in values]
            data["values"] = [str(v) for v in values]
            if resolved:
                data["resolved"] = resolved
        payload["data"] = data
        payload["message"] = msg.payload(self.api_base)
        return await self._push(payload, u, chan, source=msg, shard=shard)

    async def forge_component(
        self,
        message: StoredMessage | int,
        custom_id: str,
        *,
        component_type: int = BUTTON,
        values: Sequence[str] = (),
        user: FakeUser | str | int | None = None,
        locale: str = "de",
    ) -> Exchange:
        """Push a component interaction for ``custom_id`` on ``message`` whether or not the
        message has that component (a crafted or stale client): no checks on the id, the
        values or the component's state; select values are sent as given."""
        comp = {"custom_id": custom_id, "type": component_type}
        if component_type in SELECT_TYPES and component_type != STRING_SELECT:
            comp["type"] = STRING_SELECT  # raw values only: no resolved users or channels
        ex = await self._component(self._message(message), comp, list(values), user, locale)
        return ex

    async def forge_modal(
        self,
        custom_id: str,
        fields: Mapping[str, str],
        *,
        user: FakeUser | str | int | None = None,
        channel: FakeChannel | str | int | None = None,
        locale: str = "de",
    ) -> Exchange:
        """Push a modal submission the bot never opened: ``custom_id`` and text inputs
        ``fields`` (input custom_id → value) exactly as given."""
        u, chan = self.user(user), self.channel(channel)
        payload = self._base_interaction(MODAL_SUBMIT, u, chan, locale)
        rows = [
            {"type": ACTION_ROW, "components": [{"type": TEXT_INPUT, "custom_id": k, "value": v}]}
            for k, v in fields.items()
        ]
        payload["data"] = {"custom_id": custom_id, "components": rows}
        return await self._push(payload, u, chan)

    async def submit_modal(
        self,
        opened_by: Exchange,
        values: Mapping[str, Any],
        *,
        user: FakeUser | str | int | None = None,
        locale: str = "de",
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Exchange:
        """Submit the modal that the bot opened in answer to ``opened_by``; ``values`` maps the
        inputs' custom_ids to text (or a list for selects inside the modal). Inputs not given are
        sent empty; a required one missing raises ``ValueError``."""
        modal = await opened_by.modal(timeout)
        who = user if user is not None else opened_by.user
        u, chan = self.user(who), opened_by.channel
        unknown = set(values) - {
            c["custom_id"] for c in _walk(modal.get("components", [])) if "custom_id" in c
        }
        if unknown:
            raise ValueError(f"modal {modal['custom_id']!r} has no input(s) {sorted(unknown)}")
        payload = self._base_interaction(MODAL_SUBMIT, u, chan, locale)
        payload["data"] = {
            "custom_id": modal["custom_id"],
            "components": [_submitted(c, values) for c in modal.get("components", [])],
        }
        if opened_by.source is not None:
            payload["message"] = opened_by.source.payload(self.api_base)
        return await self._push(payload, u, chan, source=opened_by.source)


def _submitted(comp: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The submission shape of one modal component, mirroring the modal's layout."""
    kind = comp["type"]
    if kind == ACTION_ROW:
        return {"type": 1, "components": [_submitted(c, values) for c in comp["components"]]}
    if kind == LABEL:
        return {"type": LABEL, "component": _submitted(comp["component"], values)}
    custom_id = str(comp.get("custom_id", ""))
    if kind == TEXT_INPUT:
        value = str(values.get(custom_id, comp.get("value") or ""))
        if comp.get("required", True) and not value:
            raise ValueError(f"modal input {custom_id!r} is required")
        return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
    if kind in SELECT_TYPES:
        chosen = values.get(custom_id, [])
        chosen = [chosen] if isinstance(chosen, str) else list(chosen)
        return {"type": kind, "custom_id": custom_id, "values": [str(v) for v in chosen]}
    return {"type": kind, **({"custom_id": custom_id} if custom_id else {})}


def _mention_id(value: Any) -> FakeUser | str | int:
    if isinstance(value, FakeUser | int):
        return value
    text = str(value).strip()
    if m := re.fullmatch(r"<@!?(\d+)>", text):
        return int(m.group(1))
    if text.isdigit():
        return int(text)
    return text


def _channel_ref(value: Any) -> FakeChannel | str | int:
    if isinstance(value, FakeChannel | int):
        return value
    text = str(value).strip()
    if m := re.fullmatch(r"<#(\d+)>", text):
        return int(m.group(1))
    return int(text) if text.isdigit() else text


_TRUE = {"true", "yes", "ja", "1", "on", "wahr"}
_FALSE = {"false", "no", "nein", "0", "off", "falsch"}


def _scalar(opt: Mapping[str, Any], value: Any) -> Any:
    kind = opt["type"]
    choices = opt.get("choices")
    if choices:
        for choice in choices:
            names = {choice["name"], *(choice.get("name_localizations") or {}).values()}
            if str(value) in names or str(value) == str(choice["value"]):
                value = choice["value"]
                break
        else:
            shown = [c["value"] for c in choices]
            raise ValueError(f"option {opt['name']!r} must be one of {shown}, not {value!r}")
    try:
        if kind == OPT_INTEGER:
            return int(value)
        if kind == OPT_NUMBER:
            return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"option {opt['name']!r} needs a number, not {value!r}") from None
    if kind == OPT_BOOLEAN:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text not in _TRUE | _FALSE:
            raise ValueError(f"option {opt['name']!r} needs true/false, not {value!r}")
        return text in _TRUE
    return str(value)


def _check_limits(opt: Mapping[str, Any], value: Any) -> None:
    name = opt["name"]
    if isinstance(value, str):
        if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
            raise ValueError(f"option {name!r}: length {len(value)} outside the allowed range")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        lo, hi = opt.get("min_value"), opt.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"option {name!r} must be within {lo}..{hi}, not {value}")

"""What real Discord refuses: the payload limits the loopback fake enforces.

Each ``check_*`` function takes a request body as the bot sent it and returns the problems
found, as Discord reports them: an ``errors`` tree keyed by the JSON path (``{"embeds": {"0":
{"fields": {"3": {"value": {"_errors": [{"code": ..., "message": ...}]}}}}}}``), empty when
Discord would accept the body. :func:`invalid_form_body` wraps a tree in Discord's 400 answer
(``{"code": 50035, "message": "Invalid Form Body", "errors": ...}``).

The limits are Discord's documented ones (discord-api-docs: message.mdx,
components/reference.mdx, receiving-and-responding.mdx, application-commands.mdx).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

Path = tuple[str | int, ...]
Problems = list[tuple[Path, str, str]]

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
ROWS = 5
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
MODAL_TITLE = 45
MODAL_INPUTS = 5
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100
INPUT_VALUE = 4000  # a text input's value, min_length and max_length
ALLOWED_USERS = 100  # allowed_mentions.users / roles
BUTTON_STYLES = range(1, 7)
LABEL_DESCRIPTION = 100
CHOICES = 25
CHOICE_TEXT = 100
FILE_SIZE = 10 * 1024 * 1024  # per file, without boosts (the interaction's attachment_size_limit)

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
IS_COMPONENTS_V2 = 1 << 15
CHANNEL_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
INTERACTION_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
DEFER_FLAGS = EPHEMERAL

# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECTS = (3, 5, 6, 7, 8)
LABEL = 18
LINK, PREMIUM = 5, 6

# Callback types.
CALLBACK_MESSAGE, CALLBACK_DEFER, CALLBACK_UPDATE = 4, 5, 7
CALLBACK_AUTOCOMPLETE, CALLBACK_MODAL = 8, 9


def invalid_form_body(errors: Mapping[str, Any]) -> dict[str, Any]:
    """Discord's answer (HTTP 400) to a body it refuses."""
    return {"code": 50035, "message": "Invalid Form Body", "errors": dict(errors)}


def tree(problems: Problems) -> dict[str, Any]:
    """The problems as Discord's nested ``errors`` object."""
    out: dict[str, Any] = {}
    for path, code, message in problems:
        node = out
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return out


def flatten(errors: Mapping[str, Any], prefix: str = "") -> list[str]:
    """``path: message`` lines of an ``errors`` tree (for logs and test failures)."""
    lines: list[str] = []
    for key, value in errors.items():
        if key == "_errors":
            lines += [f"{prefix or '(body)'}: {e['message']}" for e in value]
        else:
            lines += flatten(value, f"{prefix}.{key}" if prefix else key)
    return lines


# ----------------------------------------------------------------- small checks


def _max(problems: Problems, path: Path, value: Any, limit: int) -> None:
    if isinstance(value, str | list) and len(value) > limit:
        problems.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def _between(problems: Problems, path: Path, value: Any, low: int, high: int) -> None:
    if value is None or not isinstance(value, str | list) or not low <= len(value) <= high:
        problems.append(
            (path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
        )


def _flags(problems: Problems, path: Path, flags: Any, allowed: int) -> None:
    if flags is None:
        return
    if int(flags) & ~allowed:
        problems.append((path, "MESSAGE_INVALID_FLAGS", f"Invalid flags {int(flags)}."))


# ----------------------------------------------------------------- messages


def check_message(body: Mapping[str, Any] | None, *, flags: int, at: Path = ()) -> Problems:
    """A message body (new message, followup, edit, callback data); ``flags`` are the message
    flags Discord accepts on this route."""
    problems: Problems = []
    if not body:
        return problems
    _max(problems, (*at, "content"), body.get("content"), CONTENT)
    _flags(problems, (*at, "flags"), body.get("flags"), flags)
    _check_mentions(problems, body.get("allowed_mentions"), (*at, "allowed_mentions"))
    embeds = body.get("embeds")
    if embeds:
        _check_embeds(problems, embeds, (*at, "embeds"))
    components = body.get("components")
    if components and not int(body.get("flags") or 0) & IS_COMPONENTS_V2:
        _check_rows(problems, components, (*at, "components"))
    return problems


def is_empty(body: Mapping[str, Any] | None, files: int) -> bool:
    """A new message with nothing to show (no content but spaces, no embed, component,
    sticker, poll or file): Discord answers 400 ``{"code": 50006, "message": "Cannot send an
    empty message"}``."""
    body = body or {}
    shown = ("embeds", "components", "sticker_ids", "poll", "attachments")
    return (
        not str(body.get("content") or "").strip()
        and not files
        and not any(body.get(key) for key in shown)
    )


def _check_mentions(problems: Problems, mentions: Any, at: Path) -> None:
    """``parse: ["users"]`` together with a list of users (or roles) is refused, as is a list
    of more than 100."""
    if not isinstance(mentions, Mapping):
        return
    parse = mentions.get("parse") or []
    for kind in ("users", "roles"):
        listed = mentions.get(kind) or []
        if kind in parse and listed:
            problems.append(
                (
                    (*at, "parse"),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                )
            )
        _max(problems, (*at, kind), list(listed), ALLOWED_USERS)


def embed_size(embed: Mapping[str, Any]) -> int:
    """The characters Discord counts towards the 6,000 of a message."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    for f in embed.get("fields") or []:
        size += len(f.get("name") or "") + len(f.get("value") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size


def _check_embeds(problems: Problems, embeds: Sequence[Mapping[str, Any]], at: Path) -> None:
    _max(problems, at, list(embeds), EMBEDS)
    for i, embed in enumerate(embeds):
        here = (*at, i)
        _max(problems, (*here, "title"), embed.get("title"), EMBED_TITLE)
        _max(problems, (*here, "description"), embed.get("description"), EMBED_DESCRIPTION)
        fields = embed.get("fields") or []
        _max(problems, (*here, "fields"), list(fields), EMBED_FIELDS)
        for j, f in enumerate(fields):
            _between(problems, (*here, "fields", j, "name"), f.get("name"), 1, FIELD_NAME)
            _between(problems, (*here, "fields", j, "value"), f.get("value"), 1, FIELD_VALUE)
            for key in ("name", "value"):  # only spaces: Discord calls it missing
                text = f.get(key)
                if isinstance(text, str) and text and not text.strip():
                    where = (*here, "fields", j, key)
                    problems.append((where, "BASE_TYPE_REQUIRED", "This field is required"))
        footer = embed.get("footer") or {}
        _max(problems, (*here, "footer", "text"), footer.get("text"), FOOTER)
        author = embed.get("author") or {}
        _max(problems, (*here, "author", "name"), author.get("name"), AUTHOR)
    if sum(embed_size(e) for e in embeds) > EMBED_TOTAL:
        problems.append(
            (at, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}")
        )


def _check_rows(problems: Problems, rows: Sequence[Mapping[str, Any]], at: Path) -> None:
    _max(problems, at, list(rows), ROWS)
    seen: set[str] = set()
    for i, row in enumerate(rows):
        here = (*at, i)
        if row.get("type") != ACTION_ROW:
            problems.append(((*here, "type"), "UNION_TYPE_CHOICES", "Expected an action row."))
            continue
        children = row.get("components") or []
        if not children:
            _between(problems, (*here, "components"), children, 1, BUTTONS_PER_ROW)
        selects = [c for c in children if c.get("type") in SELECTS]
        if selects and len(children) > 1:
            problems.append(
                (
                    (*here, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            )
        _max(problems, (*here, "components"), list(children), BUTTONS_PER_ROW)
        for j, comp in enumerate(children):
            _check_component(problems, comp, (*here, "components", j), seen)


def _custom_id(problems: Problems, comp: Mapping[str, Any], at: Path, seen: set[str]) -> None:
    cid = comp.get("custom_id")
    _between(problems, (*at, "custom_id"), cid, 1, CUSTOM_ID)
    if isinstance(cid, str):
        if cid in seen:
            problems.append(
                (
                    (*at, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        seen.add(cid)


def _check_component(problems: Problems, comp: Mapping[str, Any], at: Path, seen: set[str]) -> None:
    kind = comp.get("type")
    if kind == BUTTON:
        _check_button(problems, comp, at, seen)
    elif kind in SELECTS:
        _custom_id(problems, comp, at, seen)
        _max(problems, (*at, "placeholder"), comp.get("placeholder"), PLACEHOLDER)
        options = comp.get("options") or []
        if kind == STRING_SELECT:
            _between(problems, (*at, "options"), list(options), 1, SELECT_OPTIONS)
            values: set[Any] = set()
            for k, opt in enumerate(options):
                where = (*at, "options", k)
                _between(problems, (*where, "label"), opt.get("label"), 1, OPTION_TEXT)
                _between(problems, (*where, "value"), opt.get("value"), 1, OPTION_TEXT)
                _max(problems, (*where, "description"), opt.get("description"), OPTION_TEXT)
                if opt.get("value") in values:
                    problems.append(
                        (
                            (*where, "value"),
                            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                            "The specified option value is already used",
                        )
                    )
                values.add(opt.get("value"))
        for key, low in (("min_values", 0), ("max_values", 1)):
            value = comp.get(key)
            if value is None:
                continue
            if int(value) > SELECT_OPTIONS:
                problems.append(
                    ((*at, key), "NUMBER_TYPE_MAX", f"int value should be <= {SELECT_OPTIONS}.")
                )
            elif int(value) < low:
                problems.append(((*at, key), "NUMBER_TYPE_MIN", f"int value should be >= {low}."))
        least = comp.get("min_values")
        if kind == STRING_SELECT and least is not None and int(least) > len(options):
            problems.append(
                (
                    (*at, "min_values"),
                    "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                    "min_values must be less than or equal to the number of options",
                )
            )
    else:
        problems.append(((*at, "type"), "UNION_TYPE_CHOICES", f"Component type {kind} invalid."))


def _check_button(problems: Problems, comp: Mapping[str, Any], at: Path, seen: set[str]) -> None:
    """Label length, a style of 1-6, a link button's url, a label or an emoji."""
    _max(problems, (*at, "label"), comp.get("label"), BUTTON_LABEL)
    style = comp.get("style")
    if style not in BUTTON_STYLES:
        problems.append(
            ((*at, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).")
        )
    if style == LINK and not comp.get("url"):
        problems.append(((*at, "url"), "BASE_TYPE_REQUIRED", "This field is required"))
    if style != PREMIUM and not comp.get("label") and not comp.get("emoji"):
        problems.append(
            (
                (*at, "label"),
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )
        )
    if style not in (LINK, PREMIUM):
        _custom_id(problems, comp, at, seen)


# ----------------------------------------------------------------- interaction callbacks


def check_callback(body: Mapping[str, Any] | None) -> Problems:
    """An interaction callback (``POST /interactions/{id}/{token}/callback``)."""
    body = body or {}
    kind = body.get("type")
    data = body.get("data") or {}
    if kind in (CALLBACK_MESSAGE, CALLBACK_UPDATE):
        return check_message(data, flags=INTERACTION_FLAGS, at=("data",))
    problems: Problems = []
    if kind == CALLBACK_DEFER:
        _flags(problems, ("data", "flags"), data.get("flags"), DEFER_FLAGS)
    elif kind == CALLBACK_AUTOCOMPLETE:
        choices = data.get("choices") or []
        _max(problems, ("data", "choices"), list(choices), CHOICES)
        for i, choice in enumerate(choices):
            at = ("data", "choices", i)
            _between(problems, (*at, "name"), choice.get("name"), 1, CHOICE_TEXT)
            if isinstance(choice.get("value"), str):
                _max(problems, (*at, "value"), choice["value"], CHOICE_TEXT)
    elif kind == CALLBACK_MODAL:
        _check_modal(problems, data, ("data",))
    return problems


def _check_modal(problems: Problems, modal: Mapping[str, Any], at: Path) -> None:
    _between(problems, (*at, "title"), modal.get("title"), 1, MODAL_TITLE)
    _between(problems, (*at, "custom_id"), modal.get("custom_id"), 1, CUSTOM_ID)
    rows = modal.get("components") or []
    _between(problems, (*at, "components"), list(rows), 1, MODAL_INPUTS)
    seen: set[str] = set()
    for i, row in enumerate(rows):
        here = (*at, "components", i)
        if row.get("type") == LABEL:
            _between(problems, (*here, "label"), row.get("label"), 1, INPUT_LABEL)
            _max(problems, (*here, "description"), row.get("description"), LABEL_DESCRIPTION)
            inner = row.get("component") or {}
            _check_input(problems, inner, (*here, "component"), seen, labelled=True)
        else:
            for j, comp in enumerate(row.get("components") or []):
                _check_input(problems, comp, (*here, "components", j), seen, labelled=False)


def _check_input(
    problems: Problems, comp: Mapping[str, Any], at: Path, seen: set[str], *, labelled: bool
) -> None:
    if comp.get("type") == TEXT_INPUT:
        _custom_id(problems, comp, at, seen)
        if not labelled:
            _between(problems, (*at, "label"), comp.get("label"), 1, INPUT_LABEL)
        _max(problems, (*at, "placeholder"), comp.get("placeholder"), INPUT_PLACEHOLDER)
        _max(problems, (*at, "value"), comp.get("value"), INPUT_VALUE)
        least, most = comp.get("min_length"), comp.get("max_length")
        for key, value, low in (("min_length", least, 0), ("max_length", most, 1)):
            if value is not None and not low <= int(value) <= INPUT_VALUE:
                problems.append(
                    ((*at, key), "NUMBER_TYPE_MAX", f"int value should be <= {INPUT_VALUE}.")
                )
        if least is not None and most is not None and int(least) > int(most):
            problems.append(
                (
                    (*at, "min_length"),
                    "TEXT_INPUT_MIN_LENGTH_TOO_LARGE",
                    "min_length must be less than or equal to max_length",
                )
            )
        default = comp.get("value")
        if most is not None and isinstance(default, str) and len(default) > int(most):
            problems.append(
                ((*at, "value"), "BASE_TYPE_MAX_LENGTH", f"Must be {int(most)} or fewer in length.")
            )
    elif comp.get("type") in SELECTS:
        _check_component(problems, comp, at, seen)


# ----------------------------------------------------------------- application commands

COMMANDS = 100
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
OPTIONS = 25
COMMAND_CHARS = 8000
CHAT_INPUT = 1
SUBCOMMAND, GROUP = 1, 2


def _name_ok(name: Any) -> bool:
    """Discord's ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase."""
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME or name != name.lower():
        return False
    for char in name:
        kind = unicodedata.category(char)
        script = unicodedata.name(char, "")
        if not (
            char in "-_'"
            or kind[0] in "LN"
            or (kind[0] == "M" and script.startswith(("DEVANAGARI", "THAI")))
        ):
            return False
    return True


def check_commands(commands: Sequence[Mapping[str, Any]] | None) -> Problems:
    """A bulk overwrite of application commands (``PUT .../commands``)."""
    problems: Problems = []
    commands = list(commands or [])
    _max(problems, (), commands, COMMANDS)
    for i, command in enumerate(commands):
        check_command(problems, command, (i,))
    return problems


def check_command(problems: Problems, command: Mapping[str, Any], at: Path) -> None:
    """One command: names, descriptions, options and choices, in every language, and the
    8,000 characters all its texts may have together (per language)."""
    chat = command.get("type", CHAT_INPUT) == CHAT_INPUT
    _check_named(problems, command, at, chat=chat)
    if chat:
        _check_options(problems, command.get("options") or [], (*at, "options"))
    locales = {""} | _locales(command)
    for locale in sorted(locales):
        if _chars(command, locale) > COMMAND_CHARS:
            problems.append(
                (
                    at,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({COMMAND_CHARS})",
                )
            )
            break


def _check_named(problems: Problems, entry: Mapping[str, Any], at: Path, *, chat: bool) -> None:
    names = [("name", entry.get("name"))]
    names += [
        (f"name_localizations.{k}", v) for k, v in (entry.get("name_localizations") or {}).items()
    ]
    for key, name in names:
        ok = _name_ok(name) if chat else isinstance(name, str) and 1 <= len(name) <= COMMAND_NAME
        if not ok:
            problems.append(
                ((*at, *key.split(".")), "APPLICATION_COMMAND_INVALID_NAME", "Invalid name")
            )
    if not chat:
        return
    descriptions = [("description", entry.get("description"))]
    descriptions += [
        (f"description_localizations.{k}", v)
        for k, v in (entry.get("description_localizations") or {}).items()
    ]
    for key, text in descriptions:
        _between(problems, (*at, *key.split(".")), text, 1, COMMAND_DESCRIPTION)


def _check_options(problems: Problems, options: Sequence[Mapping[str, Any]], at: Path) -> None:
    _max(problems, at, list(options), OPTIONS)
    for i, option in enumerate(options):
        here = (*at, i)
        _check_named(problems, option, here, chat=True)
        if option.get("type") in (SUBCOMMAND, GROUP):
            _check_options(problems, option.get("options") or [], (*here, "options"))
        choices = option.get("choices") or []
        _max(problems, (*here, "choices"), list(choices), CHOICES)
        for j, choice in enumerate(choices):
            where = (*here, "choices", j)
            _between(problems, (*where, "name"), choice.get("name"), 1, CHOICE_TEXT)
            for k, v in (choice.get("name_localizations") or {}).items():
                _between(problems, (*where, "name_localizations", k), v, 1, CHOICE_TEXT)
            if isinstance(choice.get("value"), str):
                _max(problems, (*where, "value"), choice["value"], CHOICE_TEXT)


def _locales(entry: Mapping[str, Any]) -> set[str]:
    found = set(entry.get("name_localizations") or {}) | set(
        entry.get("description_localizations") or {}
    )
    for option in entry.get("options") or []:
        found |= _locales(option)
    for choice in entry.get("choices") or []:
        found |= set(choice.get("name_localizations") or {})
    return found


def _chars(entry: Mapping[str, Any], locale: str) -> int:
    """Name, description and choice texts of a command in ``locale`` (default where none)."""

    def text(item: Mapping[str, Any], key: str) -> str:
        localized = (item.get(f"{key}_localizations") or {}).get(locale) if locale else None
        return str(localized or item.get(key) or "")

    size = len(text(entry, "name")) + len(text(entry, "description"))
    for option in entry.get("options") or []:
        size += _chars(option, locale)
    for choice in entry.get("choices") or []:
        size += len(text(choice, "name")) + len(str(choice.get("value", "")))
    return size

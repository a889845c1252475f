"""Buttons, selects and modals that keep working after a restart.

A component's ``custom_id`` is ``<prefix>:<arg>:<arg>…`` (at most 100 characters). Cogs register a
handler per prefix; the bot routes every component or modal interaction to it, and errors take
the one error path. Nothing is kept in memory, so a click on a button sent before a restart
reaches the same handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.replies import handle_error, send_error

Handler = Callable[[discord.Interaction[Any], list[str]], Awaitable[None]]
SEPARATOR = ":"
MAX_CUSTOM_ID = 100


def custom_id(prefix: str, *args: object) -> str:
    """Build a ``custom_id``. Raises ValueError if it would exceed Discord's 100 characters."""
    value = SEPARATOR.join([prefix, *(str(a) for a in args)])
    if len(value) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long: {value!r}")
    return value


COMPONENT = discord.InteractionType.component
FORM = discord.InteractionType.modal_submit


class ComponentRouter:
    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}
        self._kinds: dict[str, frozenset[discord.InteractionType]] = {}

    def register(
        self, prefix: str, handler: Handler, *, buttons: bool = True, forms: bool = False
    ) -> None:
        """Route ``prefix:…`` to ``handler``: clicks and selects (``buttons``) and submitted
        modals (``forms``). Anything else with that prefix (a forged or stale client) is
        refused before the handler runs: a form's handler must not answer a click, a
        button's handler cannot update a message that a form submission does not carry."""
        if prefix in self._handlers:
            raise ValueError(f"component prefix {prefix!r} is registered twice")
        self._handlers[prefix] = handler
        self._kinds[prefix] = frozenset(
            kind for kind, wanted in ((COMPONENT, buttons), (FORM, forms)) if wanted
        )

    def unregister(self, prefix: str) -> None:
        self._handlers.pop(prefix, None)
        self._kinds.pop(prefix, None)

    async def dispatch(self, interaction: discord.Interaction[Any]) -> bool:
        """Route a component/modal interaction; False when it is not one of ours."""
        if interaction.type not in (COMPONENT, FORM):
            return False
        raw = str(_data(interaction).get("custom_id", ""))
        prefix, _, rest = raw.partition(SEPARATOR)
        handler = self._handlers.get(prefix)
        if handler is None:
            if SEPARATOR not in raw:  # a discord.ui View or Modal of discord.py's own store
                return False
            await send_error(interaction, "error.unknown_component")
            return True
        if interaction.type not in self._kinds[prefix] or not _on_its_message(interaction, raw):
            await send_error(interaction, "error.unknown_component")
            return True
        try:
            await handler(interaction, rest.split(SEPARATOR) if rest else [])
        except Exception as error:
            await handle_error(interaction, error)
        return True


def _on_its_message(interaction: discord.Interaction[Any], raw: str) -> bool:
    """Whether a click or select came from a message that carries that component: a forged
    ``custom_id`` (of another game, another server) sent on some other message neither acts
    nor replaces that message. A form carries its fields, not the message's components."""
    if interaction.type is not COMPONENT:
        return True
    message = interaction.message
    return message is not None and raw in custom_ids_of(message.components)


def custom_ids_of(components: Sequence[Any]) -> set[str]:
    """Every ``custom_id`` of ``components``, inside rows, containers and sections."""
    found: set[str] = set()
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            found.add(custom_id)
        inner = list(getattr(component, "children", None) or [])
        accessory = getattr(component, "accessory", None)
        found |= custom_ids_of([*inner, *([accessory] if accessory is not None else [])])
    return found


def values_of(interaction: discord.Interaction[Any]) -> list[str]:
    """The chosen values of a select menu interaction."""
    return [str(v) for v in _data(interaction).get("values", [])]


def modal_fields(interaction: discord.Interaction[Any]) -> dict[str, str]:
    """``custom_id`` → value of every text input of a submitted modal."""
    fields: dict[str, str] = {}
    for row in _data(interaction).get("components", []):
        for item in row.get("components", []):
            fields[str(item.get("custom_id"))] = str(item.get("value", ""))
    return fields


def _data(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    return dict(interaction.data or {})

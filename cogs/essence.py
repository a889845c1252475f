"""``/essenz``: Essence of the Arcane against a person or the bot, by clicking or typing.

Table of contents: a command or click is parsed, the game service applies it through the
engine (revision-guarded), the board is rendered from the engine's view and the message is
shown; when the bot is to act, its steps are chosen off the event loop and applied the same way.

Clicking builds one step in several choices (mote → action type → target / amount /
orientation). Every choice so far lives in the ``custom_id``
(``essenz:<game>:<decision>:p:<tokens>``), never in memory, so a button works after a restart
and a button made for a decision that is answered is refused as stale. The options offered are
exactly the engine's legal actions, split into tokens (``ENGINE.action_path``, through the
generic :class:`~engines.core.choices.ChoiceTree`). The other buttons (``inv``, ``m``, ``r``)
carry the game's revision instead of the decision.

The latest board message of a game and the players' names are kept in the game's ``display``
data (written without a revision bump), so that an older board loses its buttons when a new
one is posted.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app import SpielleiterBot
from bot.components import custom_id, values_of
from bot.games import (
    ACTIVE,
    FINISHED,
    FORFEIT,
    INVITED,
    GameService,
    Turn,
    load,
)
from bot.i18n import DEFAULT_LANGUAGE, cmd, t
from bot.render import render_async
from bot.render.essence import BoardText, Selection, render_board
from bot.replies import LANGUAGE_PREF, lang_for, pinging, send
from bot.store import GameRecord, StaleRevision, StoreBusy
from engines.core import BadInput, Event, IllegalAction
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.core.contract import decision_for
from engines.essence import ENGINE
from engines.essence.actions import Action

log = logging.getLogger("spielleiter.essence")

PREFIX = "essenz"
KIND = "essence"
LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
VARIANT_CHOICES = (
    "bestimmt",
    "schleife",
    "beschwoerung",
    "bestimmt,schleife",
    "bestimmt,beschwoerung",
    "schleife,beschwoerung",
    "bestimmt,schleife,beschwoerung",
)
COLOURS = (discord.Colour(0xE69F00), discord.Colour(0x0072B2))
NEUTRAL = discord.Colour(0x8A5CF6)
SEAT_ICONS = ("🟧", "🔵")
ARROWS = {"n": "↑", "ne": "↗", "e": "→", "se": "↘", "s": "↓", "sw": "↙", "w": "←", "nw": "↖"}
KIND_TOKENS = {
    "move": "mv",
    "split": "sp",
    "heal": "hl",
    "void": "vd",
    "destab": "ds",
    "summon": "sm",
}
TOKEN_KINDS = {v: k for k, v in KIND_TOKENS.items()}
MAX_BUTTONS = 10  # more options than this go into select menus
SELECT_SIZE = 25
AUTOCOMPLETE_LIMIT = 25
BOT_GRACE_SECONDS = 30  # a bot turn left unplayed this long (a restart) is resumed
IDLE_CHECK_MINUTES = 1.0
_SQUARE = re.compile(r"^[a-g][1-7](~[nesw]{1,2})?$")


# ------------------------------------------------------------------------ click choices


def choice_tree(actions: Sequence[Action]) -> ChoiceTree[Action]:
    """The engine's legal actions as click paths (a forged path: ``bad_choice``)."""
    return ChoiceTree(ENGINE, actions, error_key="essenzcog.error.bad_choice")


def _square_of(token: str) -> str:
    return token.split("~", 1)[0]


def _is_square(token: str) -> bool:
    return bool(_SQUARE.match(token))


def _display_order(token: str) -> tuple[int, str]:
    """Squares by file and rank (ways round the edge after them); other tokens as they come."""
    return (0, token) if _is_square(token) else (1, "")


# ------------------------------------------------------------------------ game records


@dataclass
class GameInfo:
    """What the cog keeps per game beside the engine's record (the game's ``display`` data)."""

    names: list[str]
    board: int | None = None

    def dump(self) -> dict[str, Any]:
        return {"names": self.names, "board": self.board}


def _parse_path(text: str) -> tuple[str, ...]:
    return tuple(token for token in text.split(".") if token)


@dataclass
class Screen:
    """One board message: text, embed, image and components."""

    content: str
    embed: discord.Embed
    file: discord.File | None
    view: discord.ui.View | None
    pings: tuple[int, ...] = ()  # the users the content calls (names in it ping nobody)


@dataclass
class Steps:
    """Events of the steps just played, with who played them."""

    items: list[tuple[int, Event]] = field(default_factory=list)

    def add(self, turn: Turn) -> None:
        self.items += [(turn.actor, event) for event in turn.events]


class Essence(commands.Cog):
    essenz = app_commands.Group(
        name=cmd("essenzcog.cmd.group.name"), description=cmd("essenzcog.cmd.group.desc")
    )

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot
        self.games = GameService(bot.store)

    async def cog_load(self) -> None:
        self.bot.components.register(PREFIX, self.on_component)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(PREFIX)
        self.idle_loop.cancel()

    # ---------------------------------------------------------------------- commands

    @essenz.command(
        name=cmd("essenzcog.cmd.start.name"), description=cmd("essenzcog.cmd.start.desc")
    )
    @app_commands.rename(
        gegner=cmd("essenzcog.opt.opponent.name"),
        bot=cmd("essenzcog.opt.bot.name"),
        varianten=cmd("essenzcog.opt.variants.name"),
        schnell=cmd("essenzcog.opt.quick.name"),
    )
    @app_commands.describe(
        gegner=cmd("essenzcog.opt.opponent.desc"),
        bot=cmd("essenzcog.opt.bot.desc"),
        varianten=cmd("essenzcog.opt.variants.desc"),
        schnell=cmd("essenzcog.opt.quick.desc"),
    )
    @app_commands.choices(
        bot=[
            app_commands.Choice(name=cmd(f"essenzcog.choice.level.{level}"), value=level)
            for level in LEVELS
        ],
        varianten=[
            app_commands.Choice(name=cmd(f"essenzcog.choice.variants.{value}"), value=value)
            for value in VARIANT_CHOICES
        ],
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        gegner: discord.User | None = None,
        bot: str | None = None,
        varianten: str | None = None,
        schnell: bool = False,
    ) -> None:
        lang = await lang_for(interaction)
        me = self._bot_id()
        against_bot = gegner is None or gegner.id == me
        if gegner is not None and not against_bot and bot is not None:
            raise BadInput("essenzcog.error.two_opponents")
        if gegner is not None and gegner.bot and not against_bot:
            raise BadInput("essenzcog.error.opponent_is_bot")
        variants = varianten.split(",") if varianten else []
        config: dict[str, Any] = {"variants": variants, "quick": schnell}
        user = interaction.user
        if against_bot:
            level = bot or DEFAULT_LEVEL
            config["ai_levels"] = {"1": level}
            players, invited = [user.id, me], False
            names = [user.display_name, self._bot_name(level, lang)]
        else:
            assert gegner is not None
            players, invited = [user.id, gegner.id], gegner.id != user.id
            names = [user.display_name, gegner.display_name]
        record = await self.games.create(
            KIND,
            config,
            channel_id=_channel(interaction),
            guild_id=interaction.guild_id,
            players=players,
            invited=invited,
        )
        info = GameInfo(names)
        if invited:
            await self._save_info(record.id, info)
            await send(interaction, **self._invitation(record, info, lang))
            return
        await self._open_game(interaction, record, info, lang)

    @essenz.command(name=cmd("essenzcog.cmd.move.name"), description=cmd("essenzcog.cmd.move.desc"))
    @app_commands.rename(
        notation=cmd("essenzcog.opt.notation.name"), spiel=cmd("essenzcog.opt.game.name")
    )
    @app_commands.describe(
        notation=cmd("essenzcog.opt.notation.desc"), spiel=cmd("essenzcog.opt.game.desc")
    )
    async def zug(
        self, interaction: discord.Interaction[Any], notation: str, spiel: int | None = None
    ) -> None:
        record = await self._game_for(interaction, spiel)
        await self._act_and_show(interaction, record, notation.strip(), None)

    @zug.autocomplete("notation")
    async def _complete_notation(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            record = await self._game_for(interaction, _namespace_game(interaction))
            match = load(record)
            seat = GameService.seat_for(record, interaction.user.id)
        except (IllegalAction, BadInput):
            return []
        typed = " ".join(current.lower().split())
        texts = [ENGINE.action_text(a) for a in ENGINE.legal_actions(match.state, seat)]
        chosen = [text for text in texts if typed in text][:AUTOCOMPLETE_LIMIT]
        return [app_commands.Choice(name=text, value=text) for text in chosen]

    @essenz.command(
        name=cmd("essenzcog.cmd.resign.name"), description=cmd("essenzcog.cmd.resign.desc")
    )
    @app_commands.rename(spiel=cmd("essenzcog.opt.game.name"))
    @app_commands.describe(spiel=cmd("essenzcog.opt.game.desc"))
    async def aufgeben(
        self, interaction: discord.Interaction[Any], spiel: int | None = None
    ) -> None:
        record = await self._game_for(interaction, spiel)
        await self._act_and_show(interaction, record, "!resign", None)

    @essenz.command(name=cmd("essenzcog.cmd.draw.name"), description=cmd("essenzcog.cmd.draw.desc"))
    @app_commands.rename(
        aktion=cmd("essenzcog.opt.draw.name"), spiel=cmd("essenzcog.opt.game.name")
    )
    @app_commands.describe(
        aktion=cmd("essenzcog.opt.draw.desc"), spiel=cmd("essenzcog.opt.game.desc")
    )
    @app_commands.choices(
        aktion=[
            app_commands.Choice(name=cmd(f"essenzcog.choice.draw.{verb}"), value=verb)
            for verb in ("offer", "accept", "decline")
        ]
    )
    async def remis(
        self, interaction: discord.Interaction[Any], aktion: str, spiel: int | None = None
    ) -> None:
        record = await self._game_for(interaction, spiel)
        await self._act_and_show(interaction, record, f"!draw-{aktion}", None)

    @essenz.command(name=cmd("essenzcog.cmd.list.name"), description=cmd("essenzcog.cmd.list.desc"))
    async def liste(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        records = await self.games.running_in_channel(_channel(interaction), KIND)
        if not records:
            await send(interaction, t("essenzcog.list.empty", lang), ephemeral=True)
            return
        lines = [await self._list_line(record, lang) for record in records]
        embed = discord.Embed(
            title=t("essenzcog.list.title", lang),
            description="\n".join(lines)[:4000],
            colour=NEUTRAL,
        )
        await send(interaction, embed=embed, ephemeral=True)

    @essenz.command(
        name=cmd("essenzcog.cmd.export.name"), description=cmd("essenzcog.cmd.export.desc")
    )
    @app_commands.rename(spiel=cmd("essenzcog.opt.game.name"))
    @app_commands.describe(spiel=cmd("essenzcog.opt.game.desc"))
    async def export(self, interaction: discord.Interaction[Any], spiel: int | None = None) -> None:
        lang = await lang_for(interaction)
        record = await self._game_for(interaction, spiel, running_only=False)
        data = await self.game_record(record, interaction.user.id)
        body = json.dumps(data, ensure_ascii=False, indent=1).encode()
        file = discord.File(_bytes_io(body), filename=f"essenz-{record.id}.json")
        text = t("essenzcog.export.done", lang, id=record.id, count=len(data["actions"]))
        await send(interaction, text, file=file, ephemeral=True)

    @essenz.command(
        name=cmd("essenzcog.cmd.position.name"), description=cmd("essenzcog.cmd.position.desc")
    )
    @app_commands.rename(spiel=cmd("essenzcog.opt.game.name"))
    @app_commands.describe(spiel=cmd("essenzcog.opt.game.desc"))
    async def position(
        self, interaction: discord.Interaction[Any], spiel: int | None = None
    ) -> None:
        lang = await lang_for(interaction)
        record = await self._game_for(interaction, spiel, running_only=False)
        text = ENGINE.position_text(load(record).state)
        await send(
            interaction, t("essenzcog.position", lang, id=record.id, position=text), ephemeral=True
        )

    @zug.autocomplete("spiel")
    @aufgeben.autocomplete("spiel")
    @remis.autocomplete("spiel")
    @export.autocomplete("spiel")
    @position.autocomplete("spiel")
    async def _complete_game(
        self, interaction: discord.Interaction[Any], current: int | str | None
    ) -> list[app_commands.Choice[int]]:
        lang = await lang_for(interaction)
        records = await self.games.running_in_channel(_channel(interaction), KIND)
        choices = []
        for record in records[:AUTOCOMPLETE_LIMIT]:
            info = await self._info(record, lang)
            label = t("essenzcog.game_label", lang, id=record.id, a=info.names[0], b=info.names[1])
            choices.append(app_commands.Choice(name=label[:100], value=record.id))
        return choices

    # ---------------------------------------------------------------------- components

    async def on_component(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        """``<game>:<token>:<op>:…`` — op ``p`` (a click choice; the token is the id of the
        decision it was made for), ``inv`` (invitation, answered per seat), ``m`` (resign /
        draw; the token is the revision) and ``r`` (rematch)."""
        if len(args) < 3 or not args[0].isdecimal() or not args[1]:
            raise BadInput("essenzcog.error.bad_choice")
        game_id, token, op, rest = int(args[0]), args[1], args[2], args[3:]
        record = await self.games.get(game_id)
        if record.kind != KIND:
            raise BadInput("essenzcog.error.bad_choice")
        if op == "r":
            if not token.isdecimal():  # the rematch button carries the finished game's revision
                raise BadInput("essenzcog.error.bad_choice")
            await self._rematch(interaction, record, int(token))
        elif op == "inv":
            await self._answer(interaction, record, accept=rest[:1] == ["1"])
        elif op == "p":
            chosen = values_of(interaction)[:1]
            path = _parse_path(rest[0] if rest else "") + tuple(chosen)
            await self._choose(interaction, record, path, token)
        elif op == "m" and rest:
            if not token.isdecimal() or record.revision != int(token):
                raise StaleRevision()
            await self._meta_click(interaction, record, rest[0])
        else:
            raise BadInput("essenzcog.error.bad_choice")

    async def _choose(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        path: tuple[str, ...],
        decision: str,
    ) -> None:
        match = self._require_turn(record, interaction.user.id)
        seat = GameService.seat_for(record, interaction.user.id, decision)
        if not m.decision_open(ENGINE, match, seat, decision):
            raise StaleRevision()  # made for a step that is played
        tree = choice_tree(ENGINE.legal_actions(match.state, seat))
        path = tree.follow(path)
        action = tree.action(path)
        if action is not None:
            await self._act_and_show(
                interaction, record, ENGINE.action_text(action), None, decision=decision
            )
            return
        lang = await lang_for(interaction)
        screen = await self._screen(record, match, lang, path=path, tree=tree)
        await self._update(interaction, screen)

    async def _meta_click(
        self, interaction: discord.Interaction[Any], record: GameRecord, verb: str
    ) -> None:
        lang = await lang_for(interaction)
        if verb == "resign":  # ask first: a resignation cannot be taken back
            GameService.seat_for(record, interaction.user.id)
            view = _view(
                [
                    [
                        _button(
                            t("essenzcog.button.resign_confirm", lang),
                            custom_id(PREFIX, record.id, record.revision, "m", "resign!"),
                            discord.ButtonStyle.danger,
                        )
                    ]
                ]
            )
            await send(interaction, t("essenzcog.resign.confirm", lang), view=view, ephemeral=True)
            return
        texts = {
            "resign!": "!resign",
            "draw-offer": "!draw-offer",
            "draw-accept": "!draw-accept",
            "draw-decline": "!draw-decline",
        }
        if verb not in texts:
            raise BadInput("essenzcog.error.bad_choice")
        await self._act_and_show(interaction, record, texts[verb], record.revision)

    async def _answer(
        self, interaction: discord.Interaction[Any], record: GameRecord, *, accept: bool
    ) -> None:
        lang = await lang_for(interaction)
        if accept:
            record = await self.games.accept(record.id, interaction.user.id)
        else:  # a challenge of two: declined, it is over
            record = await self.games.decline(record.id, interaction.user.id, close=True)
        info = await self._info(record)
        if not accept:
            text = t("essenzcog.invite.declined", lang, name=info.names[1], id=record.id)
            await interaction.response.edit_message(content=text, embed=None, view=None)
            return
        screen = await self._screen(record, load(record), lang)
        await self._update(interaction, screen)
        if interaction.message is not None:
            info.board = interaction.message.id
            await self._save_info(record.id, info)

    async def _rematch(
        self, interaction: discord.Interaction[Any], old: GameRecord, revision: int
    ) -> None:
        """One rematch per finished game: the first click uses the old game up (its revision
        moves on), every other click on that button, also at the same moment, is told so."""
        if old.status != FINISHED:
            raise IllegalAction("essenzcog.error.not_finished")
        GameService.seat_for(old, interaction.user.id)
        try:
            old = await self.games.claim(old, revision)
        except StaleRevision:
            raise IllegalAction("essenzcog.rematch.taken") from None
        lang = await lang_for(interaction)
        info = await self._info(old)
        me = self._bot_id()
        clicker = interaction.user.id
        others = [p for p in old.players if p != clicker] or [clicker]
        config = {k: v for k, v in old.config.items() if k != "ai_levels"}
        if me in old.players:  # against the bot: swap seats, so the other side begins
            level = old.config.get("ai_levels", {}).get(str(old.players.index(me)), DEFAULT_LEVEL)
            players = list(reversed(old.players))
            config["ai_levels"] = {str(players.index(me)): level}
            names = list(reversed(info.names))
            invited = False
        else:
            players = [clicker, others[0]]
            names = [info.names[old.players.index(p)] for p in players]
            invited = players[0] != players[1]
        record = await self.games.create(
            KIND,
            config,
            channel_id=old.channel_id,
            guild_id=old.guild_id,
            players=players,
            invited=invited,
        )
        await interaction.response.edit_message(view=None)
        new_info = GameInfo(names)
        if invited:
            await self._save_info(record.id, new_info)
            await interaction.followup.send(**self._invitation(record, new_info, lang))
            return
        await self._open_game(interaction, record, new_info, lang)

    # ---------------------------------------------------------------------- acting

    def _require_turn(self, record: GameRecord, user_id: int) -> m.Match:
        """The match, if ``user_id`` may act in it now. Raises IllegalAction otherwise."""
        if record.status != ACTIVE:
            raise IllegalAction("error.game_not_running")
        seat = GameService.seat_for(record, user_id)
        match = load(record)
        if seat not in m.to_act(ENGINE, match):
            raise IllegalAction("essenzcog.error.not_your_turn")
        return match

    async def _act_and_show(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        text: str,
        revision: int | None,
        *,
        decision: str | None = None,
    ) -> None:
        """Apply ``text`` for the user (a click: made for ``decision``, or for ``revision``),
        show the board, then let the bot answer (a step or a draw offer) if it is due."""
        if not text.startswith("!"):
            self._require_turn(record, interaction.user.id)
        turn = await self.games.act(
            record.id, interaction.user.id, text, revision, decision=decision
        )
        lang = await lang_for(interaction)
        steps = Steps()
        steps.add(turn)
        bot_due = self.games.bot_due(turn.record)
        screen = await self._screen(turn.record, turn.match, lang, steps=steps, thinking=bot_due)
        in_place = (
            interaction.type == discord.InteractionType.component
            and interaction.message is not None
            and not interaction.message.flags.ephemeral
        )
        if in_place:
            await self._update(interaction, screen)
        elif interaction.type == discord.InteractionType.component:  # from an ephemeral prompt
            await interaction.response.edit_message(
                content=t("essenzcog.done", lang), view=None, embed=None
            )
            await self._post(turn.record, screen)
        else:
            await self._reply_new(interaction, turn.record, screen)
        # The bot's answer replaces this board: it narrates the player's step first.
        if bot_due:
            await self._play_bot(turn.record, turn.match, lang, interaction, steps)

    async def bot_turn(
        self, record: GameRecord, steps: Steps | None = None
    ) -> tuple[GameRecord, m.Match, Steps]:
        """Let the service play everything the bot is due to play now (its steps, its answer
        to a draw offer), adding them to ``steps`` (the steps shown before them)."""
        steps = steps if steps is not None else Steps()
        record, turns = await self.games.play_bots(record)
        for turn in turns:
            steps.add(turn)
        return record, load(record), steps

    async def _play_bot(
        self,
        record: GameRecord,
        match: m.Match,
        lang: str,
        interaction: discord.Interaction[Any] | None,
        before: Steps | None = None,
    ) -> None:
        record, match, steps = await self.bot_turn(record, before)
        screen = await self._screen(record, match, lang, steps=steps)
        if interaction is not None:
            await interaction.edit_original_response(
                content=screen.content,
                embed=screen.embed,
                attachments=[screen.file] if screen.file else [],
                view=screen.view,
            )
        else:
            await self._post(record, screen)

    async def _open_game(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        info: GameInfo,
        lang: str,
    ) -> None:
        await self._save_info(record.id, info)
        match = load(record)
        bot_due = self.games.bot_due(record)
        screen = await self._screen(record, match, lang, thinking=bot_due)
        if interaction.response.is_done():
            message = await interaction.followup.send(**_send_kwargs(screen), wait=True)
            await self._remember_board(record, message.id)
            if bot_due:
                record, match, steps = await self.bot_turn(record)
                screen = await self._screen(record, match, lang, steps=steps)
                await message.edit(**_edit_kwargs(screen))
            return
        await self._reply_new(interaction, record, screen)
        if bot_due:
            await self._play_bot(record, match, lang, interaction)

    # ---------------------------------------------------------------------- showing

    async def _update(self, interaction: discord.Interaction[Any], screen: Screen) -> None:
        """Edit the clicked board message in place."""
        await interaction.response.edit_message(**_edit_kwargs(screen))

    async def _reply_new(
        self, interaction: discord.Interaction[Any], record: GameRecord, screen: Screen
    ) -> None:
        """Answer with a new board message; the previous board loses its buttons."""
        response = await interaction.response.send_message(**_send_kwargs(screen))
        message_id = response.message_id if response is not None else None
        if message_id is not None:
            await self._remember_board(record, message_id)

    async def _post(self, record: GameRecord, screen: Screen) -> None:
        """A new board message without an interaction (bot resume, forfeit)."""
        channel = self.bot.get_partial_messageable(record.channel_id)
        message = await channel.send(**_send_kwargs(screen))
        await self._remember_board(record, message.id)

    async def _remember_board(self, record: GameRecord, message_id: int) -> None:
        info = await self._info(record)
        previous = info.board
        info.board = message_id
        await self._save_info(record.id, info)
        if previous is not None and previous != message_id:
            old = self.bot.get_partial_messageable(record.channel_id).get_partial_message(previous)
            try:
                await old.edit(content=None, view=None)  # no turn prompt on an old board
            except discord.HTTPException:
                log.info("could not clear the old board %s of game %s", previous, record.id)

    async def _screen(
        self,
        record: GameRecord,
        match: m.Match,
        lang: str,
        *,
        path: tuple[str, ...] = (),
        tree: ChoiceTree[Action] | None = None,
        steps: Steps | None = None,
        thinking: bool = False,
    ) -> Screen:
        info = await self._info(record, lang)
        view = ENGINE.view_for(match.state, None)
        touched = _touched(steps) if steps is not None else []
        if touched:  # the whole answer of the last player, not only its last step
            view = {**view, "last": touched}
        outcome = m.outcome(ENGINE, match)
        to_act = sorted(m.to_act(ENGINE, match)) if record.status == ACTIVE else []
        seat = to_act[0] if to_act else None
        selection = _selection(path, tree) if tree is not None and path else None
        text = _board_text(view, info, lang, seat, outcome)
        png = await render_async(render_board, view, text, selection)
        filename = f"essenz-{record.id}.png"
        lines = [self._players_line(record, info)]
        if steps is not None and steps.items:
            lines.append("")
            lines += [f"› {line}" for line in _narrate(steps, info, lang)]
        lines.append("")
        mark = "" if outcome is None else ("🏆 " if outcome.winners else "🤝 ")
        lines.append(f"**{mark}{text.status}**")
        if outcome is None and text.detail:
            lines.append(text.detail)
        offer_narrated = steps is not None and any(
            event.type == "draw_offered" for _who, event in steps.items
        )
        if match.draw_offer_by is not None and outcome is None and not offer_narrated:
            lines.append(t("essenzcog.draw.offered", lang, name=info.names[match.draw_offer_by]))
        if thinking:
            lines.append(t("essenzcog.bot.thinking", lang))
        if tree is not None and path:
            lines.append(f"*{_prompt(path, tree, lang)}*")
        embed = discord.Embed(
            title=t("essenzcog.title", lang, id=record.id),
            description="\n".join(lines)[:4000],
            colour=COLOURS[seat] if seat is not None else NEUTRAL,
        )
        embed.set_image(url=f"attachment://{filename}")
        footer = text.variants
        if outcome is None:  # typing a step only helps while the game runs
            footer += f" · {t('essenzcog.footer.typing', lang)}"
        embed.set_footer(text=footer)
        human_to_act = seat is not None and record.players[seat] != self._bot_id()
        content, pings = "", tuple[int, ...]()
        if human_to_act and not thinking and not path:
            content = t("essenzcog.your_turn", lang, mention=f"<@{record.players[seat or 0]}>")
            pings = (record.players[seat or 0],)
            if seat is not None and match.draw_offer_by == seat:  # the other one answers
                content += "\n" + self._offer_line(record, info, seat, lang)
                pings += (record.players[1 - seat],)
        components = None
        if outcome is not None or record.status == FINISHED:
            components = self._end_components(record, lang)
        elif human_to_act and not thinking:
            components = self._play_components(record, info, match, lang, path, tree)
        return Screen(content, embed, _png(png, filename), components, pings)

    def _offer_line(self, record: GameRecord, info: GameInfo, offerer: int, lang: str) -> str:
        """Addresses the draw offer to the player who may answer it."""
        other = 1 - offerer
        mention = f"<@{record.players[other]}>"
        return t("essenzcog.draw.offered_to", lang, mention=mention, name=info.names[offerer])

    def _players_line(self, record: GameRecord, info: GameInfo) -> str:
        me = self._bot_id()
        parts = []
        for seat, player in enumerate(record.players):
            who = f"🤖 {info.names[seat]}" if player == me else f"<@{player}>"
            parts.append(f"{SEAT_ICONS[seat]} **{'AB'[seat]}** {who}")
        return "  ·  ".join(parts)

    def _end_components(self, record: GameRecord, lang: str) -> discord.ui.View:
        rematch = _button(
            t("essenzcog.button.rematch", lang),
            custom_id(PREFIX, record.id, record.revision, "r"),
            discord.ButtonStyle.success,
        )
        return _view([[rematch]])

    def _play_components(
        self,
        record: GameRecord,
        info: GameInfo,
        match: m.Match,
        lang: str,
        path: tuple[str, ...],
        tree: ChoiceTree[Action] | None,
    ) -> discord.ui.View:
        seat = sorted(m.to_act(ENGINE, match))[0]
        decision = decision_for(ENGINE, match.state, seat)
        assert decision is not None
        tree = tree or choice_tree(ENGINE.legal_actions(match.state, seat))
        rows: list[list[discord.ui.Item[Any]]] = []
        options = sorted(tree.options(path), key=_display_order)

        def cid(*parts: object) -> str:
            """A step choice carries its decision; a meta button the game's revision."""
            token = decision.id if parts[0] == "p" else record.revision
            return custom_id(PREFIX, record.id, token, *parts)

        encoded = ".".join(path)
        if not path:
            motes = [o for o in options if _is_square(o)]
            rows += _selects(
                motes,
                encoded,
                cid,
                lambda o: _mote_label(match, o, lang, tree),
                t("essenzcog.select.mote", lang),
                3,
                lambda o: _mote_description(tree, o, lang),
            )
            if "vd" in options:
                rows.append(
                    [
                        _button(
                            t("essence.kind.void", lang),
                            cid("p", "vd"),
                            discord.ButtonStyle.primary,
                            "🌀",
                        )
                    ]
                )
            rows.append(self._meta_row(match, info, seat, cid, lang))
            return _view(rows)
        labels = [(o, _option_label(match, tree, path, o, lang)) for o in options]
        if len(options) <= MAX_BUTTONS:
            style = (
                discord.ButtonStyle.primary
                if options[0] in TOKEN_KINDS
                else discord.ButtonStyle.secondary
            )
            buttons: list[discord.ui.Item[Any]] = [
                _button(label, cid("p", ".".join((*path, o))), style) for o, label in labels
            ]
            rows += [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
        else:
            names = dict(labels)
            rows += _selects(
                options, encoded, cid, lambda o: names[o], t("essenzcog.select.option", lang), 4
            )
        back = ".".join(tree.back(path))
        rows.append(
            [
                _button(
                    t("essenzcog.button.back", lang),
                    cid("p", back),
                    discord.ButtonStyle.secondary,
                    "↩",
                )
            ]
        )
        return _view(rows)

    def _meta_row(
        self, match: m.Match, info: GameInfo, seat: int, cid: Any, lang: str
    ) -> list[discord.ui.Item[Any]]:
        """Draw and resign buttons. A draw offer by the player to act is answered by the
        other player only: its buttons name who they are for."""
        row: list[discord.ui.Item[Any]] = []
        if match.draw_offer_by == seat:
            answerer = info.names[1 - seat]
            row.append(
                _button(
                    t("essenzcog.button.draw_accept_for", lang, name=answerer),
                    cid("m", "draw-accept"),
                    discord.ButtonStyle.success,
                    "🤝",
                )
            )
            row.append(
                _button(
                    t("essenzcog.button.draw_decline_for", lang, name=answerer),
                    cid("m", "draw-decline"),
                    discord.ButtonStyle.secondary,
                )
            )
        elif match.draw_offer_by is None:
            row.append(
                _button(
                    t("essenzcog.button.draw_offer", lang),
                    cid("m", "draw-offer"),
                    discord.ButtonStyle.secondary,
                    "🤝",
                )
            )
        else:
            row.append(
                _button(
                    t("essenzcog.button.draw_accept", lang),
                    cid("m", "draw-accept"),
                    discord.ButtonStyle.success,
                    "🤝",
                )
            )
            row.append(
                _button(
                    t("essenzcog.button.draw_decline", lang),
                    cid("m", "draw-decline"),
                    discord.ButtonStyle.secondary,
                )
            )
        row.append(
            _button(
                t("essenzcog.button.resign", lang),
                cid("m", "resign"),
                discord.ButtonStyle.danger,
                "🏳️",
            )
        )
        return row

    def _invitation(self, record: GameRecord, info: GameInfo, lang: str) -> dict[str, Any]:
        variants = _variants_text(
            record.config.get("variants", []), bool(record.config.get("quick")), lang
        )
        text = t(
            "essenzcog.invite.text",
            lang,
            invited=f"<@{record.players[1]}>",
            inviter=f"<@{record.players[0]}>",
            variants=variants,
            id=record.id,
        )
        view = _view(
            [
                [
                    _button(
                        t("essenzcog.button.accept", lang),
                        custom_id(PREFIX, record.id, record.revision, "inv", 1),
                        discord.ButtonStyle.success,
                    ),
                    _button(
                        t("essenzcog.button.decline", lang),
                        custom_id(PREFIX, record.id, record.revision, "inv", 0),
                        discord.ButtonStyle.danger,
                    ),
                ]
            ]
        )
        return {"content": text, "view": view, "allowed_mentions": pinging(record.players[1])}

    async def _list_line(self, record: GameRecord, lang: str) -> str:
        info = await self._info(record, lang)
        if record.status == INVITED:
            state = t("essenzcog.list.invited", lang)
        else:
            match = load(record)
            seats = sorted(m.to_act(ENGINE, match))
            view = ENGINE.view_for(match.state, None)
            name = info.names[seats[0]] if seats else "–"
            state = t("essenzcog.list.turn", lang, name=name, round=view["round"])
        return t(
            "essenzcog.list.line", lang, id=record.id, a=info.names[0], b=info.names[1], state=state
        )

    # ---------------------------------------------------------------------- records

    async def game_record(self, record: GameRecord, user_id: int | None) -> dict[str, Any]:
        """The export as ``user_id`` may read it (the service's: no seed while the game runs),
        plus every position in notation along the way (the board is open to everyone)."""
        data = await self.games.export(record, user_id)
        engine = ENGINE
        config = {k: v for k, v in record.config.items() if k != "ai_levels"}
        match = m.start(engine, config, record.seed, len(record.players))
        data["start_position"] = engine.position_text(match.state)
        for entry, (seat, text) in zip(
            data["actions"], await self.bot.store.game_actions(record.id), strict=True
        ):
            match, _events = m.apply(
                engine, match, text, seat, referee=True
            )  # a stored log was checked when it was written
            entry["position"] = engine.position_text(match.state)
        data["position"] = engine.position_text(match.state)
        data["names"] = (await self._info(record)).names
        return data

    async def _game_for(
        self,
        interaction: discord.Interaction[Any],
        game_id: int | None,
        *,
        running_only: bool = True,
    ) -> GameRecord:
        """The game a command means: the given id, else the caller's game in this channel.

        Raises IllegalAction when there is none or several could be meant.
        """
        channel = _channel(interaction)
        if game_id is not None:
            record = await self.games.get(game_id)
            if record.kind != KIND or record.channel_id != channel:
                raise IllegalAction("essenzcog.error.not_here", id=game_id)
            return record
        records = await self.games.running_in_channel(channel, KIND)
        if not running_only and not records:
            records = await self.bot.store.games_in_channel(channel, kind=KIND)
            records = sorted(records, key=lambda r: r.updated_at)[-1:]
        user = interaction.user.id
        mine = [r for r in records if user in r.players] or (records if not running_only else [])
        if not mine:
            raise IllegalAction("essenzcog.error.no_game")
        if len(mine) > 1:
            due = [r for r in mine if self._user_to_act(r, user)]
            if len(due) != 1:
                ids = ", ".join(f"#{r.id}" for r in mine)
                raise IllegalAction("essenzcog.error.which_game", ids=ids)
            mine = due
        return mine[0]

    def _user_to_act(self, record: GameRecord, user: int) -> bool:
        if record.status != ACTIVE:
            return False
        seats = m.to_act(ENGINE, load(record))
        return any(record.players[s] == user for s in seats)

    async def _info(self, record: GameRecord, lang: str | None = None) -> GameInfo:
        """Names and live board of a game; with ``lang``, the bot seats named in it (the
        stored names carry the level in the language of whoever started the game)."""
        fresh = await self.bot.store.get_game(record.id)  # the board may have moved on
        data = (fresh or record).display
        if data:
            info = GameInfo(list(data["names"]), data.get("board"))
        else:
            info = GameInfo([f"{'AB'[seat]}" for seat in range(len(record.players))])
        if lang is not None:
            for seat, level in record.config.get("ai_levels", {}).items():
                info.names[int(seat)] = self._bot_name(level, lang)
        return info

    async def _save_info(self, game_id: int, info: GameInfo) -> None:
        await self.bot.store.set_game_display(game_id, info.dump())

    async def _lang_of(self, record: GameRecord, seat: int | None = None) -> str:
        """The language of a human player of the game (``seat`` or the first human)."""
        humans = [p for p in record.players if p != self._bot_id()]
        user = record.players[seat] if seat is not None else (humans or record.players)[0]
        return await self.bot.store.get_pref(user, LANGUAGE_PREF) or DEFAULT_LANGUAGE

    def _bot_id(self) -> int:
        assert self.bot.user is not None
        return self.bot.user.id

    def _bot_name(self, level: str, lang: str) -> str:
        assert self.bot.user is not None
        return f"{self.bot.user.display_name} ({t(f'essenzcog.choice.level.{level}', lang)})"

    # ---------------------------------------------------------------------- idle games

    @tasks.loop(minutes=IDLE_CHECK_MINUTES)
    async def idle_loop(self) -> None:
        try:
            await self.sweep_idle(time.time())
        except StoreBusy:  # a database locked from outside: the next sweep does it
            log.warning("the idle sweep found the database busy; it tries again next time")
        except Exception:
            log.exception("the idle sweep failed")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Start sweeping idle games once connected (not at load: a bot that only loads its
        cogs, e.g. to print the command schema, never connects)."""
        if not self.idle_loop.is_running():
            self.idle_loop.start()

    async def sweep_idle(self, now: float) -> None:
        """Resume bot turns left over (a restart), then remind the players who keep a game
        waiting and forfeit for them after the configured times (decided by the service)."""
        for record in await self.bot.store.games_idle_since(now - BOT_GRACE_SECONDS):
            if record.kind == KIND and self.games.bot_due(record):
                await self._play_bot(record, load(record), await self._lang_of(record), None)
        settings = self.bot.settings
        due = await self.games.idle_due(
            now,
            settings.idle_reminder_minutes * 60,
            settings.idle_forfeit_minutes * 60,
            kind=KIND,
            bots={self._bot_id()},
        )
        for idle in due:
            if idle.due == FORFEIT:
                await self._forfeit(idle.record, idle.seat, idle.decision)
            else:
                await self._remind(idle.record, idle.seat)

    async def _forfeit(self, record: GameRecord, seat: int, decision: str | None) -> None:
        try:
            turn = await self.games.forfeit(record, seat, decision)
        except StaleRevision:
            return
        steps = Steps()
        steps.add(turn)
        lang = await self._lang_of(record)
        await self._post(
            turn.record, await self._screen(turn.record, turn.match, lang, steps=steps)
        )

    async def _remind(self, record: GameRecord, seat: int) -> None:
        minutes = self.bot.settings.idle_forfeit_minutes - self.bot.settings.idle_reminder_minutes
        text = t(
            "essenzcog.reminder",
            await self._lang_of(record, seat),
            mention=f"<@{record.players[seat]}>",
            id=record.id,
            hours=max(1, round(minutes / 60)),
        )
        channel = self.bot.get_partial_messageable(record.channel_id)
        await channel.send(text, allowed_mentions=pinging(record.players[seat]))
        await self.games.mark_reminded(record)


# ------------------------------------------------------------------------ pure helpers


def _channel(interaction: discord.Interaction[Any]) -> int:
    return interaction.channel_id or interaction.user.id


def _namespace_game(interaction: discord.Interaction[Any]) -> int | None:
    value = getattr(interaction.namespace, "spiel", None)
    return value if isinstance(value, int) else None


def _bytes_io(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


def _png(data: bytes, filename: str) -> discord.File:
    return discord.File(_bytes_io(data), filename=filename)


def _send_kwargs(screen: Screen) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": screen.content or None,
        "embed": screen.embed,
        "allowed_mentions": pinging(*screen.pings),
    }
    if screen.file is not None:
        kwargs["file"] = screen.file
    if screen.view is not None:
        kwargs["view"] = screen.view
    return kwargs


def _edit_kwargs(screen: Screen) -> dict[str, Any]:
    return {
        "content": screen.content or None,
        "embed": screen.embed,
        "attachments": [screen.file] if screen.file is not None else [],
        "view": screen.view,
        "allowed_mentions": pinging(*screen.pings),
    }


def _button(
    label: str, cid: str, style: discord.ButtonStyle, emoji: str | None = None
) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], custom_id=cid, style=style, emoji=emoji)


def _view(rows: list[list[discord.ui.Item[Any]]]) -> discord.ui.View:
    """A container for sending; stopped at once so discord.py keeps no callbacks for it."""
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows[:5]):
        for item in row:
            item.row = index
            view.add_item(item)
    view.stop()
    return view


def _selects(
    options: list[str],
    encoded: str,
    cid: Any,
    label: Any,
    placeholder: str,
    max_menus: int,
    describe: Any = None,
) -> list[list[discord.ui.Item[Any]]]:
    rows: list[list[discord.ui.Item[Any]]] = []
    chunks = [options[i : i + SELECT_SIZE] for i in range(0, len(options), SELECT_SIZE)]
    for index, chunk in enumerate(chunks[:max_menus]):
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cid("p", encoded, index),
            placeholder=placeholder[:150],
            options=[
                discord.SelectOption(
                    label=str(label(o))[:100],
                    value=o,
                    description=(str(describe(o))[:100] or None) if describe else None,
                )
                for o in chunk
            ],
        )
        rows.append([select])
    return rows


def _strength_at(match: m.Match, square: str) -> int:
    view = ENGINE.view_for(match.state, None)
    for cell in view["cells"]:
        if cell["square"] == square:
            return int(cell["strength"])
    return 0


def _mote_label(match: m.Match, square: str, lang: str, tree: ChoiceTree[Action]) -> str:
    return t("essenzcog.mote_label", lang, square=square, strength=_strength_at(match, square))


def _mote_description(tree: ChoiceTree[Action], square: str, lang: str) -> str:
    kinds = [TOKEN_KINDS[o] for o in tree.options((square,)) if o in TOKEN_KINDS]
    if not kinds:  # growth phase
        return t("essence.kind.grow", lang)
    return " · ".join(t(f"essence.kind.{kind}", lang) for kind in kinds)


def _option_label(
    match: m.Match, tree: ChoiceTree[Action], path: tuple[str, ...], option: str, lang: str
) -> str:
    if option in TOKEN_KINDS:
        return t(f"essence.kind.{TOKEN_KINDS[option]}", lang)
    if _is_square(option):
        square, _, via = option.partition("~")
        if path and path[-1] == KIND_TOKENS["void"]:
            return _void_target_label(match, square, lang)
        return t("essenzcog.via", lang, square=square, way=ARROWS[via]) if via else square
    if option.isdecimal():
        return t("essenzcog.amount", lang, amount=int(option))
    return _orientation_label(match, tree, (*path, option), lang)


def _void_target_label(match: m.Match, square: str, lang: str) -> str:
    """The square, and whose mote the void would swallow there."""
    view = ENGINE.view_for(match.state, None)
    for cell in view["cells"]:
        if cell["square"] == square:
            whose = "own" if cell["owner"] == view["side"] else "enemy"
            return t(f"essenzcog.void_onto.{whose}", lang, square=square, strength=cell["strength"])
    return square


def _orientation_label(
    match: m.Match, tree: ChoiceTree[Action], prefix: tuple[str, ...], lang: str
) -> str:
    """Arrows of the face an orientation choice leaves (the engine plays it on a copy)."""
    action = next(a for p, a in tree.paths.items() if p[: len(prefix)] == prefix)
    square = _oriented_square(prefix)
    state, _events = ENGINE.apply(match.state, action, match.state.side)
    for cell in ENGINE.view_for(state, None)["cells"]:
        if cell["square"] == square:
            arrows = " ".join(ARROWS[d] for d in cell["directions"])
            return t(
                "essenzcog.orientation", lang, square=square, face=cell["strength"], arrows=arrows
            )
    return prefix[-1]


def _oriented_square(prefix: tuple[str, ...]) -> str:
    """The square whose face the last token of ``prefix`` turns."""
    token = prefix[-1]
    if len(prefix) == 2:  # growth
        return prefix[0]
    kind = TOKEN_KINDS.get(prefix[1], "")
    if token[0] == "o":
        return _square_of(prefix[2]) if kind == "move" else prefix[0]
    return _square_of(prefix[2])  # "n": the new mote of a split, "t": the healed mote


def _selection(path: tuple[str, ...], tree: ChoiceTree[Action]) -> Selection:
    source = path[0] if _is_square(path[0]) else None
    targets = [_square_of(o) for o in tree.options(path) if _is_square(o)]
    if len(path) > 2 and _is_square(path[2]):
        targets = [_square_of(path[2])]
    return Selection(source, tuple(dict.fromkeys(targets)))


def _prompt(path: tuple[str, ...], tree: ChoiceTree[Action], lang: str) -> str:
    options = tree.options(path)
    first = options[0]
    last = path[-1]
    if first in TOKEN_KINDS:
        return t("essenzcog.prompt.kind", lang, square=path[0])
    if _is_square(first):
        kind = "void" if last == "vd" else TOKEN_KINDS.get(last, "move")
        return t(f"essenzcog.prompt.target.{kind}", lang, square=path[0])
    if first.isdecimal():
        return t("essenzcog.prompt.amount", lang, square=path[0])
    square = _oriented_square((*path, first))
    return t("essenzcog.prompt.orientation", lang, square=square)


def _board_text(
    view: dict[str, Any], info: GameInfo, lang: str, seat: int | None, outcome: Any
) -> BoardText:
    names = (info.names[0], info.names[1])
    variants = _variants_text(view["variants"], bool(view["quick"]), lang)
    if outcome is not None:
        reason = t(f"essenzcog.reason.{outcome.reason}", lang)
        winners = sorted(outcome.winners)
        if not winners:
            return BoardText(names, t("essenzcog.status.draw", lang, reason=reason), "", variants)
        status = t("essenzcog.status.won", lang, name=names[winners[0]], reason=reason)
        return BoardText(names, status, "", variants, winner=winners[0])
    if seat is None:
        return BoardText(names, t("essenzcog.status.waiting", lang), "", variants)
    phase = str(view["phase"])
    status = t(f"essenzcog.status.{phase}", lang, name=names[seat], round=view["round"])
    if phase == "g":
        detail = t("essenzcog.detail.growth", lang)
    else:
        kinds = " · ".join(t(f"essence.kind.{k}", lang) for k in view["available"])
        detail = t("essenzcog.detail.available", lang, kinds=kinds)
    return BoardText(names, status, detail, variants, to_act=seat)


def _variants_text(variants: Sequence[str], quick: bool, lang: str) -> str:
    names = [t(f"essence.variant.{v}", lang) for v in variants]
    if quick:
        names.append(t("essence.variant.quick", lang))
    if not names:
        return t("essenzcog.variants.none", lang)
    return t("essenzcog.variants.some", lang, names=", ".join(names))


def _touched(steps: Steps) -> list[str]:
    """The squares the steps of the last player in ``steps`` touched, each once."""
    if not steps.items:
        return []
    actor = steps.items[-1][0]
    squares: list[str] = []
    for who, event in steps.items:
        if who != actor:
            continue
        for key in ("void_from", "source", "square", "target", "hit"):
            value = event.data.get(key)
            for square in value if isinstance(value, list) else [value]:
                if isinstance(square, str) and square not in squares:
                    squares.append(square)
    return squares


def _narrate(steps: Steps, info: GameInfo, lang: str) -> list[str]:
    lines = []
    for actor, event in steps.items:
        data = dict(event.data)
        player = int(data.get("player", actor))
        name = info.names[player] if 0 <= player < len(info.names) else "?"
        kind = event.type
        if kind in ("turn_started", "game_won", "game_drawn"):
            continue  # the status line says it
        if kind == "moved" and data.get("through_void"):
            kind = "moved_through_void"
        if kind == "destabilized":
            data["hit"] = ", ".join(data.get("hit", []))
            kind = "destabilized" if data["hit"] else "destabilized_alone"
        key = f"essence.event.{kind}" if kind in _ENGINE_EVENTS else f"essenzcog.event.{kind}"
        lines.append(t(key, lang, **{**data, "name": name}))
    return lines


_ENGINE_EVENTS = {
    "grown",
    "moved",
    "moved_through_void",
    "split",
    "healed",
    "void_shifted",
    "destroyed",
    "destabilized",
    "destabilized_alone",
    "removed",
    "summoned",
}


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Essence(bot))

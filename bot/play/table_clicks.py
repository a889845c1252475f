"""The shared game table's clicks and typed steps: a component routed by its custom id, a
choice clicked to a whole action (through ``GameService.seated`` and ``click``: one load per
click), the meta actions, typed steps checked and applied, and the answer after a step.
"""

from __future__ import annotations

import logging
from typing import Any, NoReturn

import discord

from bot.components import custom_id, values_of
from bot.fit import Whole, fit_params, join_limited, shorten
from bot.games import ACTIVE, INVITED, GameService, Seated
from bot.i18n import t
from bot.play.spec import Steps
from bot.play.table_base import (
    CHAIN_LINES,
    LEGAL_LIST,
    REASON,
    image_digest,
    is_private,
    on_message,
)
from bot.play.table_prompt import TablePrompt
from bot.play.ui import button, decode_path, edit_kwargs, in_time, make_view, parse_path
from bot.replies import lang_for, send, send_error
from bot.store import GameRecord, StaleRevision
from engines.core import BadInput, IllegalAction
from engines.core import match as m
from engines.core.errors import EngineError

log = logging.getLogger("spielleiter.play")


class TableClicks(TablePrompt):
    """See the module docs; part of ``bot.play.table.GameTable``."""

    # ------------------------------------------------------------------ components

    async def on_component(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        if len(args) < 3 or not args[0].isdecimal() or not args[1]:
            raise BadInput(self.spec.key("error.bad_choice"))
        try:
            await self._on_component(interaction, int(args[0]), args[1], args[2], args[3:])
        except StaleRevision:
            if not await self._bring_up_to_date(interaction, int(args[0])):
                raise

    async def _on_component(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        token: str,
        op: str,
        rest: list[str],
    ) -> None:
        record = await self.games.get(game_id)
        if record.kind != self.spec.kind:
            raise BadInput(self.spec.key("error.bad_choice"))
        if op == "r":
            if not token.isdecimal():  # the rematch button carries the finished game's revision
                raise BadInput(self.spec.key("error.bad_choice"))
            await self.rematch(interaction, record, int(token))
        elif op == "inv":
            if record.status != INVITED:
                raise StaleRevision()
            await self._invitation_click(interaction, record, rest)
        elif op == "p":
            chosen = values_of(interaction)[:1]
            path = parse_path(rest[0] if rest else "") + tuple(chosen)
            await self.choose(interaction, record, path, token)
        elif op == "pg" and len(rest) == 2 and rest[1].isdecimal():
            await self.choose(interaction, record, parse_path(rest[0]), token, page=int(rest[1]))
        elif op == "o":
            await self.open_prompt(interaction, record, token)
        elif op == "v":
            await self.show_private(interaction, record)
        elif op == "m" and rest:
            if not token.isdecimal() or record.revision != int(token):
                raise StaleRevision()
            await self.meta_click(interaction, record, rest[0])
        else:
            raise BadInput(self.spec.key("error.bad_choice"))

    async def choose(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        path: tuple[str, ...],
        decision: str,
        *,
        page: int = 0,
    ) -> None:
        """One click choice: the next choices (the board or the private prompt updated in
        place), or the action once the clicker chose it to its last token. A click that
        completes an action only by skipping choices with one way on shows a button naming
        the whole action instead, which acts (unless the clicked label named it whole)."""
        at = self._decision(record, interaction.user.id, decision)
        match, seat = at.match, at.seat
        lang = await lang_for(interaction)
        tree = self.tree(match, seat)
        clicked = decode_path(tree, path, self.spec.key("error.bad_choice"))
        path = tree.follow(clicked)
        action = tree.action(path)
        if action is not None and (
            path == clicked or self._names_whole(record, match, seat, lang, tree, clicked)
        ):
            turn = await self.games.click(at, interaction.user.id, decision, action)
            steps = Steps()
            steps.add(turn)
            await self._answer(interaction, turn, steps)
            return
        if is_private(interaction):
            await interaction.response.edit_message(
                **self.prompt(record, match, seat, lang, path, tree, page)
            )
            return
        public = await self.board_lang(record)  # the board's, not the clicker's language
        drawing = self.screen(record, match, public, path=path, tree=tree, page=page)
        screen = await in_time(interaction, drawing, thinking=False)  # a slow one: deferred
        if interaction.response.is_done():
            await interaction.edit_original_response(**edit_kwargs(screen))
        else:
            await interaction.response.edit_message(**edit_kwargs(screen))
        if on_message(interaction, self.info(record).board or 0):  # the board's picture now
            data = self._infos.get(record.id) or self.info(record).dump()
            self._infos[record.id] = {**data, "image": image_digest(screen.image)}

    async def meta_click(
        self, interaction: discord.Interaction[Any], record: GameRecord, verb: str
    ) -> None:
        lang = await lang_for(interaction)
        if verb == "resign":  # ask first: a resignation cannot be taken back
            GameService.seat_for(record, interaction.user.id)
            self._require_side(record, interaction.user.id, "!resign")
            confirm = button(
                self.text("button.resign_confirm", lang),
                custom_id(self.spec.prefix, record.id, record.revision, "m", "resign!"),
                "danger",
            )
            text = self.text("resign.confirm", lang)
            await send(interaction, text, view=make_view([[confirm]]), ephemeral=True)
            return
        texts = {
            "resign!": "!resign",
            "draw-offer": "!draw-offer",
            "draw-accept": "!draw-accept",
            "draw-decline": "!draw-decline",
        }
        if verb not in texts:
            raise BadInput(self.spec.key("error.bad_choice"))
        await self.act(interaction, record, texts[verb], record.revision)

    # ------------------------------------------------------------------ acting

    def require_turn(self, record: GameRecord, user_id: int) -> Seated:
        """The game loaded once, with the user's seat, if ``user_id`` may act in it now.
        Raises IllegalAction otherwise."""
        return self.games.seated(record, user_id, keys=self.spec.key)

    async def typed(
        self, interaction: discord.Interaction[Any], game_id: int | None, text: str
    ) -> None:
        """A step typed in notation or in the words the game shows (its colours and verbs in
        either language), or a meta action such as ``!resign``. A step the game refuses is
        answered with why and the steps the player may take now (the first ones and how many
        more)."""
        record = await self.game_for(interaction, game_id)
        text = self.spec.read_typed(text.strip())
        if not text.startswith("!"):
            at = self.require_turn(record, interaction.user.id)
            try:
                self.games.check_steps(at, [text])
            except (BadInput, IllegalAction) as refused:
                await self._refused_typed(interaction, at, refused)
        await self.act(interaction, record, text, None)

    async def _refused_typed(
        self, interaction: discord.Interaction[Any], at: Seated, refused: EngineError
    ) -> NoReturn:
        """Raises the refusal of a typed step with why and the steps the seat may take now
        (the first ones and how many more)."""
        lang = await lang_for(interaction)
        engine = self.spec.engine
        legal_actions = engine.legal_actions(at.match.state, at.seat)
        if not legal_actions:
            raise refused
        moves = [f"`{engine.action_text(a)}`" for a in legal_actions]
        reason = shorten(t(refused.key, lang, **fit_params(refused.params, lang)), REASON, lang)
        legal = join_limited(moves, LEGAL_LIST, lang)
        raise BadInput(self.spec.key("typed.refused"), reason=Whole(reason), moves=Whole(legal))

    async def act(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        text: str,
        revision: int | None,
        *,
        decision: str | None = None,
    ) -> None:
        """Apply ``text`` for the user (a click: made for ``decision``, or for ``revision``),
        show the board, then let the bot answer if it is due."""
        match = None
        if not text.startswith("!"):
            match = self.require_turn(record, interaction.user.id).match
        self._require_side(record, interaction.user.id, text, match)
        turn = await self.games.act(
            record.id,
            interaction.user.id,
            text,
            revision,
            decision=decision,
            record=record,
            match=match,
        )
        steps = Steps()
        steps.add(turn)
        await self._answer(interaction, turn, steps)

    def _require_side(
        self, record: GameRecord, user_id: int, text: str, match: m.Match | None = None
    ) -> None:
        """A referee (a seat with no side) neither resigns nor offers a draw: the game needs
        it (see ARCHITECTURE.md, "the referee"). Raises IllegalAction for its ``!resign`` and
        ``!draw-offer``."""
        if text not in ("!resign", "!draw-offer") or not self.spec.neutral_seats:
            return
        if GameService.seat_for(record, user_id, match=match) in self.spec.neutral_seats:
            raise IllegalAction(self.spec.key("error.referee_stays"))

    async def typed_steps(
        self, interaction: discord.Interaction[Any], game_id: int | None, texts: list[str]
    ) -> None:
        """Several steps typed at once (a path of one figure): all are checked in order on the
        game as it stands first, so a path that fails anywhere applies nothing; then each is
        applied through the service and one board shows them all. Should another seat act in
        between (a game master's overrule) and a later step no longer be allowed, the steps
        so far stand, the board shows them and the user is told why the rest stopped."""
        record = await self.game_for(interaction, game_id)
        at = self.require_turn(record, interaction.user.id)
        self.games.check_steps(at, texts)
        steps = Steps()
        turn = None
        stopped: EngineError | None = None
        for text in texts:
            first = turn is None
            try:
                turn = await self.games.act(
                    record.id,
                    interaction.user.id,
                    text,
                    record=at.record if first else None,
                    match=at.match if first else None,
                )
            except EngineError as error:  # someone acted in between: the steps so far stand
                if turn is None:
                    raise
                stopped = error
                break
            steps.add(turn)
        if turn is None:
            raise BadInput(self.spec.key("error.bad_choice"))
        await self._answer(interaction, turn, steps)
        if stopped is not None:
            await send_error(interaction, stopped.key, **stopped.params)

    async def _answer(self, interaction: discord.Interaction[Any], turn: Any, steps: Steps) -> None:
        """Show the step(s) on the living board (in the game's language), then let the bot
        answer if it is due: a click on the board edits it; a private prompt's click edits
        the prompt; a typed step is answered privately. A board not drawn in time is
        acknowledged first (Discord's 3 s), then shown."""
        lang = await self.board_lang(turn.record)
        bot_due = self.games.bot_due(turn.record, turn.match)
        component = interaction.type == discord.InteractionType.component
        drawing = self.screen(turn.record, turn.match, lang, steps=steps, thinking=bot_due)
        screen = await in_time(
            interaction, drawing, ephemeral=not component, thinking=not component
        )
        if self.spec.picture_per_turn and m.to_act(self.spec.engine, turn.match) == {turn.actor}:
            screen.keep_image = True  # the seat goes on: the picture when its turn passes
        if component and not is_private(interaction):
            await self.show(turn.record, screen, via=interaction)
        else:
            own = await lang_for(interaction)
            if component and interaction.response.is_done():  # a prompt acknowledged first
                await interaction.edit_original_response(**await self._after_prompt(turn, own))
            elif component:  # an ephemeral prompt
                await interaction.response.edit_message(**await self._after_prompt(turn, own))
            else:
                await send(interaction, self._done_text(turn, own), ephemeral=True)
            await self.show(turn.record, screen)
        if bot_due:
            await self.play_bot(turn.record, lang)

    async def _after_prompt(self, turn: Any, lang: str) -> dict[str, Any]:
        """The private prompt after its step: done, or (a game whose prompts go on) the seat's
        next choice in the same message while the seat still has a decision, after what the
        step did; the seat's private image (its hand) stays while it is still true and is
        taken off once it is not (no picture per click: the text tells the hand, and "my
        cards" shows it again)."""
        done: dict[str, Any] = {"content": self._done_text(turn, lang), "view": None, "embed": None}
        seat, match, record = turn.actor, turn.match, turn.record
        if not self.spec.continue_prompt or record.status != ACTIVE:
            return done
        if seat not in m.to_act(self.spec.engine, match):
            return done
        tree = self.tree(match, seat)
        path = self.first_path(tree)
        following = self.prompt(record, match, seat, lang, path, tree, 0)
        seen = Steps([(seat, e) for e in turn.events]).visible(seat)  # what the step did
        ctx = self.context(record, match, lang)
        lines = [self.text("done", lang)]
        lines += [f"› {line}" for line in self.spec.narrate(seen, ctx)][-CHAIN_LINES:]
        following["content"] = ("\n".join(lines) + f"\n\n{following['content']}")[:2000]
        if await self.private_file(record, match, seat, lang, changed=True) is not None:
            following["attachments"] = []  # the picture is out of date: the text tells the hand
            self._hands[(record.id, seat)] = ""  # the prompt shows no picture now
        return {**following, "embed": None}

    def _done_text(self, turn: Any, lang: str) -> str:
        """The answer to a private prompt: done, and what only the actor may read of it."""
        info = self.info(turn.record)
        ctx = self.context(turn.record, turn.match, lang, names=info.names)
        own = Steps([(turn.actor, e) for e in turn.events if e.visible_to is not None])
        lines = [self.text("done", lang)]
        lines += [f"› {line}" for line in self.spec.narrate(own.visible(turn.actor), ctx)]
        return "\n".join(lines)

"""The shared game table's start of a game: the seating, a new game, the invitation and its
clicks (accept with a setup choice, decline, re-invite, bot fill, start now), the first
board, and a board shown again (``brett``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.components import custom_id, values_of
from bot.games import ACTIVE, BOT, INVITED, PENDING, READY, REFUSED, lobby_of
from bot.i18n import t
from bot.play.table_base import (
    ROW_BUTTONS,
    SELECT_SIZE,
    GameInfo,
    Seating,
    as_started,
    channel_of,
    lobby_seat_of,
    middle_level,
    on_message,
    resolved_name,
    with_display,
)
from bot.play.table_show import TableShow
from bot.play.ui import MAX_ROWS, button, edit_kwargs, make_view, send_kwargs
from bot.replies import lang_for, pinging, send
from bot.store import GameRecord, StaleRevision
from engines.core import BadInput, IllegalAction
from engines.core.contract import BotPlayer

log = logging.getLogger("spielleiter.play")


class TableStart(TableShow):
    """See the module docs; part of ``bot.play.table.GameTable``."""

    # ------------------------------------------------------------------ starting

    def seating(
        self,
        interaction: discord.Interaction[Any],
        guests: Sequence[discord.abc.User | None],
        *,
        bots: int | None,
        level: str,
        lang: str,
    ) -> Seating:
        """The host, the named guests in order (the bot named as a guest takes a seat at
        ``level``), then ``bots`` bot seats (by default one when nobody else was named).
        Raises BadInput (``play.error.opponent_is_bot``) for another bot named as a guest."""
        me = self.bot_id()
        bot_label = self.spec.bot_name(self.bot_user_name(), level, lang)
        host = interaction.user
        seating = Seating([host.id], [host.display_name], {}, invited=False)

        def add_bot() -> None:
            seating.levels[str(len(seating.players))] = level
            seating.players.append(me)
            seating.names.append(bot_label)

        for guest in guests:
            if guest is None:
                continue
            if guest.id == me:
                add_bot()
            elif guest.bot:
                raise BadInput("play.error.opponent_is_bot")
            else:
                seating.players.append(guest.id)
                seating.names.append(guest.display_name)
                seating.invited = True
        for _ in range(bots if bots is not None else (0 if len(seating.players) > 1 else 1)):
            add_bot()
        return seating

    async def create(
        self,
        interaction: discord.Interaction[Any],
        config: dict[str, Any],
        players: list[int],
        names: list[str],
        *,
        invited: bool,
    ) -> None:
        """A new game in the interaction's channel: an invitation when ``invited`` (and some
        seat must answer), else the first board (and the bot's first turn, if it begins)."""
        humans = [p for p in players if p != self.bot_id()]
        if len(set(humans)) < len(humans):  # a game against yourself is no challenge
            raise BadInput(self.spec.key("error.self_challenge"))
        lang = await self.server_lang(interaction.guild_id) or await lang_for(interaction)
        if not invited and not interaction.response.is_done():
            await interaction.response.defer(thinking=True)  # stored and drawn first: < 3 s
        record = await self.games.create(
            self.spec.kind,
            config,
            channel_id=channel_of(interaction),
            guild_id=interaction.guild_id,
            players=players,
            invited=invited,
        )
        names = list(names)
        for seat, level in config.get("ai_levels", {}).items():  # named in the game's language
            if int(seat) < len(names):
                names[int(seat)] = self.spec.bot_name(self.bot_user_name(), level, lang)
        info = GameInfo(names, lang=lang)
        await self.save_info(record.id, info)
        if record.status == INVITED:
            await send(interaction, **self.invitation(record, info, lang))
            return
        await self.open_game(interaction, with_display(record, info), lang)

    def invitation(self, record: GameRecord, info: GameInfo, lang: str) -> dict[str, Any]:
        """The invitation message: each seat's state, accept (with the setup choice where the
        game has one) and decline for the invited, start now / bot / re-invite for the host."""
        lobby = lobby_of(record)
        own = self.spec.invitation_text(record, info.names, lang)
        if own is not None:
            text = own
        else:
            lines = [
                self.text(
                    "invite.text",
                    lang,
                    inviter=f"<@{record.players[0]}>",
                    id=record.id,
                    game=self.text("game", lang),
                )
            ]
            for seat, state in enumerate(lobby.seats):
                who = f"<@{record.players[seat]}>" if state != BOT else f"🤖 {info.names[seat]}"
                line = f"{self.spec.seat_label(seat)} {who} · {self.text(f'seat.{state}', lang)}"
                choice = lobby.choices[seat]
                if choice is not None:
                    line += f" ({self.spec.choice_label(choice, lang)})"
                lines.append(line)
            text = "\n".join(lines)

        def cid(*parts: object) -> str:
            return custom_id(self.spec.prefix, record.id, record.revision, "inv", *parts)

        rows: list[list[discord.ui.Item[Any]]] = []
        setup = [] if self.spec.personal_setup else self.spec.setup_choices(lang)
        if setup:
            rows.append(
                [
                    discord.ui.Select(
                        custom_id=cid("c"),
                        placeholder=self.text("invite.choose", lang)[:150],
                        options=[
                            discord.SelectOption(label=label[:100], value=value)
                            for value, label in setup[:SELECT_SIZE]
                        ],
                    )
                ]
            )
        answer: list[discord.ui.Item[Any]] = []
        if not setup:
            answer.append(button(self.text("button.accept", lang), cid(1), "success"))
        answer.append(button(self.text("button.decline", lang), cid(0), "danger"))
        if len(record.players) > self.spec.engine.min_players and self.spec.starts_early(record):
            answer.append(button(self.text("button.start_now", lang), cid("s"), "primary", "▶"))
        rows.append(answer)
        open_seats = [i for i, s in enumerate(lobby.seats) if s == REFUSED]
        if open_seats and isinstance(self.spec.engine, BotPlayer):
            rows.append(
                [
                    button(
                        self.text("button.fill_bot", lang, seat=self.spec.seat_label(seat)),
                        cid("b", seat),
                        "secondary",
                        "🤖",
                    )
                    for seat in open_seats[:ROW_BUTTONS]
                ]
            )
        for seat in open_seats[: MAX_ROWS - len(rows)]:
            rows.append(
                [
                    discord.ui.UserSelect(
                        custom_id=cid("u", seat),
                        placeholder=self.text(
                            "invite.reinvite", lang, seat=self.spec.seat_label(seat)
                        )[:150],
                    )
                ]
            )
        pending = [record.players[i] for i, s in enumerate(lobby.seats) if s == PENDING]
        return {"content": text, "view": make_view(rows), "allowed_mentions": pinging(*pending)}

    async def _invitation_click(
        self, interaction: discord.Interaction[Any], record: GameRecord, rest: list[str]
    ) -> None:
        lang = await lang_for(interaction)
        what = rest[0] if rest else ""
        user = interaction.user.id
        info = self.info(record)
        public = info.lang or lang  # the invitation speaks the game's language, not the clicker's
        two = len(record.players) == 2  # a challenge of two: declined, it is over
        if what == "1" and self.spec.personal_setup:
            await self._personal_chooser(interaction, record, lang)
            return
        if what == "k" and rest[1:2] and rest[1].isdecimal():
            await self._personal_accept(interaction, record, int(rest[1]), lang)
            return
        if what == "1":
            record = await self.games.accept(record.id, user)
        elif what == "c":
            chosen = values_of(interaction)[:1]
            allowed = {value for value, _label in self.spec.setup_choices(lang)}
            if not chosen or chosen[0] not in allowed:
                raise BadInput(self.spec.key("error.bad_choice"))
            record = await self.games.accept(record.id, user, chosen[0])
        elif what == "0":
            record = await self.games.decline(record.id, user, close=two)
            if two:
                name = info.names[1]
                text = self.text("invite.declined", public, name=name, id=record.id)
                await interaction.response.edit_message(content=text, embed=None, view=None)
                return
        elif what == "s":
            keep = lobby_of(record).ready  # the seats that play; the others are dropped
            try:
                record = await self.games.start_now(record.id, user)
            except BadInput as refused:
                if len(keep) == len(record.players):
                    raise
                raise self._seats_missing(record, info, refused, lang) from None
            if len(keep) == len(record.players):
                info = GameInfo([info.names[i] for i in keep], info.board, lang=info.lang)
        elif what == "b" and rest[1:2] and rest[1].isdecimal():
            seat = int(rest[1])
            level = self.spec.default_level or middle_level(self.spec)
            record = await self.games.fill_with_bot(record.id, user, seat, self.bot_id(), level)
            info.names[seat] = self.spec.bot_name(self.bot_user_name(), level, public)
        elif what == "u" and rest[1:2] and rest[1].isdecimal():
            seat = int(rest[1])
            chosen = values_of(interaction)[:1]
            if not chosen or not chosen[0].isdecimal():
                raise BadInput(self.spec.key("error.bad_choice"))
            guest = int(chosen[0])
            if guest == self.bot_id():
                raise BadInput(self.spec.key("error.opponent_is_bot"))
            record = await self.games.reinvite(record.id, user, seat, guest)
            info.names[seat] = resolved_name(interaction, guest)
        else:
            raise BadInput(self.spec.key("error.bad_choice"))
        if what in ("1", "c"):
            taken = lobby_seat_of(record, user)
            if taken is not None:
                info.names[taken] = interaction.user.display_name
        await self.save_info(record.id, info)
        record = with_display(record, info)
        if record.status != ACTIVE:
            await interaction.response.edit_message(**self.invitation(record, info, public))
            return
        invitation = interaction.message.id if interaction.message is not None else None
        await self.begin(interaction, record, lang, invitation=invitation)

    async def _personal_chooser(
        self, interaction: discord.Interaction[Any], record: GameRecord, lang: str
    ) -> None:
        """Accepting where each person picks among their own choices: those choices, only
        to them; their pick (``inv:k:<invitation message>``) accepts."""
        lobby = lobby_of(record)
        user = interaction.user.id
        seats = [i for i, p in enumerate(record.players) if p == user]
        if not seats:
            raise IllegalAction("error.not_invited")
        if not any(lobby.seats[i] == PENDING for i in seats):
            raise StaleRevision()
        choices = await self.spec.setup_choices_for(self.bot.store, record, user, lang)
        if not choices:
            raise BadInput(self.spec.key("error.no_setup_choice"))
        message = interaction.message.id if interaction.message is not None else 0
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(self.spec.prefix, record.id, record.revision, "inv", "k", message),
            placeholder=self.text("invite.choose", lang)[:150],
            options=[
                discord.SelectOption(label=label[:100], value=value[:100])
                for value, label in choices[:SELECT_SIZE]
            ],
        )
        text = self.text("invite.choose_own", lang, id=record.id)
        await send(interaction, text, view=make_view([[select]]), ephemeral=True)

    async def _personal_accept(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        invitation: int,
        lang: str,
    ) -> None:
        """The person's own pick: accept with what it stands for, say so privately and
        update the invitation message (or show the board, once every seat is ready)."""
        user = interaction.user.id
        chosen = values_of(interaction)[:1]
        own = await self.spec.setup_choices_for(self.bot.store, record, user, lang)
        if not chosen or chosen[0] not in {value for value, _label in own}:
            raise BadInput(self.spec.key("error.bad_choice"))
        value = await self.spec.setup_value(self.bot.store, record, user, chosen[0])
        record = await self.games.accept(record.id, user, value)
        info = self.info(record)
        taken = lobby_seat_of(record, user)
        if taken is not None:
            info.names[taken] = interaction.user.display_name
        await self.save_info(record.id, info)
        record = with_display(record, info)
        label = self.spec.choice_label(value, lang)
        done = self.text("invite.accepted_with", lang, choice=label)
        await interaction.response.edit_message(content=done, view=None)
        channel = self.bot.get_partial_messageable(record.channel_id)
        if record.status != ACTIVE:
            if invitation:
                message = channel.get_partial_message(invitation)
                with contextlib.suppress(discord.NotFound):  # deleted: nothing to update
                    await message.edit(**self.invitation(record, info, info.lang or lang))
            return
        await self.begin(interaction, record, lang, invitation=invitation or None)

    def _seats_missing(
        self, record: GameRecord, info: GameInfo, refused: BadInput, lang: str
    ) -> BadInput:
        """The host's early start that the game refuses without the seats still open (a
        scenario's every party, a fixed table): its reason, and which seats are missing."""
        lobby = lobby_of(record)
        missing = [
            f"{self.spec.seat_label(seat)} {info.names[seat]} ({self.text(f'seat.{state}', lang)})"
            for seat, state in enumerate(lobby.seats)
            if state not in READY
        ]
        reason = t(refused.key, lang, **refused.params)
        return BadInput(
            self.spec.key("error.seats_missing"),
            id=record.id,
            reason=reason,
            missing=", ".join(missing),
        )

    async def open_game(
        self, interaction: discord.Interaction[Any], record: GameRecord, lang: str
    ) -> None:
        """Show a started game that nobody had to accept (against the bot, a rematch)."""
        await self.begin(interaction, record, lang, invitation=None)

    async def begin(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        lang: str,
        *,
        invitation: int | None,
    ) -> None:
        """A game that just started: in a server's text channel it moves into a thread of its
        own opened from its invitation (``invitation``; a game nobody had to accept gets a
        short one first), which then says where the game is, and the first board goes there.
        Where no thread can be, the game stays here and says why: the invitation clicked
        becomes the first board, else a new board is posted. The bot plays at once if it is
        due."""
        info = self.info(record)
        if info.lang is None:
            info.lang = await self.lang_of(record)
        lang = info.lang
        reason = await self._no_thread_reason(interaction, record)
        started = (
            self.started_text(record, info, lang)
            if reason is None
            else self.invitation(as_started(record), info, lang)["content"]
        )
        quiet = discord.AllowedMentions.none()
        answered = interaction.response.is_done()
        if reason is None and invitation is None:  # the invitation of a game against the bot
            if answered:
                message = await interaction.followup.send(
                    content=started, allowed_mentions=quiet, wait=True
                )
                invitation = message.id
            else:
                response = await interaction.response.send_message(
                    content=started, allowed_mentions=quiet
                )
                invitation = response.message_id if response is not None else None
                answered = True
        elif reason is None and not answered and on_message(interaction, invitation or 0):
            await interaction.response.edit_message(content=started, embed=None, view=None)
            answered = True
        record = await self.open_home(record, info, invitation, lang, reason)
        info = self.info(record)
        note = self.home_note(info, lang)
        bot_due = self.games.bot_due(record)
        elsewhere = "thread" in info.home or (invitation is not None and answered)
        if not elsewhere and not interaction.response.is_done():
            # the board answers here: acknowledged before it is drawn (Discord's 3 s)
            component = interaction.type == discord.InteractionType.component
            await interaction.response.defer(thinking=not component)
        screen = await self.screen(record, self.games.match_of(record), lang, thinking=bot_due)
        if elsewhere:
            parent = self.bot.get_partial_messageable(info.home["parent"])
            if invitation is not None:
                with contextlib.suppress(discord.NotFound):  # deleted: the board comes anyway
                    await parent.get_partial_message(invitation).edit(
                        content="\n".join(part for part in (started, note) if part)[:2000],
                        embed=None,
                        view=None,
                        allowed_mentions=quiet,
                    )
            await self.show(record, screen)
        else:
            if note:
                screen.content = "\n".join(p for p in (note, screen.content) if p)
            if invitation is not None and on_message(interaction, invitation):
                await interaction.edit_original_response(**edit_kwargs(screen))
                await self.remember_board(record, invitation, screen)
            else:
                message = await interaction.followup.send(**send_kwargs(screen), wait=True)
                await self.remember_board(record, message.id, screen)
        if bot_due:
            await self.play_bot(record, lang)

    # ------------------------------------------------------------------ the game's home

    async def show_board(self, interaction: discord.Interaction[Any], game_id: int | None) -> None:
        """The current board again, as a new live board message (the old one stripped to a
        line), with its running log (a game from before the log: its last step replayed)."""
        record = await self.game_for(interaction, game_id, running_only=False)
        if record.status == INVITED:  # not begun: the invitation again, not a board yet
            info = self.info(record)
            lang = info.lang or await lang_for(interaction)  # public: the game's language
            await send(interaction, **self.invitation(record, info, lang))
            return
        lang = await self.board_lang(record)
        elsewhere = channel_of(interaction) != record.channel_id  # asked in its parent channel
        await interaction.response.defer(thinking=True, ephemeral=elsewhere)
        steps = None if self.info(record).log else await self.last_steps(record)
        screen = await self.screen(record, self.games.match_of(record), lang, steps=steps)
        if elsewhere:  # only to the asker: the channel keeps the invitation alone
            await interaction.followup.send(**send_kwargs(screen), ephemeral=True)
            return
        message = await interaction.followup.send(**send_kwargs(screen), wait=True)
        await self.remember_board(record, message.id, screen)

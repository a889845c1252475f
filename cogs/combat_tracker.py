"""The living tracker of ``/kampf`` (issue #19): one message per combat, edited in place by
every step, with a short running log, pings for whoever must answer now and one summary line
at a phase's end. ``cogs.combat`` parses and calls ``bot.combat.CombatService``; this posts
what a step did (the parts are ``bot.play.specs.w6``'s, the words
``bot.narration.combat_text``'s)."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.combat import CombatService, GameRecord, public_rows, to_answer, unpack
from bot.i18n import language_of, t
from bot.narration.combat_text import _cap, narrate, npc_ids
from bot.narration.combat_tracker import (
    decision_key,
    digest,
    fresh_pings,
    phase_summaries,
    running_log,
)
from bot.play.specs.w6 import image_file, tracker_parts
from bot.play.ui import in_time
from bot.replies import fit_reply, pinging
from bot.services.campaigns import CampaignRecord
from engines.core import Event
from engines.w6 import CombatState

CONTENT_LIMIT = 1900


class Tracker:
    """Posts a combat's steps on its living tracker."""

    def __init__(self, bot: Any, combats: CombatService) -> None:
        self.bot = bot
        self.combats = combats

    async def post(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        record: GameRecord,
        events: list[Event],
        before: CombatState,
        lang: str,
    ) -> None:
        """One step on the living tracker (issue #19): a click on the tracker edits it in place,
        a click in a private prompt updates that prompt and edits the tracker, a command moves
        the tracker below it (the old one goes). The tracker speaks the combat's language (its
        GM's at the start), the prompt the clicker's. A phase's end leaves one compact line (its
        served ping turned into it, or a new one); a decision that opens for another player
        pings them once."""
        component = interaction.type == discord.InteractionType.component
        if not component and not interaction.response.is_done():
            await interaction.response.defer(thinking=True)  # the new tracker fills it
        after = unpack(record).state
        display = dict(record.display)
        table = str(display.get("lang") or lang)
        npcs = npc_ids(before, after)  # their values only for the GM (as the status image)
        public = narrate(events, before, after, table, hidden=npcs)
        rows = public_rows(record, after)
        summaries, display["phase_sum"] = phase_summaries(
            display, events, before, after, rows, table
        )
        log = running_log(display, public)
        pings = await self._pings(interaction, after, campaign, table)
        key = decision_key(after)
        waiting = fresh_pings(display, pings, key, interaction.user.id, after.phase)
        fresh = {u: pings[u] for u in waiting}
        tracker = dict(display.get("tracker") or {})
        clicked = interaction.message.id if interaction.message is not None else None
        embed, png, view = await in_time(
            interaction, tracker_parts(record, table), thinking=not component
        )
        if component and tracker.get("message"):
            # written before the answer: a click right after it reads this display
            changed = digest(png) != tracker.get("image")
            display["tracker"] = tracker | {"log": log, "image": digest(png)}
            await self.combats.set_display(record.id, display)
            content = _cap(log, CONTENT_LIMIT) or None
            files = [image_file(png)] if changed else discord.utils.MISSING
            parts = {"content": content, "embed": embed, "attachments": files, "view": view}
            gm = campaign.is_gm(interaction.user.id)
            own = (
                narrate(events, before, after, lang, hidden=frozenset() if gm else npcs)
                if lang != table or gm
                else public
            )
            edited = await self._edit_tracker(
                interaction, tracker["message"], clicked, parts, own, lang
            )
            if edited:
                others = {u: line for u, line in fresh.items() if u != interaction.user.id}
                others.pop(campaign.gm_id, None)  # the GM runs the table: the tracker tells them
                await self._extra(interaction, record.id, display, summaries, others)
                return
        await self.new(interaction, record.id, display, log, (embed, png, view),
                                pings, summaries)  # fmt: skip

    async def new(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        display: dict[str, Any],
        log: list[str],
        parts: tuple[discord.Embed, bytes, discord.ui.View],
        pings: dict[int, str],
        summaries: list[str],
    ) -> None:
        """Post the tracker as the answer (a command, or the old tracker is gone); the old one
        goes. Its id is written before the answer is filled, so the next step finds it."""
        embed, png, view = parts
        old = (display.get("tracker") or {}).get("message")
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
        message = await interaction.original_response()
        display["tracker"] = {"message": message.id, "image": digest(png), "log": log}
        await self.combats.set_display(game_id, display)
        content = _cap(log + list(pings.values()), CONTENT_LIMIT) or None
        content, _ = await fit_reply(interaction, content, {"embed": embed})
        await interaction.edit_original_response(
            content=content, embed=embed, attachments=[image_file(png)], view=view,
            allowed_mentions=pinging(*pings),  # only those who must answer; names ping nobody
        )  # fmt: skip
        if old and old != message.id:
            await self._drop(interaction, old)
        if await self._fold_summary(interaction, display, summaries):
            await self.combats.set_display(game_id, display)
        elif summaries:
            await interaction.followup.send(_cap(summaries, CONTENT_LIMIT))

    async def _edit_tracker(
        self,
        interaction: discord.Interaction[Any],
        message_id: int,
        clicked: int | None,
        parts: dict[str, Any],
        own: list[str],
        lang: str,
    ) -> bool:
        """Edit the tracker in place (``parts``: a new image only when the picture changed); a
        click in a private prompt updates that prompt with what happened. False when the
        tracker is gone (deleted): then a new one is posted."""
        # a click whose tracker took long to draw was acknowledged first (in_time): edit then
        edit = (
            interaction.edit_original_response
            if interaction.response.is_done()
            else interaction.response.edit_message
        )
        if clicked == message_id:
            await edit(**parts)
            return True
        try:
            await self._message(interaction, message_id).edit(**parts)
        except discord.NotFound:
            return False
        prompt = _cap(own, CONTENT_LIMIT) or t("w6cog.tracker.done", lang)
        await edit(content=prompt, embed=None, view=None)
        return True

    async def _extra(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        display: dict[str, Any],
        summaries: list[str],
        pings: dict[int, str],
    ) -> None:
        """The public lines beside the tracker: a phase's summary, a ping for a decision that
        just opened (the previous ping message goes, so the channel keeps at most one). A
        summary takes the place of its phase's ping, once that is served (edited, no new
        message): the channel keeps one line per phase."""
        folded = await self._fold_summary(interaction, display, summaries)
        if pings and not folded:
            await self._drop(interaction, display.get("ping_message"))
        lines = ([] if folded else summaries) + list(pings.values())
        if lines:
            sent = await interaction.followup.send(
                _cap(lines, CONTENT_LIMIT), allowed_mentions=pinging(*pings), wait=True
            )
            if pings:
                display["ping_message"] = sent.id
        if folded or pings:
            await self.combats.set_display(game_id, display)

    async def _fold_summary(
        self, interaction: discord.Interaction[Any], display: dict[str, Any], summaries: list[str]
    ) -> bool:
        """Turn the phase's last ping message into the phase's summary line (an edit notifies
        nobody; the ping was answered, the channel gets no new message for the summary).
        False when the phase pinged nobody or its ping message is gone."""
        message_id = display.get("ping_message")
        if not summaries or not message_id:
            return False
        display.pop("ping_message")
        try:
            await self._message(interaction, message_id).edit(
                content=_cap(summaries, CONTENT_LIMIT),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            return False
        return True

    async def _drop(self, interaction: discord.Interaction[Any], message_id: Any) -> None:
        """Delete an earlier tracker or ping message (gone already: nothing to do)."""
        if not message_id:
            return
        with contextlib.suppress(discord.HTTPException):
            await self._message(interaction, message_id).delete()

    def _message(self, interaction: discord.Interaction[Any], message_id: Any) -> Any:
        """A message of the interaction's channel by id (not fetched)."""
        channel = self.bot.get_partial_messageable(interaction.channel_id or 0)
        return channel.get_partial_message(int(message_id))

    async def _pings(
        self,
        interaction: discord.Interaction[Any],
        state: CombatState,
        campaign: CampaignRecord,
        lang: str,
    ) -> dict[int, str]:
        """One line per user who must answer a pending step, saying what for (``@alice, du
        bist dran: Abwehr für Thoin ansagen``), in that user's language if they chose one,
        else in the server's (the acting user's outside a server); keyed by the user."""
        if state.pending is None:
            return {}
        stage = state.pending.stage
        default = language_of(interaction.guild_locale) if interaction.guild_locale else lang
        lines = {}
        for user_id, names in to_answer(state, campaign.gm_id).items():
            chosen = await self.combats.chosen_language(user_id)
            user_lang = chosen or (lang if user_id == interaction.user.id else default)
            lines[user_id] = t(
                f"w6cog.combat.ping.{stage}", user_lang,
                mention=f"<@{user_id}>", names=", ".join(names),
            )  # fmt: skip
        return lines

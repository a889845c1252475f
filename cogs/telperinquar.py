"""``/telperinquar``: the card game, duels and 2 vs 2 with people and bots, and each user's decks.

Table of contents: the game commands go to the shared game table (``bot.play``), which invites
the seats (each picks one of their own decks when accepting), applies every decision through
the game service, opens each seat's decision privately with its hand, shows the field the
spec words and draws (``bot.play.specs.telperinquar``) and lets the bots answer. ``deck …``
keeps a user's decks (store: ``tq_decks``), ``karten …`` a server's own card file (store:
server content ``telperinquar.cards``). The dice rolls stay ``/telperinquar-wurf`` (cogs/dice.py).

Choices made here (not rules): a seat plays a copy of its deck as it was when the game began
(editing the deck later changes no running game); the host without a ``deck`` plays their
first legal deck, else the Kämpfer starter deck; each bot seat takes the starter deck of a
class nobody at the table plays yet; a game keeps the server's card file it began with.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.app import SpielleiterBot
from bot.components import custom_id, modal_fields
from bot.games import GameService, load
from bot.i18n import cmd, options, t
from bot.limits import MAX_CONTENT_BYTES
from bot.narration import telperinquar as tq
from bot.play.commands import TableCog, add_table_commands, offer_games
from bot.play.specs.telperinquar import DEFAULT_LEVEL, LEVELS, SPEC
from bot.play.table import distinct_names
from bot.play.ui import button, make_view
from bot.replies import lang_for, send
from bot.server_content import managed_guild
from bot.services.decks import CLASSES, DeckService
from engines.core import BadInput, IllegalAction

MODAL_PREFIX = "tqdeck"
CARDS_PREFIX = "tqcards"  # the confirmation of deleting the server's card file
MODES = ("duel", "2v2")
MAX_ROUNDS = 500  # the round limit of /telperinquar start


def _choices(prefix: str, values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=cmd(f"{prefix}.{value}"), value=value) for value in values]


class Telperinquar(TableCog):
    telperinquar = app_commands.Group(
        name=cmd("tqcog.cmd.group.name"), description=cmd("tqcog.cmd.group.desc")
    )
    deck = app_commands.Group(
        name=cmd("tqcog.cmd.deck.name"),
        description=cmd("tqcog.cmd.deck.desc"),
        parent=telperinquar,
    )
    karten = app_commands.Group(
        name=cmd("tqcog.cmd.cards.name"),
        description=cmd("tqcog.cmd.cards.desc"),
        parent=telperinquar,
    )

    spec = SPEC

    def __init__(self, bot: SpielleiterBot) -> None:
        super().__init__(bot)
        self.decks = DeckService(bot.store)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.components.register(MODAL_PREFIX, self.on_import_form, buttons=False, forms=True)
        self.bot.components.register(CARDS_PREFIX, self.on_delete_click)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.components.unregister(MODAL_PREFIX)
        self.bot.components.unregister(CARDS_PREFIX)

    # ---------------------------------------------------------------------- games

    @telperinquar.command(name=cmd("tqcog.cmd.start.name"), description=cmd("tqcog.cmd.start.desc"))
    @options(
        "tqcog.opt",
        deck="deck",
        gegner="opponent",
        partner="partner",
        gegner2="opponent2",
        modus="mode",
        bot="bot",
        turnier="svo",
        runden="rounds",
    )
    @app_commands.choices(
        modus=_choices("tqcog.mode", MODES), bot=_choices("tqcog.choice.level", LEVELS)
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        deck: str | None = None,
        gegner: discord.User | None = None,
        partner: discord.User | None = None,
        gegner2: discord.User | None = None,
        modus: str | None = None,
        bot: str | None = None,
        turnier: bool = False,
        runden: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
    ) -> None:
        lang = await lang_for(interaction)
        cards = await self.decks.server_cards(interaction.guild_id)
        own = await self.decks.seat_deck(interaction.user.id, deck, self.decks.catalogue_of(cards))
        four = modus == "2v2" or partner is not None or gegner2 is not None
        guests = [gegner, partner, gegner2] if four else [gegner]
        seats = tq.Seats(self.table.bot_id(), bot or DEFAULT_LEVEL, cards=cards)
        seats.svo, seats.round_limit = turnier, runden or 0
        seats.seed = self.games.entropy(31)
        seats.add(interaction.user.id, interaction.user.display_name, own)
        bot_label = SPEC.bot_name(self.table.bot_user_name(), seats.level, lang)
        for guest in guests:
            if guest is not None and guest.bot and guest.id != seats.bot_id:
                raise BadInput("play.error.opponent_is_bot")
            if guest is None or guest.id == seats.bot_id:
                seats.add_bot(bot_label)
            else:
                seats.add(guest.id, guest.display_name, None)
        invited = any(p not in (interaction.user.id, seats.bot_id) for p in seats.players)
        names = distinct_names(seats.names)  # three bots of one level: "Spielleiter (normal) 2"
        await self.table.create(interaction, seats.config(), seats.players, names, invited=invited)

    @telperinquar.command(name=cmd("tqcog.cmd.move.name"), description=cmd("tqcog.cmd.move.desc"))
    @options("tqcog.opt", notation="notation", spiel="game")
    async def zug(
        self, interaction: discord.Interaction[Any], notation: str, spiel: int | None = None
    ) -> None:
        await self.table.typed(interaction, spiel, notation)

    @zug.autocomplete("notation")
    async def _complete_notation(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "spiel", None)
        game = game if isinstance(game, int) else None
        lang = await lang_for(interaction)
        try:
            record = await self.table.game_for(interaction, game)
            seat = GameService.seat_for(record, interaction.user.id)
        except (IllegalAction, BadInput):
            return []
        names = self.table.info(record, lang).names
        found = SPEC.action_choices(record, load(record), seat, names, lang, current)
        return [app_commands.Choice(name=label[:100], value=text) for label, text in found]

    add_table_commands(telperinquar, "tqcog", "aufgeben", "liste", "export", "brett", "replay")
    offer_games(zug)

    @telperinquar.command(name=cmd("tqcog.cmd.card.name"), description=cmd("tqcog.cmd.card.desc"))
    @options("tqcog.opt", karte="card")
    async def karte(self, interaction: discord.Interaction[Any], karte: str) -> None:
        lang = await lang_for(interaction)
        cat = await self.decks.server_catalogue(interaction.guild_id)
        name = tq.resolve_card(karte, cat)
        title, text = tq.card_text(name, lang, cat)
        embed = discord.Embed(title=title, description=text)
        embed.set_image(url="attachment://card.png")
        await interaction.response.defer(thinking=True)  # the card is drawn
        image = await tq.card_image(name, lang, cat)
        file = discord.File(io.BytesIO(image), filename="card.png")
        await send(interaction, embed=embed, file=file)

    # ---------------------------------------------------------------------- decks

    @deck.command(name=cmd("tqcog.cmd.deck.new.name"), description=cmd("tqcog.cmd.deck.new.desc"))
    @options("tqcog.opt", name="deck_name")
    async def deck_neu(self, interaction: discord.Interaction[Any], name: str) -> None:
        lang = await lang_for(interaction)
        record = await self.decks.new_deck(interaction.user.id, name)
        await send(interaction, t("tqcog.deck.created", lang, name=record.name), ephemeral=True)

    @deck.command(
        name=cmd("tqcog.cmd.deck.starter.name"), description=cmd("tqcog.cmd.deck.starter.desc")
    )
    @options("tqcog.opt", klasse="class", name="new_name")
    @app_commands.choices(klasse=_choices("tqcog.class", CLASSES))
    async def deck_starter(
        self, interaction: discord.Interaction[Any], klasse: str, name: str | None = None
    ) -> None:
        lang = await lang_for(interaction)
        title = name or t("tqcog.deck.starter", lang, cls=tq.class_name(klasse, lang))
        record = await self.decks.new_deck(interaction.user.id, title, tq.starter_cards(klasse))
        await self._show(interaction, record, lang, created=True)

    @deck.command(
        name=cmd("tqcog.cmd.deck.rename.name"), description=cmd("tqcog.cmd.deck.rename.desc")
    )
    @options("tqcog.opt", name="deck_name", neu="new_name")
    async def deck_umbenennen(
        self, interaction: discord.Interaction[Any], name: str, neu: str
    ) -> None:
        lang = await lang_for(interaction)
        record = await self.decks.renamed(interaction.user.id, name, neu, copy=False)
        text = t("tqcog.deck.renamed", lang, old=name, name=record.name)
        await send(interaction, text, ephemeral=True)

    @deck.command(name=cmd("tqcog.cmd.deck.copy.name"), description=cmd("tqcog.cmd.deck.copy.desc"))
    @options("tqcog.opt", name="deck_name", neu="new_name")
    async def deck_kopieren(
        self, interaction: discord.Interaction[Any], name: str, neu: str
    ) -> None:
        lang = await lang_for(interaction)
        record = await self.decks.renamed(interaction.user.id, name, neu, copy=True)
        text = t("tqcog.deck.copied", lang, old=name, name=record.name)
        await send(interaction, text, ephemeral=True)

    @deck.command(
        name=cmd("tqcog.cmd.deck.delete.name"), description=cmd("tqcog.cmd.deck.delete.desc")
    )
    @options("tqcog.opt", name="deck_name")
    async def deck_loeschen(self, interaction: discord.Interaction[Any], name: str) -> None:
        lang = await lang_for(interaction)
        record = await self.decks.delete(interaction.user.id, name)
        await send(interaction, t("tqcog.deck.deleted", lang, name=record.name), ephemeral=True)

    @deck.command(name=cmd("tqcog.cmd.deck.add.name"), description=cmd("tqcog.cmd.deck.add.desc"))
    @options("tqcog.opt", name="deck_name", karte="card", anzahl="count")
    async def deck_hinzu(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        karte: str,
        anzahl: app_commands.Range[int, 1, 40] = 1,
    ) -> None:
        await self._change(interaction, name, karte, anzahl)

    @deck.command(
        name=cmd("tqcog.cmd.deck.remove.name"), description=cmd("tqcog.cmd.deck.remove.desc")
    )
    @options("tqcog.opt", name="deck_name", karte="card", anzahl="count")
    async def deck_entfernen(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        karte: str,
        anzahl: app_commands.Range[int, 1, 40] = 1,
    ) -> None:
        await self._change(interaction, name, karte, -anzahl)

    async def _change(
        self, interaction: discord.Interaction[Any], name: str, karte: str, delta: int
    ) -> None:
        lang = await lang_for(interaction)
        cat = await self.decks.server_catalogue(interaction.guild_id)
        record, text = await self.decks.change_card(
            interaction.user.id, name, karte, delta, lang, cat
        )
        verdict = tq.verdict_line(record, lang, cat)
        await send(interaction, f"{text}\n{verdict}", ephemeral=True)

    @deck.command(
        name=cmd("tqcog.cmd.deck.import.name"), description=cmd("tqcog.cmd.deck.import.desc")
    )
    @options("tqcog.opt", name="deck_name", datei="file", liste="list")
    async def deck_import(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        datei: discord.Attachment | None = None,
        liste: str | None = None,
    ) -> None:
        lang = await lang_for(interaction)
        if datei is None and liste is None:  # paste it into a form
            await interaction.response.send_modal(tq_import_modal(name, lang))
            return
        if datei is not None:
            if datei.size > tq.MAX_IMPORT_BYTES:
                raise BadInput("tqcog.error.file_too_big", max=tq.MAX_IMPORT_BYTES // 1024)
            text = tq.decoded(await datei.read())
        else:
            text = tq.inline_list(liste or "")
        await self._import(interaction, name, text, lang)

    async def on_import_form(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        lang = await lang_for(interaction)
        fields = modal_fields(interaction)
        await self._import(interaction, fields.get("name", ""), fields.get("list", ""), lang)

    async def _import(
        self, interaction: discord.Interaction[Any], name: str, text: str, lang: str
    ) -> None:
        cat = await self.decks.server_catalogue(interaction.guild_id)
        record, reasons = await self.decks.import_deck(interaction.user.id, name, text, lang, cat)
        if record is None:
            embed = discord.Embed(
                title=t("tqcog.deck.import_failed", lang),
                description="\n".join(f"• {reason}" for reason in reasons),
                colour=discord.Colour(tq.BAD),
            )
            await send(interaction, embed=embed, ephemeral=True)
            return
        await self._show(interaction, record, lang, imported=True)

    @deck.command(
        name=cmd("tqcog.cmd.deck.export.name"), description=cmd("tqcog.cmd.deck.export.desc")
    )
    @options("tqcog.opt", name="deck_name")
    async def deck_export(self, interaction: discord.Interaction[Any], name: str) -> None:
        lang = await lang_for(interaction)
        record = await self.decks.find_deck(interaction.user.id, name)
        body = tq.deck_text(record)
        file = discord.File(io.BytesIO(body.encode()), filename=tq.file_name(record.name))
        text = t("tqcog.deck.exported", lang, name=record.name, count=record.size)
        await send(interaction, text, file=file, ephemeral=True)

    @deck.command(name=cmd("tqcog.cmd.deck.show.name"), description=cmd("tqcog.cmd.deck.show.desc"))
    @options("tqcog.opt", name="deck_name")
    async def deck_zeigen(self, interaction: discord.Interaction[Any], name: str) -> None:
        lang = await lang_for(interaction)
        record = await self.decks.find_deck(interaction.user.id, name)
        await self._show(interaction, record, lang)

    @deck.command(
        name=cmd("tqcog.cmd.deck.check.name"), description=cmd("tqcog.cmd.deck.check.desc")
    )
    @options("tqcog.opt", name="deck_name")
    async def deck_pruefen(self, interaction: discord.Interaction[Any], name: str) -> None:
        lang = await lang_for(interaction)
        cat = await self.decks.server_catalogue(interaction.guild_id)
        record = await self.decks.find_deck(interaction.user.id, name)
        legal, text = tq.check_text(record, lang, cat)
        embed = discord.Embed(
            title=t("tqcog.deck.check_title", lang, name=record.name, count=record.size),
            description=text,
            colour=discord.Colour(tq.GOOD if legal else tq.BAD),
        )
        await send(interaction, embed=embed, ephemeral=True)

    @deck.command(name=cmd("tqcog.cmd.deck.list.name"), description=cmd("tqcog.cmd.deck.list.desc"))
    async def deck_liste(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        cat = await self.decks.server_catalogue(interaction.guild_id)
        lines = tq.deck_lines(await self.decks.decks(interaction.user.id), lang, cat)
        embed = discord.Embed(title=t("tqcog.deck.list_title", lang), description="\n".join(lines))
        await send(interaction, embed=embed, ephemeral=True)

    async def _show(
        self,
        interaction: discord.Interaction[Any],
        record: Any,
        lang: str,
        *,
        created: bool = False,
        imported: bool = False,
    ) -> None:
        cat = await self.decks.server_catalogue(interaction.guild_id)
        title, fields, footer, legal = tq.deck_summary(record, lang, cat)
        embed = discord.Embed(title=title, colour=discord.Colour(tq.GOOD if legal else tq.BAD))
        for field_name, value in fields:
            embed.add_field(name=field_name, value=value, inline=False)
        embed.set_footer(text=footer)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)  # the deck is drawn
        image = await tq.deck_image(record, lang, cat)
        embed.set_image(url="attachment://deck.png")
        extra = {"file": discord.File(io.BytesIO(image), filename="deck.png")}
        text = None
        if created:
            text = t("tqcog.deck.created", lang, name=record.name)
        elif imported:
            text = t("tqcog.deck.imported", lang, name=record.name, count=record.size)
        await send(interaction, text, embed=embed, ephemeral=True, **extra)

    @deck_umbenennen.autocomplete("name")
    @deck_kopieren.autocomplete("name")
    @deck_loeschen.autocomplete("name")
    @deck_hinzu.autocomplete("name")
    @deck_entfernen.autocomplete("name")
    @deck_import.autocomplete("name")
    @deck_export.autocomplete("name")
    @deck_zeigen.autocomplete("name")
    @deck_pruefen.autocomplete("name")
    @start.autocomplete("deck")
    async def _complete_deck(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        decks = await self.decks.decks(interaction.user.id)
        starters = await lang_for(interaction) if interaction.command is self.start else None
        found = tq.deck_choices(decks, current, starters)
        return [app_commands.Choice(name=label[:100], value=value) for label, value in found]

    @deck_entfernen.autocomplete("karte")
    async def _complete_deck_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Only the chosen deck's cards (typos forgiven)."""
        lang = await lang_for(interaction)
        cat = await self.decks.server_catalogue(interaction.guild_id)
        name = str(getattr(interaction.namespace, "name", "") or "")
        deck = await self.decks.deck(interaction.user.id, name) if name else None
        only = [card for card, _count in deck.cards] if deck is not None else None
        found = tq.card_choices(current, lang, cat, only)
        return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in found]

    @deck_hinzu.autocomplete("karte")
    @karte.autocomplete("karte")
    async def _complete_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        lang = await lang_for(interaction)
        cat = await self.decks.server_catalogue(interaction.guild_id)
        found = tq.card_choices(current, lang, cat)
        return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in found]

    # ---------------------------------------------------------------------- server cards

    @karten.command(
        name=cmd("tqcog.cmd.cards.upload.name"), description=cmd("tqcog.cmd.cards.upload.desc")
    )
    @options("tqcog.opt", datei="card_file")
    async def karten_hochladen(
        self, interaction: discord.Interaction[Any], datei: discord.Attachment
    ) -> None:
        lang = await lang_for(interaction)
        guild = managed_guild(interaction, "tqcog")
        if datei.size > MAX_CONTENT_BYTES:
            raise BadInput("tqcog.error.file_too_big", max=MAX_CONTENT_BYTES // 1024)
        text = tq.decoded(await datei.read())
        cards, mistakes = tq.check_card_file(text, lang)
        if mistakes:  # a bad file changes nothing
            embed = discord.Embed(
                title=t("tqcog.cards.failed", lang),
                description="\n".join(f"• {m}" for m in mistakes[:25])[:4000],
                colour=discord.Colour(tq.BAD),
            )
            await send(interaction, embed=embed, ephemeral=True)
            return
        replaced = await self.decks.put_cards(guild, text, interaction.user.id)
        key = "tqcog.cards.replaced" if replaced else "tqcog.cards.uploaded"
        await send(interaction, t(key, lang, count=len(cards)), ephemeral=True)

    @karten.command(
        name=cmd("tqcog.cmd.cards.show.name"), description=cmd("tqcog.cmd.cards.show.desc")
    )
    async def karten_zeigen(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        lines = await self.decks.server_card_lines(interaction.guild_id, lang)
        if not lines:
            await send(interaction, t("tqcog.cards.none", lang), ephemeral=True)
            return
        embed = discord.Embed(
            title=t("tqcog.cards.title", lang, count=len(lines)), description="\n".join(lines)
        )
        await send(interaction, embed=embed, ephemeral=True)

    @karten.command(
        name=cmd("tqcog.cmd.cards.delete.name"), description=cmd("tqcog.cmd.cards.delete.desc")
    )
    async def karten_loeschen(self, interaction: discord.Interaction[Any]) -> None:
        """Asks first: decks with these cards stop being playable."""
        lang = await lang_for(interaction)
        guild = managed_guild(interaction, "tqcog")
        count = len(await self.decks.server_card_lines(guild, lang))
        if not count:
            await send(interaction, t("tqcog.cards.none", lang), ephemeral=True)
            return
        user = interaction.user.id
        view = make_view(
            [
                [
                    button(
                        t("tqcog.cards.delete_yes", lang),
                        custom_id(CARDS_PREFIX, "del", user),
                        "danger",
                    ),
                    button(t("tqcog.cards.delete_no", lang), custom_id(CARDS_PREFIX, "keep", user)),
                ]
            ]
        )
        text = t("tqcog.cards.delete_ask", lang, count=count)
        await send(interaction, text, view=view, ephemeral=True)

    async def on_delete_click(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        """The answer to the question of ``karten loeschen``: only its asker may answer."""
        lang = await lang_for(interaction)
        what, owner = [*args, "", ""][:2]
        if owner != str(interaction.user.id) or what not in ("del", "keep"):
            raise IllegalAction("tqcog.error.not_yours")
        guild = managed_guild(interaction, "tqcog")
        if what == "keep":
            text = t("tqcog.cards.delete_kept", lang)
        else:
            gone = await self.decks.delete_cards(guild)
            text = t("tqcog.cards.deleted" if gone else "tqcog.cards.none", lang)
        await interaction.response.edit_message(content=text, view=None)


def tq_import_modal(name: str, lang: str) -> discord.ui.Modal:
    """The form to paste a list into (a slash option holds no line breaks)."""
    modal = discord.ui.Modal(
        title=t("tqcog.modal.title", lang)[:45], custom_id=custom_id(MODAL_PREFIX, "import")
    )
    modal.add_item(
        discord.ui.TextInput(
            label=t("tqcog.modal.name", lang)[:45],
            custom_id="name",
            default=name[: tq.MAX_DECK_NAME],
            max_length=tq.MAX_DECK_NAME,
        )
    )
    modal.add_item(
        discord.ui.TextInput(
            label=t("tqcog.modal.list", lang)[:45],
            custom_id="list",
            style=discord.TextStyle.paragraph,
            placeholder="1 Kämpfer\n10 Stufenkarte Kämpfer\n3 Langschwert",
            max_length=4000,
        )
    )
    modal.stop()  # answered by the component router, not kept in discord.py's view store
    return modal


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Telperinquar(bot))

"""The fake Discord at the wire level, driven by a small self-built discord.py client.

These tests prove what the cog tests rely on: the exact callback payloads, the ephemeral flag,
updates of the clicked message (type 7), deferred answers with PNG followups, autocomplete,
selects, modals, subcommands, user options, locales, and restarts.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from PIL import Image

from bot.sandbox.fake_discord import FakeDiscord, FakeTimeout, stable_user_id
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_png,
    assert_png_attachment,
    assert_public,
    custom_id_rows,
    running_client,
)


def _png(colour: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (24, 16), colour).save(buffer, format="PNG")
    return buffer.getvalue()


class KnopfView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(
        label="Drück mich", custom_id="knopf:druck", style=discord.ButtonStyle.primary
    )
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(
            content=f"gedrückt von {interaction.user.name}", view=None
        )


class WahlView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="wahl:farbe",
        options=[discord.SelectOption(label=x.capitalize(), value=x) for x in ("rot", "blau")],
    )
    async def choose(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"gewählt: {select.values[0]}", view=None)


class Formular(discord.ui.Modal, title="Name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Dein Name", custom_id="form:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hallo {self.name.value}", ephemeral=True)


class TinyBot(discord.Client):
    """A client with one command per wire feature; syncs its tree on start."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(KnopfView())
        self.add_view(WahlView())
        await self.tree.sync()

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(name="echo", description="wiederholt")
        async def echo(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(text)

        @tree.command(name="geheim", description="nur für dich")
        async def geheim(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("psst", ephemeral=True)

        @tree.command(name="knopf", description="ein Knopf")
        async def knopf(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Bitte drücken", view=KnopfView())

        @tree.command(name="wahl", description="eine Auswahl")
        async def wahl(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Farbe?", view=WahlView())

        @tree.command(name="bild", description="ein Bild")
        async def bild(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(
                "rot", file=discord.File(io.BytesIO(_png("red")), "rot.png")
            )
            await interaction.followup.send(
                "blau", file=discord.File(io.BytesIO(_png("blue")), "blau.png")
            )

        @tree.command(name="gruss", description="grüßt")
        async def gruss(interaction: discord.Interaction) -> None:
            german = interaction.locale is discord.Locale.german
            await interaction.response.send_message("Hallo" if german else "Hello")

        async def complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = ["3W6", "2W6+1", "W20", "4W6k3"]
            return [app_commands.Choice(name=n, value=n) for n in names if current.upper() in n]

        @tree.command(name="wurf", description="würfelt")
        @app_commands.autocomplete(ausdruck=complete)
        async def wurf(interaction: discord.Interaction, ausdruck: str) -> None:
            await interaction.response.send_message(ausdruck)

        @tree.command(name="wer", description="nennt eine Person")
        async def wer(
            interaction: discord.Interaction, person: discord.Member, laut: bool = False
        ) -> None:
            await interaction.response.send_message(
                f"{person.name} ({person.id}) von {interaction.user.name}", ephemeral=not laut
            )

        @tree.command(name="formular", description="ein Formular")
        async def formular(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Formular())

        @tree.command(name="kaputt", description="wirft")
        async def kaputt(interaction: discord.Interaction) -> None:
            raise RuntimeError("absichtlich")

        @tree.command(name="anhang", description="liest eine Datei")
        async def anhang(interaction: discord.Interaction, datei: discord.Attachment) -> None:
            data = await datei.read()
            await interaction.response.send_message(
                f"{datei.filename} {len(data)} {datei.content_type}"
            )

        @tree.command(name="ansage", description="sagt etwas im Kanal und privat")
        async def ansage(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ok", ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("Ansage!")
            await interaction.user.send("Nur für dich")

        gruppe = app_commands.Group(name="gruppe", description="Gruppe")
        unter = app_commands.Group(name="unter", description="Untergruppe", parent=gruppe)

        @unter.command(name="eins", description="Blatt")
        async def eins(
            interaction: discord.Interaction, wert: app_commands.Range[int, 1, 6]
        ) -> None:
            await interaction.response.send_message(f"wert={wert} ({type(wert).__name__})")

        tree.add_command(gruppe)


@pytest.fixture
async def tiny(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TinyBot]:
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )
    async with running_client(fake, TinyBot()) as client:
        await fake.wait_for_sync()
        yield client  # type: ignore[misc]


async def test_login_identify_and_sync_are_recorded(fake: FakeDiscord, tiny: TinyBot) -> None:
    paths = [(r.method, r.path) for r in fake.requests]
    assert ("GET", "/users/@me") in paths
    assert ("GET", "/oauth2/applications/@me") in paths
    assert ("PUT", f"/applications/{fake.application_id}/commands") in paths
    assert fake.identifies[0]["token"] == "fake-token"
    assert fake.identifies[0]["intents"] == discord.Intents.default().value
    assert {c["name"] for c in fake.commands[None]} >= {"echo", "knopf", "gruppe"}
    assert tiny.get_guild(fake.guild.id) is not None
    assert fake.unhandled == []


async def test_json_responses_have_the_exact_content_type(fake: FakeDiscord, tiny: TinyBot) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(fake.api_base + "/users/@me") as response,
    ):
        assert response.headers["Content-Type"] == "application/json"


async def test_slash_callback_payload_is_exact(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("echo", {"text": "Hallo Welt"}, user="alice")
    reply = await ex.callback()
    assert reply.request.method == "POST"
    assert reply.request.path == f"/interactions/{ex.id}/{ex.token}/callback"
    assert reply.request.query == {"with_response": "1"}
    assert reply.json == {"type": 4, "data": {"content": "Hallo Welt", "tts": False}}
    assert_public(reply)
    message = await ex.message()
    assert message.content == "Hallo Welt"
    assert message.interaction is not None and message.interaction["user"]["username"] == "alice"


async def test_ephemeral_flag(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("geheim")
    reply = await ex.callback()
    assert reply.type == 4
    assert reply.data["flags"] == 64
    assert_ephemeral(reply)
    assert_ephemeral(await ex.message())


async def test_button_click_updates_the_message_with_type_7(
    fake: FakeDiscord, tiny: TinyBot
) -> None:
    ex = await fake.slash("knopf", user="alice")
    message = await ex.message()
    assert custom_id_rows(message) == [["knopf:druck"]]
    assert_components_valid(message)
    click = await fake.click(message, "knopf:druck", user="bob")
    reply = await click.callback()
    assert reply.type == 7
    assert reply.data["content"] == "gedrückt von bob"
    assert reply.data["components"] == []
    assert reply.message is message
    assert message.content == "gedrückt von bob" and message.buttons == []
    assert click.payload["message"]["id"] == str(message.id)
    assert click.payload["data"] == {"custom_id": "knopf:druck", "component_type": 2}


async def test_click_by_position_and_errors_for_missing_buttons(
    fake: FakeDiscord, tiny: TinyBot
) -> None:
    message = await (await fake.slash("knopf")).message()
    with pytest.raises(LookupError):
        await fake.click(message, "gibt:es:nicht")
    click = await fake.click(message, 1)
    assert (await click.callback()).type == 7


async def test_select_choice(fake: FakeDiscord, tiny: TinyBot) -> None:
    message = await (await fake.slash("wahl")).message()
    with pytest.raises(ValueError):
        await fake.select(message, "wahl:farbe", ["grün"])
    choice = await fake.select(message, "wahl:farbe", ["Blau"])  # a label maps to its value
    assert choice.payload["data"]["values"] == ["blau"]
    assert (await choice.callback()).data["content"] == "gewählt: blau"


async def test_deferred_then_followups_with_png(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("bild")
    defer = await ex.callback()
    assert defer.json == {"type": 5}
    first = await ex.followup(0)
    second = await ex.followup(1)
    assert first.request.query["wait"] == "1"
    assert first.request.path == f"/webhooks/{fake.application_id}/{ex.token}"
    image = assert_png_attachment(first, "rot.png")
    assert image.getpixel((0, 0)) == (255, 0, 0)
    assert_png(second.files[0].data)
    # Discord: the first followup after a thinking defer fills the deferred message.
    assert first.message is ex.original
    assert second.message is not ex.original
    message = await ex.message()
    assert message.content == "rot" and not message.loading
    assert_png_attachment(message, "rot.png")
    async with aiohttp.ClientSession() as session:
        url = message.payload(fake.api_base)["attachments"][0]["url"]
        async with session.get(url) as response:
            assert await response.read() == message.attachments[0].data


async def test_autocomplete_returns_the_choices(fake: FakeDiscord, tiny: TinyBot) -> None:
    choices = await fake.autocomplete("wurf", {"ausdruck": "w6"})
    assert [c["value"] for c in choices] == ["3W6", "2W6+1", "4W6k3"]
    assert choices[0] == {"name": "3W6", "value": "3W6"}
    sent = fake.requests[-1].json
    assert sent["type"] == 8


async def test_locale_de_and_en(fake: FakeDiscord, tiny: TinyBot) -> None:
    de = await fake.slash("gruss", locale="de")
    en = await fake.slash("gruss", locale="en")
    assert en.payload["locale"] == "en-US"
    assert (await de.callback()).content == "Hallo"
    assert (await en.callback()).content == "Hello"


async def test_subcommand_group_and_integer_conversion(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("gruppe unter eins", {"wert": "4"})
    assert ex.payload["data"]["options"] == [
        {
            "name": "unter",
            "type": 2,
            "options": [
                {"name": "eins", "type": 1, "options": [{"name": "wert", "type": 4, "value": 4}]}
            ],
        }
    ]
    assert (await ex.callback()).content == "wert=4 (int)"
    with pytest.raises(ValueError):
        await fake.slash("gruppe unter eins", {"wert": 7})  # above max_value, Discord refuses
    with pytest.raises(ValueError):
        await fake.slash("gruppe unter eins")  # required option missing


async def test_user_option_is_resolved_to_a_member(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("wer", {"person": "@bob", "laut": "ja"}, user="alice")
    reply = await ex.callback()
    assert reply.content == f"bob ({stable_user_id('bob')}) von alice"
    assert_public(reply)


async def test_modal_submit(fake: FakeDiscord, tiny: TinyBot) -> None:
    opened = await fake.slash("formular")
    modal = await opened.modal()
    assert modal["title"] == "Name"
    submitted = await fake.submit_modal(opened, {"form:name": "Alrik"})
    reply = await submitted.callback()
    assert reply.content == "Hallo Alrik"
    assert_ephemeral(reply)


async def test_dm_interaction(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("echo", {"text": "privat"}, channel=fake.dm_channel("alice"))
    assert "member" not in ex.payload and ex.payload["user"]["username"] == "alice"
    assert (await ex.callback()).content == "privat"


async def test_double_acknowledge_is_refused(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("geheim")
    await ex.callback()
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/interactions/{ex.id}/{ex.token}/callback"
        async with session.post(url, json={"type": 4, "data": {"content": "x"}}) as response:
            assert response.status == 400
            assert (await response.json())["code"] == 40060


async def test_unexpected_error_fails_fast(fake: FakeDiscord, tiny: TinyBot) -> None:
    from bot.sandbox.fake_discord import BotFailed

    ex = await fake.slash("kaputt")
    with pytest.raises(BotFailed, match="absichtlich"):
        await ex.callback(timeout=3)
    fake.errors.clear()  # this test wanted the error


async def test_timeout_names_what_was_awaited(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("echo", {"text": "eins"})
    await ex.callback()
    with pytest.raises(FakeTimeout, match="followup #0"):
        await ex.followup(0, timeout=0.2)


async def test_reconnect_resumes_the_session(fake: FakeDiscord, tiny: TinyBot) -> None:
    await fake.reconnect_request()
    await fake.wait(lambda: fake.resumes or None, 5, "a RESUME")
    await fake.wait_until_ready()
    ex = await fake.slash("echo", {"text": "wieder da"})
    assert (await ex.callback()).content == "wieder da"


async def test_attachment_option_is_downloadable(fake: FakeDiscord, tiny: TinyBot) -> None:
    ex = await fake.slash("anhang", {"datei": ("bogen.json", b'{"name": "Thoin"}')})
    assert (await ex.callback()).content == "bogen.json 17 application/json"


async def test_channel_and_dm_messages_outside_the_interaction(
    fake: FakeDiscord, tiny: TinyBot
) -> None:
    ex = await fake.slash("ansage", user="alice", channel="spieltisch")
    await ex.callback()
    posted = await fake.wait_for_message(lambda m: m.content == "Ansage!", channel="spieltisch")
    assert posted.webhook_id is None and not posted.ephemeral
    dm = await fake.wait_for_message(lambda m: m.content == "Nur für dich")
    assert dm.channel_id == fake.dm_channel("alice").id
    assert fake.dm_messages("alice") == [dm]
    # An ephemeral interaction message does not exist for the channel routes.
    ephemeral = await ex.message()
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"{fake.api_base}/channels/{ephemeral.channel_id}/messages/{ephemeral.id}"
        ) as r,
    ):
        assert r.status == 404


async def test_threads_are_opened_from_messages_as_discord_does(
    fake: FakeDiscord, tiny: TinyBot
) -> None:
    """One thread per message, its id the message's; not in a DM, not in a thread, not
    without the permission; posting unarchives; interactions in it carry the thread."""
    from bot.sandbox.fake_discord import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS

    channel = fake.channel("spieltisch")
    ex = await fake.slash("echo", {"text": "Einladung"}, channel=channel.id)
    await ex.callback()
    message = await ex.message()
    base = f"{fake.api_base}/channels"
    body = {"name": "Spiel #1 · Alice, Bob", "auto_archive_duration": 1440}
    async with aiohttp.ClientSession() as session:
        url = f"{base}/{channel.id}/messages/{message.id}/threads"
        async with session.post(url, json=body) as r:
            assert r.status == 201
            thread = await r.json()
        assert int(thread["id"]) == message.id and thread["type"] == 11
        assert int(thread["parent_id"]) == channel.id
        async with session.post(url, json=body) as r:  # one thread per message
            assert r.status == 400 and (await r.json())["code"] == 160004
        inner = f"{base}/{message.id}/messages/{message.id}/threads"
        async with session.post(inner, json=body) as r:  # not inside a thread
            assert r.status == 400
        async with session.post(f"{base}/{message.id}/messages", json={"content": "Zug"}) as r:
            assert r.status == 200
        assert [m.content for m in fake.channel_messages(message.id)] == ["Zug"]
        async with session.patch(f"{base}/{message.id}", json={"archived": True}) as r:
            assert r.status == 200 and (await r.json())["thread_metadata"]["archived"]
        async with session.post(f"{base}/{message.id}/messages", json={"content": "da"}) as r:
            assert r.status == 200
        assert message.id not in fake.archived  # posting unarchived it
        async with session.get(f"{base}/{message.id}") as r:
            assert (
                int((await r.json())["last_message_id"]) == fake.channel_messages(message.id)[-1].id
            )
        fake.deny(channel, CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
        other = await (await fake.slash("echo", {"text": "x"}, channel=channel.id)).message()
        url = f"{base}/{channel.id}/messages/{other.id}/threads"
        async with session.post(url, json=body) as r:
            assert r.status == 403 and (await r.json())["code"] == 50013
        async with session.post(f"{base}/{message.id}/messages", json={"content": "x"}) as r:
            assert r.status == 403
    in_thread = await fake.slash("echo", {"text": "hier"}, channel=message.id)
    assert in_thread.payload["channel_id"] == str(message.id)
    assert in_thread.payload["channel"]["type"] == 11
    assert int(in_thread.payload["app_permissions"]) & CREATE_PUBLIC_THREADS == 0
    assert (await in_thread.message()).channel_id == message.id

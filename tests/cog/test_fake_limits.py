"""The fake Discord refuses what real Discord refuses (HTTP 400, ``{"code": 50035, "message":
"Invalid Form Body", "errors": {...}}``) on every route the bot sends messages through, and
reports the refusal as a bot error so that no test can pass with such a reply."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import aiohttp
import pytest

from bot.sandbox.fake_discord import CALLBACK_DEADLINE, BotFailed, Exchange, FakeDiscord

ROW = 1


def button(cid: str, label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": cid, "label": label}


def select(cid: str = "s", options: int = 2, **extra: Any) -> dict[str, Any]:
    opts = [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)]
    return {"type": 3, "custom_id": cid, "options": opts, **extra}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": ROW, "components": list(components)}


def embed(**over: Any) -> dict[str, Any]:
    return {"title": "T", "description": "D", **over}


def field(name: str = "n", value: str = "v") -> dict[str, Any]:
    return {"name": name, "value": value, "inline": False}


def text_input(cid: str = "a", label: str = "Name") -> dict[str, Any]:
    return row({"type": 4, "custom_id": cid, "style": 1, "label": label})


def modal(**over: Any) -> dict[str, Any]:
    return {"custom_id": "m", "title": "Formular", "components": [text_input()], **over}


# Message bodies Discord refuses, with the path of the error in ``errors``.
MESSAGE_CASES: list[tuple[str, dict[str, Any], str]] = [
    ("content 2001", {"content": "x" * 2001}, "content"),
    ("11 embeds", {"embeds": [embed() for _ in range(11)]}, "embeds"),
    ("title 257", {"embeds": [embed(title="x" * 257)]}, "embeds.0.title"),
    ("description 4097", {"embeds": [embed(description="x" * 4097)]}, "embeds.0.description"),
    ("26 fields", {"embeds": [embed(fields=[field()] * 26)]}, "embeds.0.fields"),
    (
        "field name 257",
        {"embeds": [embed(fields=[field(name="x" * 257)])]},
        "embeds.0.fields.0.name",
    ),
    (
        "field value 1025",
        {"embeds": [embed(fields=[field(), field(value="x" * 1025)])]},
        "embeds.0.fields.1.value",
    ),
    ("empty field value", {"embeds": [embed(fields=[field(value="")])]}, "embeds.0.fields.0.value"),
    ("footer 2049", {"embeds": [embed(footer={"text": "x" * 2049})]}, "embeds.0.footer.text"),
    ("author 257", {"embeds": [embed(author={"name": "x" * 257})]}, "embeds.0.author.name"),
    (
        "embeds 6001 together",
        {"embeds": [embed(description="x" * 4000), embed(description="x" * 1999)]},
        "embeds",
    ),
    ("6 rows", {"components": [row(button(f"b{i}")) for i in range(6)]}, "components"),
    (
        "6 buttons in a row",
        {"components": [row(*(button(f"b{i}") for i in range(6)))]},
        "components.0.components",
    ),
    (
        "select with a button",
        {"components": [row(select(), button("b"))]},
        "components.0.components",
    ),
    ("26 options", {"components": [row(select(options=26))]}, "components.0.components.0.options"),
    (
        "button label 81",
        {"components": [row(button("b", "x" * 81))]},
        "components.0.components.0.label",
    ),
    (
        "custom_id 101",
        {"components": [row(button("x" * 101))]},
        "components.0.components.0.custom_id",
    ),
    ("empty custom_id", {"components": [row(button(""))]}, "components.0.components.0.custom_id"),
    (
        "custom_id twice",
        {"components": [row(button("b")), row(button("b"))]},
        "components.1.components.0.custom_id",
    ),
    (
        "option label 101",
        {"components": [row({**select(), "options": [{"label": "x" * 101, "value": "v"}]})]},
        "components.0.components.0.options.0.label",
    ),
    (
        "option value 101",
        {"components": [row({**select(), "options": [{"label": "l", "value": "x" * 101}]})]},
        "components.0.components.0.options.0.value",
    ),
    (
        "option description 101",
        {
            "components": [
                row(
                    {
                        **select(),
                        "options": [{"label": "l", "value": "v", "description": "x" * 101}],
                    }
                )
            ]
        },
        "components.0.components.0.options.0.description",
    ),
    (
        "placeholder 151",
        {"components": [row(select(placeholder="x" * 151))]},
        "components.0.components.0.placeholder",
    ),
    # issue 18: more of what Discord refuses
    (
        "link button without url",
        {"components": [row({"type": 2, "style": 5, "label": "Link"})]},
        "components.0.components.0.url",
    ),
    (
        "button style 7",
        {"components": [row({**button("b"), "style": 7})]},
        "components.0.components.0.style",
    ),
    (
        "button style 0",
        {"components": [row({**button("b"), "style": 0})]},
        "components.0.components.0.style",
    ),
    (
        "button without label and emoji",
        {"components": [row({"type": 2, "style": 1, "custom_id": "b"})]},
        "components.0.components.0.label",
    ),
    (
        "parse users and a user list",
        {"content": "a", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        "allowed_mentions.parse",
    ),
    (
        "101 allowed users",
        {"content": "a", "allowed_mentions": {"users": [str(i) for i in range(101)]}},
        "allowed_mentions.users",
    ),
    ("select max_values 0", {"components": [row(select(max_values=0))]},
     "components.0.components.0.max_values"),
    ("select min_values 3 of 2", {"components": [row(select(min_values=3, max_values=3))]},
     "components.0.components.0.min_values"),
    (
        "duplicate select values",
        {"components": [row({**select(), "options": [{"label": "a", "value": "v"}] * 2})]},
        "components.0.components.0.options.1.value",
    ),
    ("blank field name", {"embeds": [embed(fields=[field(name="  ")])]}, "embeds.0.fields.0.name"),
    ("blank field value", {"embeds": [embed(fields=[field(value="\n")])]},
     "embeds.0.fields.0.value"),
]  # fmt: skip

# Bodies right at the limits: accepted.
FITTING: dict[str, Any] = {
    "content": "x" * 2000,
    "embeds": [
        embed(
            title="x" * 256,
            description="x" * 3000,
            fields=[field("n" * 10, "v" * 1024)] * 2,
            footer={"text": "f" * 100},
            author={"name": "a" * 256},
        )
    ],
    "components": [
        row(*(button(f"b{i}", "x" * 80) for i in range(5))),
        row(select("s1", options=25, placeholder="p" * 150)),
        row(button("c" * 100)),
    ],
}


def _errors_at(body: Mapping[str, Any], path: str) -> list[dict[str, Any]]:
    node: Any = body["errors"]
    for key in path.split("."):
        assert key in node, f"no error at {path}: {body['errors']}"
        node = node[key]
    return list(node["_errors"])


async def _post(fake: FakeDiscord, method: str, path: str, body: Any) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, json=body) as response,
    ):
        return response.status, await response.json(content_type=None)


def _exchange(fake: FakeDiscord, *, with_message: bool = False) -> Exchange:
    """An interaction as if pushed to the bot (the tests answer it themselves)."""
    user, channel = fake.user("alice"), fake.channel()
    payload = fake._base_interaction(2, user, channel, "de")
    source = fake._new_message(channel.id, {"content": "board"}, []) if with_message else None
    ex = Exchange(fake, payload, user, channel, source)
    fake.exchanges[ex.token] = ex
    return ex


def _assert_refused(status: int, body: Any, path: str) -> None:
    assert status == 400
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    errors = _errors_at(body, path)
    assert errors and all(set(e) == {"code", "message"} for e in errors)


@pytest.fixture
def lenient(fake: FakeDiscord) -> FakeDiscord:
    """The fake without reporting refusals as bot errors (these tests send bad bodies)."""
    fake.report_refusals = False
    return fake


@pytest.mark.parametrize(("case", "body", "path"), MESSAGE_CASES, ids=[c[0] for c in MESSAGE_CASES])
async def test_channel_message_over_a_limit_is_refused(
    lenient: FakeDiscord, case: str, body: dict[str, Any], path: str
) -> None:
    channel = lenient.channel()
    status, answer = await _post(lenient, "POST", f"/channels/{channel.id}/messages", body)
    _assert_refused(status, answer, path)
    assert lenient.channel_messages(channel) == []
    assert len(lenient.refused) == 1


@pytest.mark.parametrize(("case", "body", "path"), MESSAGE_CASES, ids=[c[0] for c in MESSAGE_CASES])
async def test_interaction_reply_over_a_limit_is_refused(
    lenient: FakeDiscord, case: str, body: dict[str, Any], path: str
) -> None:
    ex = _exchange(lenient)
    status, answer = await _post(
        lenient, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 4, "data": body}
    )
    _assert_refused(status, answer, "data." + path)
    assert ex.callback_reply is None and ex.original is None


async def test_every_message_route_refuses(lenient: FakeDiscord) -> None:
    """Update callbacks, followups, webhook edits and channel message edits are checked too."""
    too_long = {"content": "x" * 2001}
    ex = _exchange(lenient, with_message=True)
    base = f"/interactions/{ex.id}/{ex.token}/callback"
    status, answer = await _post(lenient, "POST", base, {"type": 7, "data": too_long})
    _assert_refused(status, answer, "data.content")
    assert ex.source is not None and ex.source.content == "board"

    status, _ = await _post(lenient, "POST", base, {"type": 4, "data": {"content": "ok"}})
    assert status == 200
    hook = f"/webhooks/{lenient.application_id}/{ex.token}"
    status, answer = await _post(lenient, "POST", hook + "?wait=1", too_long)
    _assert_refused(status, answer, "content")
    status, answer = await _post(lenient, "PATCH", hook + "/messages/@original", too_long)
    _assert_refused(status, answer, "content")
    assert ex.original is not None and ex.original.content == "ok"

    channel = lenient.channel()
    status, sent = await _post(
        lenient, "POST", f"/channels/{channel.id}/messages", {"content": "a"}
    )
    assert status == 200
    path = f"/channels/{channel.id}/messages/{sent['id']}"
    status, answer = await _post(lenient, "PATCH", path, too_long)
    _assert_refused(status, answer, "content")
    assert [m.content for m in lenient.channel_messages(channel)][-1] == "a"
    assert len(lenient.refused) == 4


async def test_bodies_at_the_limits_are_accepted(fake: FakeDiscord) -> None:
    channel = fake.channel()
    status, _ = await _post(fake, "POST", f"/channels/{channel.id}/messages", FITTING)
    assert status == 200
    ex = _exchange(fake)
    status, _ = await _post(
        fake, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 4, "data": FITTING}
    )
    assert status == 200
    assert fake.refused == [] and fake.errors == []


@pytest.mark.parametrize(
    ("case", "data", "path"),
    [
        ("title 46", modal(title="x" * 46), "data.title"),
        ("6 inputs", modal(components=[text_input(f"i{i}") for i in range(6)]), "data.components"),
        (
            "label 46",
            modal(components=[text_input(label="x" * 46)]),
            "data.components.0.components.0.label",
        ),
        ("no inputs", modal(components=[]), "data.components"),
        (
            "max_length 4001",
            modal(components=[row({**text_input()["components"][0], "max_length": 4001})]),
            "data.components.0.components.0.max_length",
        ),
        (
            "min_length above max_length",
            modal(
                components=[
                    row({**text_input()["components"][0], "min_length": 10, "max_length": 5})
                ]
            ),
            "data.components.0.components.0.min_length",
        ),
        (
            "default longer than max_length",
            modal(
                components=[row({**text_input()["components"][0], "value": "abc", "max_length": 2})]
            ),
            "data.components.0.components.0.value",
        ),
        (
            "labelled 46",
            modal(
                components=[
                    {
                        "type": 18,
                        "label": "x" * 46,
                        "component": {"type": 4, "custom_id": "a", "style": 1},
                    }
                ]
            ),
            "data.components.0.label",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
async def test_modal_over_a_limit_is_refused(
    lenient: FakeDiscord, case: str, data: dict[str, Any], path: str
) -> None:
    ex = _exchange(lenient)
    status, answer = await _post(
        lenient, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 9, "data": data}
    )
    _assert_refused(status, answer, path)


@pytest.mark.parametrize(
    ("case", "choices", "path"),
    [
        ("26 choices", [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)], "data.choices"),
        ("name 101", [{"name": "x" * 101, "value": "v"}], "data.choices.0.name"),
        ("value 101", [{"name": "n", "value": "x" * 101}], "data.choices.0.value"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
async def test_autocomplete_over_a_limit_is_refused(
    lenient: FakeDiscord, case: str, choices: list[dict[str, Any]], path: str
) -> None:
    ex = _exchange(lenient)
    body = {"type": 8, "data": {"choices": choices}}
    status, answer = await _post(
        lenient, "POST", f"/interactions/{ex.id}/{ex.token}/callback", body
    )
    _assert_refused(status, answer, path)


async def test_flags_discord_does_not_accept_are_refused(lenient: FakeDiscord) -> None:
    ex = _exchange(lenient)
    callback = f"/interactions/{ex.id}/{ex.token}/callback"
    status, answer = await _post(lenient, "POST", callback, {"type": 5, "data": {"flags": 64 | 4}})
    _assert_refused(status, answer, "data.flags")
    channel = lenient.channel()
    status, answer = await _post(
        lenient, "POST", f"/channels/{channel.id}/messages", {"content": "a", "flags": 64}
    )
    _assert_refused(status, answer, "flags")
    status, _ = await _post(lenient, "POST", callback, {"type": 5, "data": {"flags": 64}})
    assert status == 200


async def test_a_refusal_fails_the_waiting_test(fake: FakeDiscord) -> None:
    channel = fake.channel()
    status, _ = await _post(
        fake, "POST", f"/channels/{channel.id}/messages", {"content": "x" * 2001}
    )
    assert status == 400
    with pytest.raises(BotFailed, match="content: Must be 2000 or fewer in length"):
        await fake.wait(lambda: None, 1.0, "anything")


def command(**over: Any) -> dict[str, Any]:
    return {"name": "würfel", "description": "Würfelt.", "type": 1, "options": [], **over}


def option(name: str = "ausdruck", **over: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "Was gewürfelt wird.", **over}


def choices(count: int, name: str = "n", value: str = "v") -> list[dict[str, str]]:
    return [{"name": name, "value": value} for _ in range(count)]


BIG_OPTION = {"description": "d" * 100, "choices": choices(25, "n" * 100, "v" * 100)}


@pytest.mark.parametrize(
    ("case", "commands", "path"),
    [
        ("upper case", [command(name="Würfel")], "0.name"),
        ("name 33", [command(name="w" * 33)], "0.name"),
        ("space in name", [command(name="zwei worte")], "0.name"),
        (
            "localized",
            [command(name_localizations={"en-US": "Roll"})],
            "0.name_localizations.en-US",
        ),
        ("description 101", [command(description="x" * 101)], "0.description"),
        ("empty description", [command(description="")], "0.description"),
        ("26 options", [command(options=[option(f"o{i}") for i in range(26)])], "0.options"),
        ("option name", [command(options=[option("Ausdruck")])], "0.options.0.name"),
        ("26 choices", [command(options=[option(choices=choices(26))])], "0.options.0.choices"),
        (
            "choice name 101",
            [command(options=[option(choices=choices(1, name="x" * 101))])],
            "0.options.0.choices.0.name",
        ),
        (
            "choice value 101",
            [command(options=[option(choices=choices(1, value="x" * 101))])],
            "0.options.0.choices.0.value",
        ),
        ("101 commands", [command(name=f"c{i}") for i in range(101)], ""),
        (
            "8001 characters",
            [command(options=[option(f"o{i}", **BIG_OPTION) for i in range(2)])],
            "0",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
async def test_command_schema_over_a_limit_is_refused(
    lenient: FakeDiscord, case: str, commands: list[dict[str, Any]], path: str
) -> None:
    app = lenient.application_id
    status, answer = await _post(lenient, "PUT", f"/applications/{app}/commands", commands)
    assert status == 400 and answer["code"] == 50035
    if path:
        _errors_at(answer, path)
    else:
        assert answer["errors"]["_errors"]
    assert lenient.commands == {}


async def test_the_bots_own_command_schema_is_accepted(fake: FakeDiscord, bot: Any) -> None:
    assert fake.sync_count == 1 and fake.commands[None]
    assert fake.refused == []


async def test_a_file_over_10_mib_is_refused(lenient: FakeDiscord) -> None:
    channel = lenient.channel()
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "Bild"}', content_type="application/json")
    big = b"\0" * (10 * 1024 * 1024 + 1)
    form.add_field("files[0]", big, filename="gross.png", content_type="image/png")
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{lenient.api_base}/channels/{channel.id}/messages", data=form) as response,
    ):
        assert response.status == 413
        assert (await response.json(content_type=None))["code"] == 40005
    assert lenient.channel_messages(channel) == [] and len(lenient.refused) == 1


async def test_an_empty_new_message_is_refused_as_discord_does(lenient: FakeDiscord) -> None:
    """Issue 18: Discord answers 400 ``{"code": 50006, "message": "Cannot send an empty
    message"}`` to a new message with nothing to show; an edit may leave a message as it is."""
    channel = lenient.channel()
    for body in ({}, {"content": ""}, {"content": "  \n"}, {"embeds": [], "components": []}):
        status, answer = await _post(lenient, "POST", f"/channels/{channel.id}/messages", body)
        assert (status, answer) == (400, {"code": 50006, "message": "Cannot send an empty message"})
    ex = _exchange(lenient)
    callback = f"/interactions/{ex.id}/{ex.token}/callback"
    status, answer = await _post(lenient, "POST", callback, {"type": 4, "data": {"content": ""}})
    assert (status, answer["code"]) == (400, 50006) and ex.callback_reply is None
    status, _ = await _post(lenient, "POST", callback, {"type": 5})
    assert status == 200
    hook = f"/webhooks/{lenient.application_id}/{ex.token}"
    status, answer = await _post(lenient, "POST", hook + "?wait=1", {"content": " "})
    assert (status, answer["code"]) == (400, 50006)
    assert len(lenient.refused) == 6
    status, _ = await _post(lenient, "POST", hook + "?wait=1", {"content": "gut"})
    assert status == 200


async def test_a_callback_after_three_seconds_is_refused_and_flagged(lenient: FakeDiscord) -> None:
    """Issue 18: Discord forgets an interaction not answered within 3 s (404, code 10062); the
    fake says so and keeps the late answer in ``late_callbacks``."""
    lenient.callback_deadline = CALLBACK_DEADLINE
    on_time = _exchange(lenient)
    late = _exchange(lenient)
    late.pushed_at -= 3.5  # as if it had arrived 3.5 s ago
    body = {"type": 4, "data": {"content": "zu spät"}}
    status, answer = await _post(
        lenient, "POST", f"/interactions/{late.id}/{late.token}/callback", body
    )
    assert (status, answer) == (404, {"code": 10062, "message": "Unknown interaction"})
    assert [ex for ex, _ in lenient.late_callbacks] == [late] and late.callback_reply is None
    status, _ = await _post(
        lenient, "POST", f"/interactions/{on_time.id}/{on_time.token}/callback", body
    )
    assert status == 200 and len(lenient.late_callbacks) == 1

"""The Felsenfeuer board image and its narration: every view random duels produce is drawn
(2 to 6 seats, the modes, Weltentor, the draft), the image stays bounded with six seats, and
every event and decision has its words in German and English."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.i18n import catalog
from bot.render.felsenfeuer import MAX_MATRICES, WIDTH, draw_board, render_board, title_parts
from bot.render.felsenfeuer_text import (
    EVENT_TYPES,
    action_label,
    narrate,
    option_label,
    prompt,
)
from engines.core import match as m
from engines.felsenfeuer.engine import ENGINE
from engines.felsenfeuer.scenario import build

CASES = [
    (2, {"rules": "adept", "phase_limit": 6}),
    (2, {"rules": "magister", "weltentor": True, "auswahl": "draft", "phase_limit": 6}),
    (4, {"rules": "magister", "teams": [0, 1, 0, 1], "phase_limit": 5}),
    (5, {"rules": "magister", "mode": "pentagramm", "phase_limit": 4}),
    (6, {"rules": "magister", "mode": "gilde", "phase_limit": 4}),
    (2, {"rules": "magister", "wuerfeln": "glyphen", "erdbeben": True, "phase_limit": 6}),
    (3, {"wuerfeln": "runen", "erdbeben": True, "start": 2, "phase_limit": 5}),
]


def random_duel(players: int, config: dict[str, Any], seed: int) -> Iterator[tuple[Any, list[Any]]]:
    """Every state of a random duel (the kit's way: a random decision, a random action) with
    the events that led to it."""
    chooser = random.Random(seed)
    match = m.start(ENGINE, config, seed, players)
    yield match.state, []
    for _ in range(3000):
        if m.outcome(ENGINE, match) is not None:
            return
        decision = chooser.choice(m.decisions(ENGINE, match))
        action = chooser.choice(list(ENGINE.legal_actions(match.state, decision.seat)))
        match, events = m.apply(ENGINE, match, ENGINE.action_text(action), decision.seat)
        yield match.state, events
    raise AssertionError("the duel did not end")


@pytest.mark.parametrize(("players", "config"), CASES, ids=[f"{p}-{c}" for p, c in CASES])
def test_every_view_of_random_duels_is_drawn_and_narrated(
    players: int, config: dict[str, Any]
) -> None:
    names = ["Alrik", "Borbarad", "Cassia", "Dschinn", "Eleonora von Sternenfall", "Fex"]
    seen: set[str] = set()
    for number, (state, events) in enumerate(random_duel(players, config, players)):
        viewer = number % players
        view = ENGINE.view_for(state, viewer)
        lang = ("de", "en")[number % 2]
        image = draw_board(view, lang, names[:players] if number % 3 else None)
        assert image.width == WIDTH
        for event in events:
            assert event.type in EVENT_TYPES, event.type
            seen.add(event.type)
            for language in ("de", "en"):
                line = narrate(event.type, event.data, view, language, names)
                assert line and "felsenfeuer." not in line and "{" not in line, line
        asked = prompt(view, lang, names)
        assert "felsenfeuer." not in asked and "{" not in asked
        if view["decision"] and view["decision"]["seat"] == viewer:
            for token in view["decision"]["options"]:
                label = option_label(token, view, lang, names)
                assert label and "felsenfeuer." not in label
                assert not (token.startswith(("d", "p")) and token[1:].isdigit()
                            and label == token)  # fmt: skip
        for action in list(ENGINE.legal_actions(state, viewer))[:40]:
            text = ENGINE.action_text(action)
            label = action_label(text, view, lang, names)
            assert "felsenfeuer." not in label and "{" not in label
    assert "game_over" in seen


def test_the_png_is_a_real_image() -> None:
    state = next(random_duel(2, {"rules": "adept"}, 1))[0]
    png = render_board(ENGINE.view_for(state, 0), "de")
    Image.open(io.BytesIO(png)).verify()


def crowded_six() -> Any:
    """Six seats with every kind of die on more matrices than the image shows."""
    colours = ("gruen", "grau", "rot", "schwarz", "violett")
    lines = []
    for seat in range(6):
        lines += [f"{seat} rot essence 6", f"{seat} violett essence 5"]
        for k in range(6):
            where = ("glyph", "frozen", "rune", "float", "glyph", "rune")[k]
            lines.append(f"{seat} {colours[(seat + k) % 5]} {where} {1 + k % 6} {(seat + k) % 8}")
    return build(lines, 6)


def test_six_seats_stay_bounded_and_legible() -> None:
    state = crowded_six()
    view = ENGINE.view_for(state, 0)
    assert len(view["matrices"]) == 8
    image = draw_board(view, "de", ["Ein sehr, sehr langer Discord-Name ✨"] * 6)
    assert image.width == WIDTH
    # header, six seat bands, at most MAX_MATRICES panels of at most seven rows, the footer
    assert image.height <= 58 + 6 * 62 + 12 + MAX_MATRICES * (26 + 7 * 44 + 18) + 400
    assert len(render_board(view, "en")) < 400_000


def test_every_event_and_prompt_has_both_languages() -> None:
    texts = catalog()
    for event_type in EVENT_TYPES:
        entry = texts[f"felsenfeuer.event.{event_type}"]
        assert entry["de"] and entry["en"]
    prompts = {key for key in texts if key.startswith("felsenfeuer.ask.")}
    import engines.felsenfeuer.engine as engine_module
    import engines.felsenfeuer.verbs as verbs_module

    source = "".join(Path(str(module.__file__)).read_text(encoding="utf-8")
                     for module in (engine_module, verbs_module))  # fmt: skip
    used = set(re.findall(r'"(felsenfeuer\.ask\.[a-z_]+)"', source))
    assert used <= prompts


LONG_NAMES = [
    "Eleonora von Sternenfall die Weise",
    "Maximilian-Alexander Großherzog",
    "Drache der Morgenröte (Bot)",
    "Ein sehr langer Discord-Name",
    "Bo",
    "Fex",
]


@pytest.mark.parametrize("players", [2, 6])
def test_long_names_are_fitted_whole_not_cut(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord names up to 32 characters: every word of each name is drawn (smaller or on two
    lines), in the seat bands, the glyph rows and the header; nothing cut with an ellipsis."""
    import bot.render.felsenfeuer as renderer

    drawn: list[str] = []
    real = renderer.draw_text

    def record(draw: Any, xy: Any, text: str, face: Any, fill: str, **kwargs: Any) -> None:
        drawn.append(text)
        real(draw, xy, text, face, fill, **kwargs)

    monkeypatch.setattr(renderer, "draw_text", record)
    names = LONG_NAMES[:players] if players == 6 else LONG_NAMES[:2]
    if players == 6:
        state = crowded_six()
    else:  # a duel under way: glyph rows, the stone, the initiative
        states = [state for state, _ in random_duel(2, {"rules": "adept"}, 2)]
        state = states[len(states) // 2]
    for lang in ("de", "en"):
        drawn.clear()
        draw_board(ENGINE.view_for(state, 0), lang, names)
        more = renderer._tr("more_matrices", lang, count=4)
        assert not [text for text in drawn if "…" in text and text != more], drawn
        words = " ".join(drawn).replace("-", " ").split()
        for name in names:
            for word in name.replace("-", " ").split():
                assert word in words, (word, drawn)


def test_the_random_rune_roll_asks_its_own_question() -> None:
    """The Teil 3 scenario's roll at the start asked only "Wähle:" (seen in the playground):
    the rolling seat reads what to do, in both languages."""
    match = m.start(ENGINE, {"wuerfeln": "glyphen"}, 3, 2)
    while match.state.phase != "roll":
        decision = m.decisions(ENGINE, match)[0]
        action = ENGINE.legal_actions(match.state, decision.seat)[0]
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(action), decision.seat)
    seat = m.decisions(ENGINE, match)[0].seat
    view = ENGINE.view_for(match.state, seat)
    assert prompt(view, "de").startswith("Würfle eine deiner Handrunen auf den Tisch")
    assert prompt(view, "en").startswith("Roll one of your hand runes onto the table")


def test_a_weltentor_float_and_an_earthquake_read_as_sentences() -> None:
    """Seen in the playground: "Schwebend: grün 3 von Alice über der Matrix." (no verb, and
    the start surface is meant) and "… werden zerstört (2)." (a bare number)."""
    match = m.start(ENGINE, {"weltentor": True}, 3, 2)
    while True:
        decision = m.decisions(ENGINE, match)[0]
        acts = [a for a in ENGINE.legal_actions(match.state, decision.seat) if a.verb == "schwebe"]
        action = acts[0] if acts else ENGINE.legal_actions(match.state, decision.seat)[0]
        match, events = m.apply(ENGINE, match, ENGINE.action_text(action), decision.seat)
        if acts:
            break
    floated = next(e for e in events if e.type == "floated")
    view = ENGINE.view_for(match.state, None)
    names = ["Alice", "Bob"]
    who = names[decision.seat]
    de = narrate("floated", floated.data, view, "de", names)
    en = narrate("floated", floated.data, view, "en", names)
    assert de.startswith(f"{who} lässt ") and de.endswith(" über der Startfläche schweben.")
    assert en.startswith(f"{who} floats ") and en.endswith(" over the start surface.")
    spell = {"die": floated.data["die"], "player": decision.seat, "pips": None}  # a spell's
    assert narrate("floated", spell, view, "de", names).endswith(
        f" von {who} schwebt jetzt über dem Duellplatz."
    )
    quake = {"pips": 1, "count": 2}
    assert narrate("quake", quake, view, "de") == (
        "Erdbeben! Jede ausliegende Rune mit der niedrigsten Augenzahl (1) wird zerstört – "
        "insgesamt 2."
    )
    assert narrate("quake", quake, view, "en") == (
        "Earthquake! Every rune lying out with the lowest pips (1) is destroyed – 2 in all."
    )


def test_a_done_or_yes_no_answer_is_told_as_such_not_as_a_choice() -> None:
    """Seen in the playground: "Alice wählt fertig." and "Bob chooses no."."""
    match = m.start(ENGINE, {}, 3, 2)
    view = ENGINE.view_for(match.state, None)
    names = ["Alice", "Bob"]
    said = {
        (token, lang): narrate("chose", {"player": 0, "token": token}, view, lang, names)
        for token in ("fertig", "ja", "nein")
        for lang in ("de", "en")
    }
    assert said[("fertig", "de")] == "Alice ist mit der Wahl fertig."
    assert said[("fertig", "en")] == "Alice is done choosing."
    assert said[("ja", "de")] == "Alice sagt ja." and said[("nein", "en")] == "Alice says no."


def test_a_destroyed_or_taken_die_is_told_in_a_sentence() -> None:
    """With a bot's name the lines read "Zerstört: grün 1 von Spielleiter (normal) (in den
    Beutel)." and "Auf die Hand von Alice: violett 1." (seen in the playground)."""
    match = m.start(ENGINE, {}, 3, 2)
    while match.state.phase != "action":
        decision = m.decisions(ENGINE, match)[0]
        action = ENGINE.legal_actions(match.state, decision.seat)[0]
        match, _ = m.apply(ENGINE, match, ENGINE.action_text(action), decision.seat)
    view = ENGINE.view_for(match.state, None)
    names = ["Alice", "Spielleiter (normal)"]
    die = next(d for d in view["dice"] if d["owner"] == 1)["id"]
    gone = narrate("destroyed", {"die": die, "player": 1, "pips": 1}, view, "de", names)
    assert gone.startswith("Die Rune ")
    assert gone.endswith(" von Spielleiter (normal) wird zerstört und kommt in den Beutel.")
    hand = narrate("taken", {"die": die, "player": 1}, view, "en", names)
    assert hand.startswith("The rune ") and hand.endswith(" goes to Spielleiter (normal)'s hand.")


def test_the_header_names_the_weltentor_and_the_earthquake_for_the_whole_duel() -> None:
    """Chosen at the start, then nowhere to be seen: the board's header showed only the phase
    and the rules (seen in the playground), so a table forgot its Erdbeben house rule."""
    match = m.start(ENGINE, {"weltentor": True, "erdbeben": True}, 3, 2)
    view = ENGINE.view_for(match.state, None)
    assert title_parts(view, "de")[-2:] == ["Weltentor", "Erdbeben"]
    assert title_parts(view, "en")[-1] == "Earthquake"
    plain = ENGINE.view_for(m.start(ENGINE, {}, 3, 2).state, None)
    assert "Erdbeben" not in title_parts(plain, "de")


def test_the_end_line_gives_its_reason_in_parentheses_in_lower_case() -> None:
    """ "🏆 Spielleiter (normal) wins (A spell has declared the winners)." (seen in the
    playground): a sentence inside the end line's parentheses begins in lower case."""
    from types import SimpleNamespace

    from bot.play.specs.felsenfeuer import SPEC
    from engines.core import Outcome

    outcome = Outcome(frozenset({1}), "declared", (frozenset({1}), frozenset({0})), ())
    ctx = SimpleNamespace(lang="en", names=["Alice", "Bob"])
    assert SPEC.outcome_text(outcome, ctx).endswith("(a spell has declared the winners).")  # type: ignore[arg-type]
    ctx = SimpleNamespace(lang="de", names=["Alice", "Bob"])
    assert "(ein Zauber hat die Sieger bestimmt)" in SPEC.outcome_text(outcome, ctx)  # type: ignore[arg-type]


def test_a_floating_rune_has_a_wave_not_a_ring_like_the_spruchrune(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Play-test: a floating rune's ring (in its owner's colour; orange for the first seat)
    was taken for the Spruchrune's gold ring. Now only the Spruchrune is ringed; each floating
    rune gets a wave under it in its owner's colour, and the legend shows that wave."""
    from dataclasses import replace

    from PIL import ImageDraw

    import bot.render.felsenfeuer as board
    from bot.render.felsenfeuer import GOLD, SEAT_COLOURS

    state = build(["0 rot rune 4", "0 rot essence 6", "1 grau essence 3", "0 grau float 5",
                   "1 violett float 2"])  # fmt: skip
    view = ENGINE.view_for(replace(state, spell_rune=0), 0)
    rings: list[str] = []
    waves: list[str] = []
    ellipse = ImageDraw.ImageDraw.ellipse

    def spy_ellipse(self: ImageDraw.ImageDraw, xy: Any, *args: Any, **kw: Any) -> None:
        if kw.get("outline") and kw.get("fill") is None:
            rings.append(str(kw["outline"]))
        ellipse(self, xy, *args, **kw)

    mark = getattr(board, "float_mark", None)  # (before the wave: no such mark at all)

    def spy_mark(draw: Any, x: float, y: float, half: float, colour: str) -> None:
        waves.append(colour)
        if mark is not None:
            mark(draw, x, y, half, colour)

    monkeypatch.setattr(ImageDraw.ImageDraw, "ellipse", spy_ellipse)
    monkeypatch.setattr(board, "float_mark", spy_mark, raising=False)
    for lang in ("de", "en"):
        rings.clear()
        waves.clear()
        draw_board(view, lang, ["Anna", "Bert"])
        assert set(rings) == {GOLD}  # the Spruchrune (and its legend sample), nothing else
        assert waves[:2] == [SEAT_COLOURS[0], SEAT_COLOURS[1]] and len(waves) == 3  # + legend
        label = {"de": "schwebende Rune", "en": "floating rune"}[lang]
        keys = [key for line in board._legend_lines(lang) for key, _x in line]
        assert "float" in keys and catalog()["felsenfeuer.render.legend.float"][lang] == label


def test_the_wuerfeldraft_shows_the_dice_left_in_the_middle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Play-test: in the Würfeldraft neither the board nor the drafting player's prompt said
    what is still in the middle. Now the board has a 'Mitte' band (a die and a count per
    colour), the question names the middle, and each colour's button says how many are left."""
    from types import SimpleNamespace

    import bot.render.felsenfeuer as board
    from bot.play.specs.felsenfeuer import _token_label
    from bot.render.felsenfeuer_text import prompt

    match = m.start(ENGINE, {"start": 0, "auswahl": "draft"}, 1, 2)
    for turn, colour in enumerate(("rot", "rot", "grau")):
        match, _ = m.apply(ENGINE, match, f"draft {colour}", turn % 2)
    view = ENGINE.view_for(match.state, 1)
    supply = dict(zip(("gruen", "grau", "rot", "schwarz", "violett"), view["supply"], strict=True))
    total = sum(supply.values()) - 3
    de, en = prompt(view, "de"), prompt(view, "en")
    assert de.startswith("Nimm einen Würfel aus der Mitte")
    assert f"In der Mitte: {supply['gruen']} grün, {supply['grau'] - 1} grau, " in de
    assert de.endswith(f" ({total} Würfel).")
    assert f"{supply['rot'] - 2} red" in en and en.endswith(f" ({total} dice).")
    for lang, red in (("de", f"Rot (noch {supply['rot'] - 2})"),
                      ("en", f"Red ({supply['rot'] - 2} left)")):  # fmt: skip
        assert _token_label("rot", ("draft",), view, SimpleNamespace(lang=lang)) == red  # type: ignore[arg-type]
    drawn: list[str] = []
    text = board._text

    def spy(draw: Any, xy: Any, value: str, *args: Any, **kw: Any) -> None:
        drawn.append(value)
        text(draw, xy, value, *args, **kw)

    monkeypatch.setattr(board, "_text", spy)
    draw_board(view, "de", ["Anna", "Bert"])
    assert f"Mitte: {total} Würfel" in drawn and f"×{supply['rot'] - 2}" in drawn
    drawn.clear()
    later = next(random_duel(2, {"rules": "adept"}, 1))[0]  # not drafting: no middle
    draw_board(ENGINE.view_for(later, 0), "de")
    assert not any(value.startswith("Mitte") for value in drawn)

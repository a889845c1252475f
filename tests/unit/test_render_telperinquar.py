"""The Telperinquár images: every card (support, hero, level) in German and English, a hand
numbered as the play buttons, the field of a duel and of a 2 vs 2 from real games (bot moves),
face-down cards that never show their name to another seat, and the deck summary with its
legality mark. Text is checked by capturing what reaches ``draw_text``."""

from __future__ import annotations

import io
import random
import re
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import bot.render.telperinquar as tq
from bot.i18n import catalog, t
from bot.render.base import draw_text, fit_block, font, wrap_text
from bot.render.telperinquar import cards as tq_cards
from bot.render.telperinquar import common as tq_common
from bot.render.telperinquar import deck as tq_deck
from bot.render.telperinquar import field as tq_field
from bot.render.telperinquar import hand as tq_hand
from engines.telperinquar.cards import (
    ABILITIES,
    ATTACKS,
    ATTRIBUTES,
    CARD_TYPES,
    CLASSES,
    DRAFT,
    SIZES,
    SOURCES,
    WEIGHTS,
    builtin_cards,
    catalogue,
    hero_of,
    level_card_name,
    level_rows,
)
from engines.telperinquar.decks import parse_list, starter
from engines.telperinquar.engine import ENGINE, TqState

PARTS = (tq_common, tq_cards, tq_hand, tq_field, tq_deck)  # the renderer's modules
NAMES = ["Alrik", "Borbarad von Sternenfall", "Cassia", "Dschinn"]
TRAPS = (
    "1 Schurke\n10 Stufenkarte Schurke\n4 Fallgrube\n4 Bärenfalle\n4 Schattenkatze\n4 Dieb\n"
    "4 Giftnadelfalle\n4 Dolch\n4 Ausweichen\n4 Hinterhalt\n"
)


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the renderer draws, in order."""
    texts: list[str] = []

    def capture(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        texts.append(text)
        draw_text(draw, xy, text, *args, **kwargs)

    users = [part for part in PARTS if getattr(part, "draw_text", None) is draw_text]
    assert users  # the modules that draw text take it from the base
    for part in users:
        monkeypatch.setattr(part, "draw_text", capture)
    monkeypatch.setattr(tq_hand, "_FACES", OrderedDict())  # every card drawn again, not pasted
    yield texts
    assert not [text for text in texts if "tqrender." in text or "tq.deck." in text]  # a key


def test_every_message_key_the_renderer_names_exists() -> None:
    source = "\n".join(Path(part.__file__).read_text(encoding="utf-8") for part in PARTS)
    assert {Path(part.__file__).name for part in PARTS} | {"__init__.py"} == {
        path.name for path in Path(tq.__file__).parent.glob("*.py")
    }  # no module of the renderer left out
    static = set(re.findall(r'_tr\(\s*"([a-z_.0-9]+)"', source))
    static |= set(re.findall(r'_tr\(\s*"[a-z_.0-9]+" if .*? else "([a-z_.0-9]+)"', source))
    keys = catalog()
    assert static and not [k for k in static if f"tqrender.{k}" not in keys]
    families = {
        "type": [*CARD_TYPES, "hero", "level", "unknown"],
        "size": SIZES,
        "weight": WEIGHTS,
        "attack": ATTACKS,
        "attack_short": ATTACKS,
        "ability": ABILITIES,
        "legend": [*ABILITIES, "chain", "ew"],
        "source": SOURCES,
        "attr": ATTRIBUTES,
        "attr_short": ATTRIBUTES,
        "phase": ("entry", "main", "position"),
        "mode": ("duel", "2v2"),
        "second": ("weapon", "shield", "none"),
        "stack": ("react", "reveal", "play", "hide", "arm", "move"),
        "level.col": ("level", "actions", "life", "resistance", "armour"),
    }
    missing = [
        f"{family}.{value}"
        for family, values in families.items()
        for value in values
        if f"tqrender.{family}.{value}" not in keys
    ]
    assert not missing


def _bot_states(
    mode: str, seed: int, steps: int, decks: list[str] | None = None
) -> Iterator[TqState]:
    players = 2 if mode == "duel" else 4
    config: dict[str, Any] = {"mode": mode}
    if decks:
        config["decks"] = decks
    state = ENGINE.initial_state(config, seed, players)
    rng = random.Random(seed)
    yield state
    for _ in range(steps):
        if ENGINE.outcome(state) is not None:
            return
        (decision,) = ENGINE.decisions(state)
        action = ENGINE.choose_action(state, decision.seat, "normal", 1.0, rng)
        state, _ = ENGINE.apply(state, action, decision.seat)
        yield state


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_card_renders_readably(lang: str, drawn: list[str]) -> None:
    for card in builtin_cards():
        drawn.clear()
        image = _image(tq.card_png(card, lang))
        assert 280 <= image.width <= 340 and 400 <= image.height <= 480
        name = card.name if lang == "de" else card.name_en
        assert any(name in text or text.rstrip("…") in name for text in drawn[:2]), card.name
        assert f"{card.play}/{card.use}" in drawn
    for cls in CLASSES:
        assert _image(tq.hero_card_png(cls, lang)).width >= 280
        drawn.clear()
        assert _image(tq.level_card_png(cls, lang)).width >= 300
        assert level_card_name(cls, lang) in drawn
        assert "10" in drawn  # the table runs to level 10


def test_card_words_follow_the_language(drawn: list[str]) -> None:
    sword = catalogue().support("Langschwert")
    assert sword is not None
    tq.card_png(sword, "en")
    assert "Long Sword" in drawn and "Attack" in drawn and "melee" in drawn
    drawn.clear()
    tq.card_png(sword, "de")
    assert "Langschwert" in drawn and "Angriff" in drawn and "Nahkampf" in drawn


def test_long_words_are_split_with_a_hyphen_and_long_texts_shrink() -> None:
    face = font(12)
    lines = wrap_text("Ein Donaudampfschifffahrtsgesellschaftskapitän kommt", face, 80)
    assert all(face.getlength(line) <= 80 for line in lines)
    assert lines[0] == "Ein" and lines[1].endswith("-") and len(lines) >= 4
    rebuilt = " ".join(lines).replace("- ", "")
    assert rebuilt == "Ein Donaudampfschifffahrtsgesellschaftskapitän kommt"
    short_size, _ = fit_block("Kurz.", 200, 100, 16, 8)
    long_size, long_lines = fit_block("Wort " * 300, 200, 100, 16, 8)
    assert short_size == 16 and long_size < short_size
    assert long_lines[-1].endswith("…")  # too long even at the smallest size: marked


def test_a_hand_is_numbered_in_the_order_of_the_view(drawn: list[str]) -> None:
    state = ENGINE.initial_state({"mode": "duel"}, 5, 2)
    view = ENGINE.view_for(state, 0)
    hand = view["players"][0]["hand"]
    assert len(hand) == 7
    image = _image(tq.hand_png(view, 0, "de"))
    assert image.width <= 1600 and image.height < 500  # seven side by side, one row
    numbers = [text for text in drawn if text.isdigit() and 1 <= int(text) <= 7]
    assert numbers[:1] == ["1"]
    first_names = [entry["name"] for entry in hand]
    positions = [next(i for i, text in enumerate(drawn) if text.startswith(name[:8]))
                 for name in dict.fromkeys(first_names)]  # fmt: skip
    assert positions == sorted(positions)


def test_a_big_hand_wraps_into_rows_of_at_most_ten() -> None:
    view = ENGINE.view_for(ENGINE.initial_state({"mode": "duel"}, 5, 2), 1)
    view["players"][1]["hand"] = view["players"][1]["hand"] * 3  # 21 cards
    image = _image(tq.hand_png(view, 1, "en"))
    assert image.width <= 1600 and image.height > 2 * 200


def test_hand_png_refuses_a_view_without_the_hand() -> None:
    state = ENGINE.initial_state({"mode": "duel"}, 5, 2)
    with pytest.raises(ValueError):
        tq.hand_png(ENGINE.view_for(state, 1), 0, "de")
    with pytest.raises(ValueError):
        tq.hand_png(ENGINE.view_for(state, None), 0, "de")


@pytest.mark.parametrize("mode", ["duel", "2v2"])
def test_the_field_of_real_games_renders_in_both_languages(mode: str) -> None:
    seats = 2 if mode == "duel" else 4
    states = [s for seed in (3, 4) for s in _bot_states(mode, seed, 600)]
    assert len(states) > 20 and ENGINE.outcome(states[-1]) is not None  # to the end
    for k, state in enumerate([*states[:: max(1, len(states) // 8)], states[-1]]):
        lang = "de" if k % 2 else "en"
        viewer = None if k % 3 == 0 else k % seats
        image = _image(tq.field_png(ENGINE.view_for(state, viewer), lang, names=NAMES[:seats]))
        assert 1000 <= image.width <= 1600
        assert 400 <= image.height <= (800 if mode == "duel" else 1400)


def test_the_field_names_round_phase_mover_and_the_declared_action(drawn: list[str]) -> None:
    state = _state_with(
        lambda d: (
            bool(d["stack"])
            and d["ask"] is not None
            and d["stack"][0]["text"].split()[0] == "use"
            and len(d["stack"][0]["text"].split()) == 3
            and d["stack"][0]["text"].split()[2].startswith("h")
        )  # a card used on a hero
    )
    view = ENGINE.view_for(state, None)
    tq.field_png(view, "de", names=NAMES[:2])
    header = next(text for text in drawn if "Runde" in text)
    assert f"Runde {view['round']}" in header and "Hauptphase" in header
    assert NAMES[view["mover"]][:8] in header
    asked = t("tqrender.stack.waiting", "de", player=NAMES[view["ask"]])
    assert asked in drawn
    assert any(text.startswith("1. ") and "→" in text for text in drawn)


def test_a_face_down_card_never_shows_its_name_to_another_seat(drawn: list[str]) -> None:
    state = _state_with(_has_hidden, decks=[TRAPS, TRAPS])
    d = state.data
    owner, cid = next((s, c) for s, p in enumerate(d["players"]) for c in p["row"]
                      if d["cards"][c].get("hidden"))  # fmt: skip
    card = catalogue().support(d["cards"][cid]["name"])
    assert card is not None
    secret = {card.name, card.name_en}
    for viewer in (1 - owner, None):
        for lang in ("de", "en"):
            drawn.clear()
            tq.field_png(ENGINE.view_for(state, viewer), lang, names=NAMES[:2],
                         show_own_hidden=True)  # fmt: skip
            assert not [text for text in drawn if any(s in text for s in secret)]
            assert t("tqrender.hidden", lang) in drawn
    drawn.clear()  # the owner's own private image may name it; the public one does not
    tq.field_png(ENGINE.view_for(state, owner), "de", names=NAMES[:2])
    assert not [text for text in drawn if card.name in text]
    tq.field_png(ENGINE.view_for(state, owner), "de", names=NAMES[:2], show_own_hidden=True)
    assert [text for text in drawn if card.name in text]


def _has_hidden(d: dict[str, Any]) -> bool:
    return any(d["cards"][c].get("hidden") for p in d["players"] for c in p["row"])


def _state_with(want: Any, decks: list[str] | None = None) -> TqState:
    for seed in range(40):
        for state in _bot_states("duel", seed, 300, decks):
            if want(state.data):
                return state
    raise AssertionError("no bot game reached the wanted state")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_starter_deck_is_summed_up_as_legal(lang: str, drawn: list[str]) -> None:
    entries = dict(starter("zauberer").entries)
    image = _image(tq.deck_png(entries, lang, title="Starter"))
    assert 800 <= image.width <= 1600 and image.height < 1200
    assert t("tqrender.deck.legal", lang) in drawn
    assert t("tqrender.deck.cards", lang, count=sum(entries.values())) in drawn
    assert t("tqrender.deck.curve", lang) in drawn and t("tqrender.deck.types", lang) in drawn


def test_an_illegal_deck_says_why(drawn: list[str]) -> None:
    entries = dict(starter("schurke").entries)
    entries["Dolch"] = 6
    entries["Gibtsnicht"] = 1
    tq.deck_png(entries, "en", title="Broken")
    assert t("tqrender.deck.illegal", "en") in drawn
    assert any("Dagger" in text and "6" in text for text in drawn)  # named in English
    assert any("Gibtsnicht" in text and "know" in text for text in drawn)


def _marked(d: dict[str, Any], key: str) -> list[tuple[int, str]]:
    return [
        (s, c)
        for s, p in enumerate(d["players"])
        for zone in ("equip", "field", "row")
        for c in p[zone]
        if d["cards"][c].get(key)
    ]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_wounds_damage_and_inaktion_are_marked(lang: str, drawn: list[str]) -> None:
    beasts = "1 Kämpfer\n10 Stufenkarte Kämpfer\n4 Wolf\n4 Söldner\n4 Bär\n4 Oger\n4 Parade\n"
    beasts += "4 Langschwert\n4 Kettenhemd\n4 Schildwall\n"
    state = _state_with(lambda d: bool(_marked(d, "wounded") and _marked(d, "dmg")),
                        decks=[beasts, beasts])  # fmt: skip
    tq.field_png(ENGINE.view_for(state, None), lang, names=NAMES[:2])
    assert "✚ " + t("tqrender.wounded", lang) in drawn
    for _, cid in _marked(state.data, "dmg"):  # every Wesen's damage, uncut
        amount = state.data["cards"][cid]["dmg"]
        assert t("tqrender.damage", lang, amount=amount) in drawn
    used = _state_with(lambda d: bool(_marked(d, "inaktion")), decks=[beasts, beasts])
    drawn.clear()
    tq.field_png(ENGINE.view_for(used, None), lang, names=NAMES[:2])
    assert any("↺" in text for text in drawn)


BEASTS = {
    "kaempfer": "1 Kämpfer\n10 Stufenkarte Kämpfer\n4 Oger\n4 Greif\n4 Bär\n4 Söldner\n"
    "4 Parade\n3 Langschwert\n3 Kettenhemd\n4 Kampfrausch\n",
    "schurke": "1 Schurke\n10 Stufenkarte Schurke\n4 Klingentänzerin\n4 Schattenkatze\n4 Dieb\n"
    "4 Fallgrube\n4 Wurfmesser\n3 Dolch\n3 Ausweichen\n4 Giftklinge\n",
    "zauberer": "1 Zauberer\n10 Stufenkarte Zauberer\n4 Irrlicht\n4 Feuerelementar\n"
    "4 Eiselementar\n4 Geist\n3 Zauberstab\n4 Feuerball\n4 Gegenzauber\n3 Magischer Schild\n",
    "geistlicher": "1 Geistlicher\n10 Stufenkarte Geistlicher\n4 Tempelwächter\n4 Paladin\n"
    "4 Skelettkrieger\n4 Zwergenkrieger\n3 Streitkolben\n4 Heilung\n4 Göttlicher Schutz\n3 Segen\n",
}


@pytest.mark.parametrize("mode", ["duel", "2v2"])
def test_no_word_of_a_real_field_is_cut(mode: str, drawn: list[str]) -> None:
    """Short seat names: then nothing on the field needs an ellipsis (names, values, Wesen,
    abilities and chips shrink to fit)."""
    classes = list(BEASTS) if mode == "2v2" else ["schurke", "zauberer"]
    seats = len(classes)
    decks = [BEASTS[c] for c in classes]
    states = [state for seed in (1, 2, 3) for state in _bot_states(mode, seed, 300, decks)]
    for k, state in enumerate(states[:: 7 if mode == "duel" else 15]):
        for lang in ("de", "en"):
            tq.field_png(ENGINE.view_for(state, k % seats), lang, names=NAMES[:seats])
    assert any(text.startswith("♥ ") for text in drawn)  # Wesen were on the field
    assert not [text for text in drawn if text.endswith("…")]


def _drafted(seed: int) -> list[str]:
    """Two deck lists drafted by bots (the selfplay's draft mode)."""
    from engines.telperinquar.__main__ import draft_decks

    return draft_decks(seed, 2)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_draft_hero_and_its_level_card_render(lang: str, drawn: list[str]) -> None:
    hero = hero_of(DRAFT)
    for name in (None, hero.name, hero.name_en):  # by class, by either name
        png = tq.hero_card_png(DRAFT, lang) if name is None else tq.named_card_png(name, lang)
        assert _image(png).width >= 280
        assert (hero.name if lang == "de" else hero.name_en) in drawn
        assert "◆" in drawn  # its own mark, not the unknown class's "?"
        drawn.clear()
    top = level_rows(DRAFT)[-1]
    for name in (None, level_card_name(DRAFT), level_card_name(DRAFT, "en")):
        png = tq.level_card_png(DRAFT, lang) if name is None else tq.named_card_png(name, lang)
        assert _image(png).width >= 300
        assert level_card_name(DRAFT, lang) in drawn
        assert str(top.kraft) in drawn and f"+{top.life} ({top.life_max})" in drawn
        drawn.clear()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_drafted_duel_shows_the_draft_hero_on_the_field(lang: str, drawn: list[str]) -> None:
    hero = hero_of(DRAFT)
    name = hero.name if lang == "de" else hero.name_en
    states = list(_bot_states("duel", 3, 200, _drafted(3)))
    assert len(states) > 10 and ENGINE.outcome(states[-1]) is not None
    for state in states[::8]:
        drawn.clear()
        image = _image(tq.field_png(ENGINE.view_for(state, 0), lang, names=NAMES[:2]))
        assert 1000 <= image.width <= 1600
        assert any(text.startswith(f"{name} ") for text in drawn)
        assert not [text for text in drawn if text.startswith("draft")]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_drafted_deck_is_summed_up_with_its_hero(lang: str, drawn: list[str]) -> None:
    entries = dict(parse_list(_drafted(3)[0], catalogue()).entries)
    image = _image(tq.deck_png(entries, lang, title="Draft"))
    assert 800 <= image.width <= 1600
    assert t("tqrender.deck.legal", lang) in drawn
    assert any(hero_of(DRAFT).name_en in text or hero_of(DRAFT).name in text for text in drawn)
    assert t("tqrender.deck.never", lang) not in drawn  # the draft table reaches every need
    reached = {t("tqrender.deck.from_level", lang, level=n) for n in range(1, 11)}
    assert [text for text in drawn if text in reached]  # by the draft level table


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_marks_of_every_card_stay_inside_the_card_in_a_hand(lang: str) -> None:
    """The row of requirements, Defensiv, InAktion and charges wraps where a hand's narrow
    card has no room: no chip reaches into the frame (the InAktion chip of Parade did)."""
    _per_row, width = tq_hand._hand_layout(8)
    u = width / tq.CARD_W
    inner_right = round(width - 7 * u)
    chip_colours = {(0x8A, 0x3B, 0x3B), (0x4A, 0x4A, 0x4A), *(
        tuple(int(code[i : i + 2], 16) for i in (1, 3, 5)) for code in tq.ATTRIBUTE_COLOURS.values()
    )}  # fmt: skip
    for card in builtin_cards():
        image = Image.new("RGB", (width + 40, round(width * tq.CARD_RATIO) + 10), "#000000")
        tq.draw_card(ImageDraw.Draw(image), 0, 0, width, card, lang)
        frame = image.crop((inner_right, 0, width + 40, image.height)).getcolors(100_000) or []
        assert not [c for _, c in frame if c in chip_colours], card.name


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_card_image_explains_its_ability_words(lang: str, drawn: list[str]) -> None:
    """The card names its abilities (Schattenhaftigkeit, Verstecken); a legend at its foot
    says what each means, on the big card and in a hand."""
    cat = catalogue()
    cat_card = cat.support("Schattenkatze")
    assert cat_card is not None
    for width in (tq.CARD_W, tq_hand._hand_layout(8)[1]):
        drawn.clear()
        image = Image.new("RGB", (width, round(width * tq.CARD_RATIO)))
        tq.draw_card(ImageDraw.Draw(image), 0, 0, width, cat_card, lang)
        text = " ".join(drawn).replace("- ", "")
        for ability in ("schattenhaftigkeit", "verstecken"):
            said = (
                f"{t(f'tqrender.ability.{ability}', lang)}: {t(f'tqrender.legend.{ability}', lang)}"
            )
            assert said in text, (width, said)
    assert tq_cards._legend(cat.cards["Langschwert"], lang) == []  # nothing to explain
    assert len(tq_cards._legend(cat.cards["Oger"], lang)) == 1
    said = tq_cards._legend(cat.cards["Kampfschrei"], lang)  # the EW, a word of the card text
    assert said == [f"{t('tqrender.flag.ew', lang)}: {t('tqrender.legend.ew', lang)}"]


def test_a_hero_out_of_the_reach_of_its_wesen_shows_as_exposed() -> None:
    """Four Wolves against one Wolf at place 1: the Wolves at places 3 and 4 reach no Wesen,
    so they may attack the hero (RULES.md 'Threat range') and the field says "angreifbar"."""
    from tests.unit.test_telperinquar_engine import fresh, give, main_phase

    d = main_phase(fresh())
    give(d, 1, "Wolf", "row")
    give(d, 0, "Wolf", "row")
    give(d, 0, "Wolf", "row")
    view = ENGINE.view_for(ENGINE.state_from_json(d), None)
    assert not tq_field._exposed(view, 1, catalogue())  # both Wolves reach the enemy Wolf
    give(d, 0, "Wolf", "row")
    view = ENGINE.view_for(ENGINE.state_from_json(d), None)
    assert tq_field._exposed(view, 1, catalogue())
    assert not tq_field._exposed(view, 0, catalogue())  # the lone Wolf reaches places 1-2


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_laid_card_waiting_for_answers_is_said_in_words(lang: str, drawn: list[str]) -> None:
    """Laying a card may be answered (RULES.md 'Reactions'): the stack on the field says who
    lays what, never the notation ("play c12345"), and a card laid face down stays unnamed."""
    from tests.unit.test_telperinquar_engine import do, fresh, give, levels_to, main_phase

    for verb, card in (("play", "Wolf"), ("hide", "Schattenkatze")):
        d = main_phase(fresh(("schurke", "kaempfer")))
        levels_to(d, 0, 5)
        give(d, 1, "Heiltrank", "equip", charges=1)
        cid = give(d, 0, card)
        d, _ = do(d, 0, f"{verb} {cid}")
        assert d["ask"] == 1
        drawn.clear()
        tq.field_png(ENGINE.view_for(ENGINE.state_from_json(d), None), lang, names=NAMES[:2])
        lines = [text for text in drawn if text.startswith("1. ")]
        if verb == "play":
            wolf = t("tqrender.stack.play", lang, player=NAMES[0], card="Wolf")
            assert lines == [f"1. {wolf}"]
        else:
            assert lines == ["1. " + t("tqrender.stack.hide", lang, player=NAMES[0])]
            assert not [text for text in drawn if "Schattenkatze" in text or "Shadow" in text]
        assert not [text for text in drawn if f"{verb} {cid}" in text]

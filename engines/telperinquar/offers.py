"""What a seat may do: the targets of an attack, what may be laid, equipped, used or moved,
why a hand card cannot be played, and the answers to the top of the stack. Only reads."""

from __future__ import annotations

from engines.core.contract import JsonDict
from engines.telperinquar.actions import Act, act
from engines.telperinquar.cards import Card, hero_of
from engines.telperinquar.flow import level_cards
from engines.telperinquar.state import Board, Combat, Phase, hero_id, hero_seat, is_hero, seats
from engines.telperinquar.stats import (
    EQUIPMENT,
    MAX_EQUIP,
    MAX_WESEN,
    attribute,
    borne,
    card_keywords,
    card_of,
    class_ok,
    enemies,
    flies,
    hero_equip,
    is_wesen,
    keywords_of,
    may_use,
    mover,
    offensive,
    side,
    strike_step,
    target_kind,
    wesen_stat,
)
from engines.telperinquar.verbs import Bonus, Cancel


def targets(d: Board, attacker: str, rng_kind: str, seat: int) -> list[str]:
    """Enemy heroes and Wesen ``attacker`` may attack with a ``rng_kind`` attack.

    Melee: a Wesen at row position i reaches enemy Wesen at positions i-1..i+1, a hero every
    enemy Wesen; flying Wesen only by flying attackers; hidden cards never. Ranged: every
    enemy Wesen except mist-form ones. A hero is a target only when no enemy Wesen is in
    this attack's reach (RULES.md): for a Wesen's melee attack, the places i-1..i+1."""
    out: list[str] = []
    flying = not is_hero(attacker) and flies(d, attacker)
    pos = None
    if not is_hero(attacker):
        pos = d.players[seat].row.index(attacker)
    for enemy in enemies(d, seat):
        hits: list[str] = []
        for index, cid in enumerate(d.players[enemy].row):
            if d.cards[cid].hidden or not is_wesen(d, cid):
                continue
            if not all(k.targetable(rng_kind, flying) for k in keywords_of(d, cid)):
                continue
            if rng_kind == "melee" and pos is not None and abs(index - pos) > 1:
                continue
            hits.append(cid)
        out += hits
        # "Falls außer dem Helden kein weiteres Ziel in Nahkampfreichweite eines Angriffes
        # ist, kann der Held als Ziel gewählt werden": only what this attack could hit
        # protects the hero (a Wesen out of a Wesen's melee reach does not)
        if not hits:
            out.append(hero_id(enemy))
    return out


def friends(d: Board, seat: int) -> list[str]:
    out = []
    for s, p in enumerate(seats(d)):
        if side(d, s) == side(d, seat) and not p.out:
            out.append(hero_id(s))
            out += [c for c in p.row if is_wesen(d, c) and not d.cards[c].hidden]
    return out


def visible_row(d: Board, seat: int) -> list[str]:
    return [c for c in d.players[seat].row if not d.cards[c].hidden]


def usable(d: Board, seat: int, cid: str) -> bool:
    card = card_of(d, cid)
    info = d.cards[cid]
    if info.inaktion:
        return False
    charges = card.charges if info.charges is None else info.charges
    if card.charges and charges <= 0:
        return False
    return d.players[seat].actions >= card.use and may_use(d, seat, card)


def equip_problem(d: Board, seat: int, card: Card, moving: str = "") -> str:
    """Why the hero may not put on ``card`` (a reason code), or "" when it may (``moving``:
    a piece already in play that changes its bearer, so it counts neither towards the 5 nor
    as worn)."""
    p = d.players[seat]
    if len([c for c in p.equip if c != moving]) >= MAX_EQUIP:
        return "equip_full"
    worn = [card_of(d, c) for c in hero_equip(d, seat) if c != moving]
    heroes_ = [hero_of(c) for c in p.classes]
    weapons = [c for c in worn if c.type == "weapon"]
    shields = [c for c in worn if c.type == "shield"]
    large = any(w.size == "g" for w in weapons)
    if card.type == "weapon":
        if not any(card.size in h.weapons for h in heroes_):
            return "weapon_size"
        if not weapons and not shields:
            return ""
        if shields and not weapons:  # the shield is the second piece ("Die Ausrüstung des Helden")
            return "shield_beside_large" if card.size == "g" else ""
        if shields or len(weapons) >= 2 or card.size == "g" or large:
            return "hands_full"
        return "" if any("weapon" in h.second for h in heroes_) else "no_second_weapon"
    if card.type == "shield":
        if shields:
            return "shield_twice"
        if large:
            return "shield_beside_large"
        if len(weapons) >= 2:
            return "hands_full"
        return "" if any("shield" in h.second for h in heroes_) else "no_shield"
    if card.type == "armour":
        if any(c.type == "armour" for c in worn):
            return "armour_twice"
        return "" if any(card.weight in h.armour for h in heroes_) else "armour_weight"
    return ""


def why_not(d: Board, seat: int, cid: str) -> JsonDict:
    """Why a hand card cannot be played now (``{"key": code, ...}``), for the player's own
    prompt; {} when nothing speaks against it (or it is not the seat's main phase)."""
    p = d.players[seat]
    if d.over or mover(d) != seat or d.phase != Phase.MAIN or d.ask is not None:
        return {}
    if d.cards[cid].level:
        return {}  # a level card says itself when it is laid (the Einstiegsphase)
    card = card_of(d, cid)
    if not class_ok(d, seat, card):
        return {"key": "class", "classes": list(card.classes)}
    for attr, need in card.requires.items():
        have = attribute(d, seat, attr, card)
        if have < need:
            return {"key": "attribute", "attr": attr, "need": need, "have": have}
    if p.actions < card.play:
        return {"key": "actions", "need": card.play, "have": p.actions}
    if card.type in EQUIPMENT:
        if bearers(d, seat, cid, moving=False):
            return {}
        problem = equip_problem(d, seat, card)
        return {"key": problem} if problem else {}
    if card.type in ("wesen", "trap") and len(p.row) >= MAX_WESEN:
        return {"key": "row_full"}
    return {}


def wesen_equip_ok(d: Board, seat: int, card: Card, wesen: str, moving: str = "") -> bool:
    """Whether a Wesen of ``seat`` may carry ``card``: only a Wesen with the ability
    Ausrüstbar, only free (classless) equipment, at most one piece of each kind (no shield
    beside a large weapon), the card's requirements met by the Wesen's attributes (glossary
    "Attribute der Wesen"); the 5 pieces of the player count all bearers (RULES.md)."""
    p = d.players[seat]
    if wesen not in p.row or not is_wesen(d, wesen) or d.cards[wesen].hidden:
        return False
    if not any(k.may_carry for k in keywords_of(d, wesen)) or card.classes:
        return False
    if len([c for c in p.equip if c != moving]) >= MAX_EQUIP:
        return False
    if any(wesen_stat(d, wesen, a) < v for a, v in card.requires.items()):
        return False
    carried = [card_of(d, c) for c in borne(d, wesen) if c != moving]
    if any(c.type == card.type for c in carried):
        return False
    large = [c for c in [*carried, card] if c.type == "weapon" and c.size == "g"]
    return not (large and any(c.type == "shield" for c in [*carried, card]))


def bearers(d: Board, seat: int, cid: str, moving: bool) -> list[str]:
    """Where ``cid`` may be put on now: ``h<seat>`` (the hero) and Wesen ids (for ``arm``
    from the hand only Wesen; for ``move`` every other bearer). Costs: the play cost."""
    if d.cards[cid].level:
        return []
    card = card_of(d, cid)
    p = d.players[seat]
    if card.type not in EQUIPMENT:
        return []
    if p.actions < card.play:
        return []
    now = (d.cards[cid].bearer or hero_id(seat)) if moving else ""
    out = []
    hero_ok = may_use(d, seat, card) and not equip_problem(d, seat, card, moving=cid)
    if moving and now != hero_id(seat) and hero_ok:
        out.append(hero_id(seat))
    for wesen in p.row:
        if wesen != now and wesen_equip_ok(d, seat, card, wesen, cid if moving else ""):
            out.append(wesen)
    return out


def can_play(d: Board, seat: int, cid: str) -> bool:
    if d.cards[cid].level:
        return False
    card = card_of(d, cid)
    p = d.players[seat]
    if p.actions < card.play or not may_use(d, seat, card):
        return False
    if card.type in EQUIPMENT:
        return not equip_problem(d, seat, card)
    if card.type in ("wesen", "trap"):
        return len(p.row) < MAX_WESEN
    return True


def offence_open(d: Board) -> bool:
    return bool(d.round > 1 and d.combat != Combat.CLOSED)


def uses(d: Board, seat: int) -> list[Act]:
    """The main-phase uses of cards in play (attacks with their targets, other effects)."""
    p = d.players[seat]
    out: list[Act] = []
    for cid in [*hero_equip(d, seat), *p.field, *p.row]:
        card = card_of(d, cid)
        info = d.cards[cid]
        if card.type == "trap" or (info.hidden and card.type != "wesen"):
            continue  # a hidden Wesen is turned up by its attack (Verstecken)
        free = card.type == "wesen" and info.free > 0
        if card.type == "wesen" and info.attacked and not free:
            continue  # a Wesen attacks once per turn (Beidhändigkeit: twice for one payment)
        if not free and not usable(d, seat, cid):
            continue
        if free and info.inaktion:
            continue
        strike = strike_step(card)
        if strike is not None:
            if not offence_open(d):
                continue
            attacker = cid if card.type == "wesen" else hero_id(seat)
            for target in targets(d, attacker, strike.range, seat):
                out.append(act("use", cid, target))
            continue
        if any(isinstance(s, Cancel) for s in card.effects) or card.type in (
            "armour",
            "shield",
            "artifact",
        ):
            continue
        if all(isinstance(s, Bonus) for s in card.effects):
            continue
        harmful = offensive(card)
        if harmful and not offence_open(d):
            continue
        need = target_kind(card)
        if need == "enemy":
            for target in targets(d, hero_id(seat), "ranged", seat):
                out.append(act("use", cid, target))
        elif need == "enemy_hero":
            for enemy in enemies(d, seat):
                out.append(act("use", cid, hero_id(enemy)))
        elif need == "friend":
            for target in friends(d, seat):
                out.append(act("use", cid, target))
        else:
            out.append(act("use", cid))
    # attacks with two weapons (melee only)
    weapons = [
        c
        for c in hero_equip(d, seat)
        if card_of(d, c).type == "weapon" and card_of(d, c).attack == "melee"
    ]
    if len(weapons) == 2 and offence_open(d):
        a, b = weapons
        ca, cb = card_of(d, a), card_of(d, b)
        pool = d.players[seat].actions
        if all(usable(d, seat, w) for w in weapons) and pool >= ca.use + cb.use:
            for target in targets(d, hero_id(seat), "melee", seat):
                out.append(act("dual", a, b, target))
    return out


def flights(d: Board, seat: int) -> list[Act]:
    """Two flying Wesen of the mover swap places, once per turn, outside the Kampfphase
    (Fliegen: "einmalig pro Zug vor oder nach der Kampfphase")."""
    if d.flew:
        return []
    row = d.players[seat].row
    flying = [
        i for i, c in enumerate(row) if not d.cards[c].hidden and is_wesen(d, c) and flies(d, c)
    ]
    return [act("fly", str(i), str(j)) for i in flying for j in flying if i < j]


def reactions(d: Board, seat: int) -> list[Act]:
    """What ``seat`` may answer the top of the stack with (empty: not asked)."""
    if d.round <= 1 or d.players[seat].out:
        return []
    top = d.stack[-1]
    p = d.players[seat]
    out: list[Act] = []
    at_me = top.target == hero_id(seat)
    attack = top.range in ("melee", "ranged")
    for cid in [*hero_equip(d, seat), *p.field]:
        card = card_of(d, cid)
        if not card.defensive or not usable(d, seat, cid):
            continue
        cancel = next((s for s in card.effects if isinstance(s, Cancel)), None)
        if cancel is not None:
            what = cancel.what
            parries = what != "spell" and at_me and what in ("any", top.range or None)
            if (what == "spell" and top.spell) or parries:
                out.append(act("react", cid))
            continue
        answers = card.answers
        if answers == "lay" and top.kind != "lay":
            continue
        if answers == "attack" and not attack:
            continue
        if strike_step(card) is None and target_kind(card) == "self":
            out.append(act("react", cid))
    if at_me and attack:
        # the hidden card was no target, so the hero was: it may be turned up (a trap
        # springs; a hidden Wesen takes the attack, at range unless it has Nebelgestalt)
        for cid in p.row:
            kinds = keywords_of(d, cid)
            if d.cards[cid].hidden:
                if not is_wesen(d, cid) or all(k.turned_up_by(top.range) for k in kinds):
                    out.append(act("reveal", cid))
            elif any(k.intercepts(top.range) for k in kinds):
                out.append(act("intercept", cid))
    # 2 vs 2: a team-mate's Wesen may take an attack meant for an unprotected hero
    if is_hero(top.target) and top.target != hero_id(seat):
        victim = hero_seat(top.target)
        if side(d, victim) == side(d, seat) and victim != seat:
            for cid in visible_row(d, seat):
                if is_wesen(d, cid) and attack:
                    out.append(act("intercept", cid))
    if out:
        out.insert(0, act("pass"))
    return out


def legal(d: Board, player: int) -> list[Act]:
    """Every action of ``player`` now (the single source of legality)."""
    if d.over:
        return []
    if d.ask is not None:
        return reactions(d, player) if player == d.ask else []
    if player != mover(d):
        return []
    p = d.players[player]
    if d.phase == Phase.ENTRY:
        # one offer per class: identical level cards are one choice
        mine = level_cards(d, player)
        first = {d.cards[c].level: c for c in reversed(mine)}
        return [act("go"), *(act("level", c) for c in mine if c in first.values())]
    if d.phase == Phase.POSITION:
        n = len(p.row)
        swaps = [act("swap", str(i), str(j)) for i in range(n) for j in range(i + 1, n)]
        return [act("end"), *swaps]
    acts = [act("next")]
    for cid in p.hand:
        if can_play(d, player, cid):
            card = card_of(d, cid)
            acts.append(act("play", cid))
            if card.type == "trap" or any(k.may_hide for k in card_keywords(card)):
                acts.append(act("hide", cid))
    for cid in p.hand:
        acts += [act("arm", cid, w) for w in bearers(d, player, cid, moving=False)]
    acts += uses(d, player)
    for cid in p.equip:
        if not any(t.target == cid for t in d.stack):
            acts.append(act("take", cid))
            acts += [act("move", cid, b) for b in bearers(d, player, cid, moving=True)]
    acts += flights(d, player)
    return acts

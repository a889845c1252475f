"""The W6 rules engine: character sheets and the combat tracker (pure, deterministic).

Sheets: ``Sheet`` (+ ``Weapon``, ``Armour``, ``Shield``, ``Mount``), ``derive``,
``sheet_to_json``/``sheet_from_json``/``sheet_from_text``, ``edit_sheet``/``set_field``,
``npc_sheet``/``npc_from_text``. Combat: ``new_combat``, ``fighter_from_sheet``,
``join_action``, ``refresh_action``, ``make``/``parse_action``, ``apply``, ``to_act``,
``status_view``, ``verbs_for``, ``technique_options``, ``probe_required``, ``usable_weapons``,
``state_to_json``/``state_from_json``.
"""

from engines.w6.actions import CombatAction, make, parse_action
from engines.w6.attacks import defence_required, probe_required
from engines.w6.combat import (
    apply,
    can_undo,
    replay,
    state_from_json,
    state_to_json,
    undo,
)
from engines.w6.damage import damage_breakdown
from engines.w6.gear import usable_weapons
from engines.w6.sheet import Armour, Bonus, Derived, Mount, Sheet, Shield, Weapon, derive
from engines.w6.sheet_io import (
    edit_many,
    edit_sheet,
    npc_from_text,
    npc_sheet,
    set_field,
    sheet_from_json,
    sheet_from_text,
    sheet_to_json,
    sheet_to_text,
)
from engines.w6.state import (
    CombatState,
    Fighter,
    Settings,
    fighter_from_sheet,
    new_combat,
)
from engines.w6.steps import step
from engines.w6.turns import may_act_now, to_act
from engines.w6.view import (
    join_action,
    refresh_action,
    status_view,
    technique_options,
    users_to_act,
    verbs_for,
)

__all__ = [
    "Armour",
    "Bonus",
    "CombatAction",
    "CombatState",
    "Derived",
    "Fighter",
    "Mount",
    "Settings",
    "Sheet",
    "Shield",
    "Weapon",
    "apply",
    "can_undo",
    "damage_breakdown",
    "defence_required",
    "derive",
    "edit_many",
    "edit_sheet",
    "fighter_from_sheet",
    "join_action",
    "make",
    "may_act_now",
    "new_combat",
    "npc_from_text",
    "npc_sheet",
    "parse_action",
    "probe_required",
    "refresh_action",
    "replay",
    "set_field",
    "sheet_from_json",
    "sheet_from_text",
    "sheet_to_json",
    "sheet_to_text",
    "state_from_json",
    "state_to_json",
    "status_view",
    "step",
    "technique_options",
    "to_act",
    "undo",
    "usable_weapons",
    "users_to_act",
    "verbs_for",
]

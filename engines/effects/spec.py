"""A game's effect language: verbs with declared parameters, selector and condition keys.

Validation derives from the declarations: an unknown verb or key, a missing required
parameter, a value of the wrong type or outside its choices is reported with a path.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# A parameter type: "int", "str", "bool", "value" (int or value expression), "dice" (a dice
# selector), "players" (a player selector), "cond" (a condition), "list" (list of str/int).
TYPES = ("int", "str", "bool", "value", "dice", "players", "cond", "list", "any")
COMPARISONS = ("eq", "ne", "gt", "ge", "lt", "le")


@dataclass(frozen=True, slots=True)
class Param:
    type: str
    required: bool = False
    default: Any = None
    choices: tuple[Any, ...] = ()
    doc: str = ""


@dataclass(frozen=True, slots=True)
class Verb:
    name: str
    params: Mapping[str, Param] = field(default_factory=dict)
    doc: str = ""


@dataclass(frozen=True)
class Language:
    """What a game's steps may say. ``dice_keys``/``player_values``/``condition_keys`` list
    the selector and condition vocabulary; ``value_keys`` the value expressions."""

    verbs: Mapping[str, Verb]
    dice_keys: Mapping[str, str]  # key -> type ("str", "int", "bool", "list", "any")
    player_values: tuple[str, ...]
    condition_keys: Mapping[str, str]
    value_keys: Mapping[str, str]
    step_keys: tuple[str, ...] = ("text_de", "text_en", "do", "if", "as", "parts", "joined")
    # the game's own checks of one instruction; each message starts with its key ("count: …")
    extra_check: Callable[[Mapping[str, Any]], list[str]] | None = None
    # parameters of a whole sentence (repeat it, run it for each die, …), declared like a verb's
    step_params: Mapping[str, Param] = field(default_factory=dict)
    # a sentence written by a keyword becomes the keyword's sentence before it is checked
    expand_step: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None

    def check_step(self, step: Mapping[str, Any], path: str) -> list[str]:
        errors: list[str] = []
        if "parts" in step:
            if "do" in step:
                errors.append(f"{path}: a step has either 'do' or 'parts', not both")
            parts = step["parts"]
            if not isinstance(parts, list) or not parts:
                return [*errors, f"{path}.parts: a non-empty list of parts"]
            for key in step:
                if key in self.step_params:
                    errors += self._check_value(self.step_params[key], step[key], f"{path}.{key}")
                elif key not in ("text_de", "text_en", "if", "parts", "joined"):
                    errors.append(f"{path}: unknown key {key!r} beside 'parts'")
            if "if" in step:
                errors += self.check_condition(step["if"], f"{path}.if")
            for index, part in enumerate(parts):
                if not isinstance(part, dict):
                    errors.append(f"{path}.parts[{index}]: a table")
                    continue
                errors += self._check_verb(part, f"{path}.parts[{index}]", in_part=True)
            return errors
        return self._check_verb(step, path, in_part=False)

    def _check_verb(self, step: Mapping[str, Any], path: str, *, in_part: bool) -> list[str]:
        name = step.get("do")
        if not isinstance(name, str):
            return [f"{path}: missing 'do' (the verb)"]
        verb = self.verbs.get(name)
        if verb is None:
            near = difflib.get_close_matches(name, list(self.verbs), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            return [f"{path}: unknown verb {name!r}{hint}"]
        errors: list[str] = []
        common = ("do", "if", "as") if in_part else self.step_keys
        for key, value in step.items():
            if key in common:
                continue
            if not in_part and key in self.step_params:
                errors += self._check_value(self.step_params[key], value, f"{path}.{key}")
                continue
            param = verb.params.get(key)
            if param is None:
                errors.append(f"{path}: verb {name!r} has no parameter {key!r}")
                continue
            errors += self._check_value(param, value, f"{path}.{key}")
        for key, param in verb.params.items():
            if param.required and key not in step:
                errors.append(f"{path}: verb {name!r} needs {key!r}")
        if "if" in step:
            errors += self.check_condition(step["if"], f"{path}.if")
        if self.extra_check is not None and not errors:
            errors += [f"{path}.{message}" for message in self.extra_check(step)]
        if "as" in step and not isinstance(step["as"], str):
            errors.append(f"{path}.as: a name")
        return errors

    def _check_value(self, param: Param, value: Any, path: str) -> list[str]:
        kind = param.type
        if param.choices and not isinstance(value, dict) and value not in param.choices:
            return [f"{path}: {value!r} is not one of {list(param.choices)}"]
        if kind == "int" and not (isinstance(value, int) and not isinstance(value, bool)):
            return [f"{path}: an integer"]
        if kind == "str" and not isinstance(value, str):
            return [f"{path}: a string"]
        if kind == "bool" and not isinstance(value, bool):
            return [f"{path}: true or false"]
        if kind == "list" and not isinstance(value, list | str | int):
            return [f"{path}: a list"]
        if kind == "value":
            return self.check_value_expr(value, path)
        if kind == "dice":
            return self.check_dice(value, path)
        if kind == "players":
            return self.check_players(value, path)
        if kind == "cond":
            return self.check_condition(value, path)
        return []

    def check_value_expr(self, value: Any, path: str) -> list[str]:
        if isinstance(value, int) and not isinstance(value, bool):
            return []
        if isinstance(value, dict) and len(value) == 1:
            key, arg = next(iter(value.items()))
            kind = self.value_keys.get(key)
            if kind is None:
                return [f"{path}: unknown value {key!r} (known: {sorted(self.value_keys)})"]
            if kind == "dice":
                return self.check_dice(arg, f"{path}.{key}")
            if kind == "players":
                return self.check_players(arg, f"{path}.{key}")
            if kind == "value_list":
                if not isinstance(arg, list) or not arg:
                    return [f"{path}.{key}: a list of values"]
                return [e for i, v in enumerate(arg)
                        for e in self.check_value_expr(v, f"{path}.{key}[{i}]")]  # fmt: skip
            return []
        return [f"{path}: an integer or a one-key value table"]

    def check_dice(self, value: Any, path: str) -> list[str]:
        if isinstance(value, str):
            return (
                []
                if value in self.dice_keys.get("@names", "").split()
                else [f"{path}: unknown dice name {value!r}"]
            )
        if not isinstance(value, dict):
            return [f"{path}: a dice selector table"]
        errors = []
        for key, arg in value.items():
            kind = self.dice_keys.get(key)
            if kind is None:
                errors.append(f"{path}: unknown selector key {key!r}")
            elif kind == "dice_list":
                if not isinstance(arg, list):
                    errors.append(f"{path}.{key}: a list of selectors")
                else:
                    for i, sub in enumerate(arg):
                        errors += self.check_dice(sub, f"{path}.{key}[{i}]")
            elif kind.startswith("enum:"):
                allowed = kind[5:].split("|")
                values = arg if isinstance(arg, list) else [arg]
                bad = [v for v in values if v not in allowed]
                if bad:
                    errors.append(f"{path}.{key}: {bad[0]!r} is not one of {allowed}")
            elif kind == "int" and not isinstance(arg, int | list):
                errors.append(f"{path}.{key}: an integer or list of integers")
            elif kind == "bool" and not isinstance(arg, bool):
                errors.append(f"{path}.{key}: true or false")
            elif kind == "str" and not isinstance(arg, str):
                errors.append(f"{path}.{key}: a string")
        return errors

    def check_players(self, value: Any, path: str) -> list[str]:
        if value in self.player_values:
            return []
        return [f"{path}: {value!r} is not one of {list(self.player_values)}"]

    def check_condition(self, value: Any, path: str) -> list[str]:
        if not isinstance(value, dict) or len(value) < 1:
            return [f"{path}: a condition table"]
        errors = []
        for key, arg in value.items():
            kind = self.condition_keys.get(key)
            if kind is None:
                errors.append(f"{path}: unknown condition {key!r}")
            elif kind == "dice":
                errors += self.check_dice(arg, f"{path}.{key}")
            elif kind == "cond":
                errors += self.check_condition(arg, f"{path}.{key}")
            elif kind == "cond_list":
                if not isinstance(arg, list):
                    errors.append(f"{path}.{key}: a list of conditions")
                else:
                    for i, sub in enumerate(arg):
                        errors += self.check_condition(sub, f"{path}.{key}[{i}]")
            elif kind == "int" and not isinstance(arg, int):
                errors.append(f"{path}.{key}: an integer")
            elif kind == "players":
                errors += self.check_players(arg, f"{path}.{key}")
            elif kind == "compare":
                errors += self._check_compare(arg, f"{path}.{key}")
        return errors

    def _check_compare(self, value: Any, path: str) -> list[str]:
        """``{left = value, op = "eq|ne|gt|ge|lt|le", right = value}`` ("so viele wie",
        "mehr als", "weniger als")."""
        if not isinstance(value, dict) or set(value) != {"left", "op", "right"}:
            return [f"{path}: a table of left, op and right"]
        errors = []
        if value["op"] not in COMPARISONS:
            errors.append(f"{path}.op: {value['op']!r} is not one of {list(COMPARISONS)}")
        errors += self.check_value_expr(value["left"], f"{path}.left")
        errors += self.check_value_expr(value["right"], f"{path}.right")
        return errors

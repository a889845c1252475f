"""The W6 sheet as an HTML form and back: every field of the sheet (``engines/w6/sheet_io.py``
is the one definition), read from the submitted form into the same JSON document an import is,
so the engine's ``sheet_from_json`` validates it with the same messages as the bot, naming the
field (``waffen.Axt.schaden``).

The form reads only the field names it writes; a value that is no number stays text so the
engine says which field is wrong; an empty field is left out (the sheet's default); a list
entry without a name is left out (clearing a name deletes the entry).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.web.html import attr, esc, options
from engines.w6.sheet import FIXABLE, PM_REQUIRED
from engines.w6.sheet_io import (
    ARMOUR_KEYS,
    INT_FIELDS,
    MAX_ENTRIES,
    MOUNT_KEYS,
    SCHEMA,
    SHIELD_KEYS,
    VERSION,
    WEAPON_KEYS,
)
from engines.w6.tables import zones

Form = Mapping[str, str]
MAPS = ("pm", "eigenschaften", "fertigkeiten")
ROWS = ("waffen", "ruestung")
EXTRA_ROWS = 2  # empty rows offered for new entries
MAX_ROW = MAX_ENTRIES + 16  # a higher index in a form is no row of ours (ignored)
TEXT_KEYS = {"name", "rasse", "notizen", "fertigkeit", "schaden", "zusatz", "zone", "stabilitaet"}
_NUMBER = re.compile(r"^[+-]?\d{1,9}$")
_ROW = re.compile(r"^(pm|eigenschaften|fertigkeiten|waffen|ruestung)\.(\d{1,3})\.([a-z_]+)$")


def _value(key: str, text: str) -> Any:
    """The JSON value of a form field: a number where the sheet has one (text that is none
    stays text, for the engine's message), a list for ``techniken``, a bool for ``fernkampf``."""
    if key in TEXT_KEYS:
        return None if key == "stabilitaet" and not text.strip() else text
    if key == "techniken":
        return [part.strip() for part in text.split(",") if part.strip()]
    if key == "fernkampf":
        return text == "on"
    stripped = text.strip()
    return int(stripped) if _NUMBER.match(stripped) else text


def _rows(form: Form) -> dict[str, dict[int, dict[str, str]]]:
    found: dict[str, dict[int, dict[str, str]]] = {name: {} for name in (*MAPS, *ROWS)}
    for field, text in form.items():
        match = _ROW.match(field)
        if match is None or int(match.group(2)) >= MAX_ROW:
            continue
        head, index, key = match.group(1), int(match.group(2)), match.group(3)
        found[head].setdefault(index, {})[key] = text
    return found


def _entry(keys: tuple[str, ...], row: Mapping[str, str]) -> dict[str, Any] | None:
    name = row.get("name", "").strip()
    if not name:
        return None
    entry: dict[str, Any] = {"name": name}
    for key in keys:
        if key == "name":
            continue
        text = row.get(key, "")
        if key == "fernkampf":
            entry[key] = _value(key, text)
        elif text.strip():
            value = _value(key, text)
            if value is not None:
                entry[key] = value
    return entry


def _optional(form: Form, head: str, keys: tuple[str, ...]) -> dict[str, Any] | None:
    return _entry(keys, {key: form.get(f"{head}.{key}", "") for key in keys})


def form_to_json(form: Form) -> dict[str, Any]:
    """The sheet document the form describes (not yet validated)."""
    data: dict[str, Any] = {"schema": SCHEMA, "version": VERSION}
    for key in ("name", "rasse", "notizen"):
        data[key] = form.get(key, "")
    for key in INT_FIELDS:
        text = form.get(key, "")
        if text.strip():
            data[key] = _value(key, text)
    data["handlungen"] = [
        _value("handlungen", part) for part in form.get("handlungen", "").split(",") if part.strip()
    ]
    data["be_fertigkeiten"] = [
        part.strip() for part in form.get("be_fertigkeiten", "").split(",") if part.strip()
    ]
    rows = _rows(form)
    for head in MAPS:
        pairs: dict[str, Any] = {}
        for _index, row in sorted(rows[head].items()):
            name = row.get("name", "").strip()
            if name:
                pairs[name] = _value("value", row.get("value", ""))
        data[head] = pairs
    data["fix"] = {
        key: _value(key, form.get(f"fix.{key}", ""))
        for key in FIXABLE
        if form.get(f"fix.{key}", "").strip()
    }
    for head, keys in (("waffen", WEAPON_KEYS), ("ruestung", ARMOUR_KEYS)):
        entries = (_entry(keys, row) for _index, row in sorted(rows[head].items()))
        data[head] = [entry for entry in entries if entry is not None]
    data["schild"] = _optional(form, "schild", SHIELD_KEYS)
    data["reittier"] = _optional(form, "reittier", MOUNT_KEYS)
    return data


# ----------------------------------------------------------------------------- rendering


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else ""
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)


def _label(key: str, lang: str) -> str:
    """A field's name in the reader's language (the catalog's ``web.field.*``)."""
    return t(f"web.field.{key}", lang)


def _input(name: str, value: Any, label: str, *, number: bool = False) -> str:
    size = ' class="n" inputmode="numeric"' if number else ""
    return (
        f'<label>{esc(label)} <input name="{attr(name)}" value="{attr(_text(value))}"'
        f"{size}></label>"
    )


def _fieldset(title: str, body: str) -> str:
    return f"<fieldset><legend>{esc(title)}</legend>{body}</fieldset>"


def _pairs_rows(head: str, pairs: Any, lang: str, fixed: tuple[str, ...] = ()) -> str:
    items = list(pairs.items()) if isinstance(pairs, dict) else []
    for name in fixed:
        if name not in dict(items):
            items.append((name, ""))
    rows = [*items, *[("", "")] * EXTRA_ROWS]
    cells = "".join(
        f'<tr><td><input name="{head}.{i}.name" value="{attr(name)}" '
        f'aria-label="{attr(t("web.sheet.entry_name", lang))}"></td>'
        f'<td><input name="{head}.{i}.value" value="{attr(_text(value))}" class="n" '
        f'aria-label="{attr(f"{head}.{name}")}"></td></tr>'
        for i, (name, value) in enumerate(rows)
    )
    head_row = (
        f"<tr><th>{esc(t('web.sheet.entry_name', lang))}</th>"
        f"<th>{esc(t('web.sheet.entry_value', lang))}</th></tr>"
    )
    return f"<table>{head_row}{cells}</table>"


def _entry_rows(head: str, entries: Any, keys: tuple[str, ...], lang: str) -> str:
    items = [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
    rows = [*items, *[{} for _ in range(EXTRA_ROWS)]]
    header = "".join(f"<th>{esc(_label(key, lang))}</th>" for key in keys)
    lines = []
    for i, entry in enumerate(rows):
        cells = []
        for key in keys:
            name = f"{head}.{i}.{key}"
            value = entry.get(key)
            described = f"{head}.{entry.get('name', i)}.{key}"
            label = f'aria-label="{attr(described)}"'
            if key == "fernkampf":
                checked = " checked" if value is True else ""
                cells.append(f'<td><input type="checkbox" name="{name}" {label}{checked}></td>')
            elif key == "zone":
                chosen = _text(value) or ("Torso" if entry else "")
                choices = options([("", "–"), *((z, z) for z in zones())], chosen)
                cells.append(f'<td><select name="{name}" {label}>{choices}</select></td>')
            else:
                wide = "" if key in ("name", "fertigkeit", "techniken") else ' class="n"'
                cells.append(
                    f'<td><input name="{name}" value="{attr(_text(value))}"{wide} {label}></td>'
                )
        lines.append(f"<tr>{''.join(cells)}</tr>")
    return f"<table><tr>{header}</tr>{''.join(lines)}</table>"


def _object_fields(head: str, value: Any, keys: tuple[str, ...], lang: str) -> str:
    data = value if isinstance(value, dict) else {}
    return "".join(
        _input(f"{head}.{key}", data.get(key), _label(key, lang), number=key not in TEXT_KEYS)
        for key in keys
    )


def form_fields(data: Mapping[str, Any], lang: str) -> str:
    """The editor's fieldsets for a sheet document (stored, or as submitted with a mistake)."""
    basics = _input("name", data.get("name"), _label("name", lang)) + _input(
        "rasse", data.get("rasse"), _label("rasse", lang)
    )
    values = "".join(
        _input(key, data.get(key), _label(key, lang), number=True)
        for key in INT_FIELDS
        if key not in ("be_temp", "schwelle_mod")
    )
    thresholds = (
        _input("handlungen", data.get("handlungen"), _label("handlungen", lang))
        + _input("be_temp", data.get("be_temp"), _label("be_temp", lang), number=True)
        + _input(
            "schwelle_mod", data.get("schwelle_mod"), _label("schwelle_mod", lang), number=True
        )
        + _input("be_fertigkeiten", data.get("be_fertigkeiten"), _label("be_fertigkeiten", lang))
        + f'<p class="muted">{esc(t("web.sheet.lists_hint", lang))}</p>'
    )
    fix = data.get("fix") if isinstance(data.get("fix"), dict) else {}
    fixed = "".join(
        _input(f"fix.{key}", (fix or {}).get(key), _label(key, lang), number=True)
        for key in FIXABLE
    )
    hint = f'<p class="muted">{esc(t("web.sheet.empty_rows", lang))}</p>'
    notes = (
        # a browser drops one newline right after the tag: the notes' own first one stays
        f'<textarea name="notizen" aria-label="notizen">\n{esc(_text(data.get("notizen")))}'
        "</textarea>"
    )
    return "".join(
        [
            _fieldset(t("web.sheet.basics", lang), basics),
            _fieldset(
                t("web.sheet.pm", lang), _pairs_rows("pm", data.get("pm"), lang, PM_REQUIRED)
            ),
            _fieldset(
                t("web.sheet.eigenschaften", lang),
                _pairs_rows("eigenschaften", data.get("eigenschaften"), lang),
            ),
            _fieldset(
                t("web.sheet.fertigkeiten", lang),
                _pairs_rows("fertigkeiten", data.get("fertigkeiten"), lang),
            ),
            _fieldset(t("web.sheet.values", lang), values),
            _fieldset(t("web.sheet.thresholds", lang), thresholds),
            _fieldset(t("web.sheet.fix", lang), fixed),
            _fieldset(
                t("web.sheet.waffen", lang),
                _entry_rows("waffen", data.get("waffen"), WEAPON_KEYS, lang) + hint,
            ),
            _fieldset(
                t("web.sheet.ruestung", lang),
                _entry_rows("ruestung", data.get("ruestung"), ARMOUR_KEYS, lang) + hint,
            ),
            _fieldset(
                t("web.sheet.schild", lang),
                _object_fields("schild", data.get("schild"), SHIELD_KEYS, lang),
            ),
            _fieldset(
                t("web.sheet.reittier", lang),
                _object_fields("reittier", data.get("reittier"), MOUNT_KEYS, lang),
            ),
            _fieldset(t("web.sheet.notizen", lang), notes),
        ]
    )


def mark_invalid(fields_html: str, field: object) -> str:
    """The form with the input the engine's message names (``field``: ``lp``, ``pm.K``,
    ``waffen.Axt.schaden``) marked invalid and focused, so the mistake is found at once."""
    if not isinstance(field, str) or not field:
        return fields_html
    mark = ' aria-invalid="true" autofocus'
    for attribute in (f'aria-label="{attr(field)}"', f'name="{attr(field)}"'):
        if attribute in fields_html:
            return fields_html.replace(attribute, attribute + mark, 1)
    return fields_html

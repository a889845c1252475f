"""Where the content lives: ``data/`` (texts, rules tables, game content) and ``assets/``
(fonts, images).

From a checkout (also an editable install) they are the folders beside the packages; a wheel or
a plain ``pip install .`` installs them under ``<prefix>/share/spielleiter`` (pyproject's
data-files), so the bot finds them from any working directory.
"""

from __future__ import annotations

import site
import sys
import sysconfig
from functools import cache
from pathlib import Path

_MARKER = Path("data") / "i18n" / "core.json"


def _candidates() -> list[Path]:
    installed = Path("share") / "spielleiter"
    return [
        Path(__file__).resolve().parents[2],
        Path(sysconfig.get_paths()["data"]) / installed,
        Path(sys.prefix) / installed,
        Path(site.getuserbase()) / installed,
    ]


@cache
def content_root() -> Path:
    """The folder holding ``data/`` and ``assets/``. Raises FileNotFoundError (naming the
    places looked at) when the installation is incomplete."""
    for root in _candidates():
        if (root / _MARKER).is_file():
            return root
    looked = ", ".join(str(root) for root in _candidates())
    raise FileNotFoundError(f"Spielleiter's data/ and assets/ were not found (looked in {looked})")


def data_dir(*parts: str) -> Path:
    """A folder (or file) under ``data/``."""
    return content_root().joinpath("data", *parts)


def assets_dir(*parts: str) -> Path:
    """A folder (or file) under ``assets/``."""
    return content_root().joinpath("assets", *parts)

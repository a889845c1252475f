"""The installed package finds its content: every file under data/ and assets/ is installed by
pyproject's data-files, and the content locator falls back from the checkout to the install."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engines.core import content

ROOT = Path(__file__).resolve().parents[2]


def _content_files() -> set[str]:
    return {
        str(path.relative_to(ROOT))
        for folder in ("data", "assets")
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_every_content_file_is_installed_with_the_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data_files: dict[str, list[str]] = config["tool"]["setuptools"]["data-files"]
    installed: set[str] = set()
    for target, patterns in data_files.items():
        for pattern in patterns:
            for path in ROOT.glob(pattern):
                source = str(path.relative_to(ROOT))
                assert target == f"share/spielleiter/{path.parent.relative_to(ROOT)}", source
                installed.add(source)
    missing = sorted(_content_files() - installed)
    assert not missing, f"add these to [tool.setuptools.data-files] in pyproject.toml: {missing}"


def test_the_locator_prefers_the_checkout_then_an_installed_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert content.content_root() == ROOT
    installed = tmp_path / "prefix" / "share" / "spielleiter"
    (installed / "data" / "i18n").mkdir(parents=True)
    (installed / "data" / "i18n" / "core.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(content, "_candidates", lambda: [tmp_path / "checkout", installed])
    content.content_root.cache_clear()
    try:
        assert content.data_dir("i18n") == installed / "data" / "i18n"
        assert content.assets_dir("fonts") == installed / "assets" / "fonts"
        monkeypatch.setattr(content, "_candidates", lambda: [tmp_path / "nowhere"])
        content.content_root.cache_clear()
        with pytest.raises(FileNotFoundError, match="nowhere"):
            content.content_root()
    finally:
        content.content_root.cache_clear()

"""A real browser for the web companion: Debian's Chromium driven by Playwright (``playwright
install`` cannot download browsers here; ``.ci/run`` installs both). Without them the tests
are skipped with the reason, except under ``CI=true``, where that fails the run."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("SPIELLEITER_CHROMIUM", "/usr/bin/chromium"))


def _missing() -> str | None:
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install playwright)"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run under CI: {reason}")
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        launched = await driver.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox"]
        )
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def page(browser: Any) -> AsyncIterator[Any]:
    context = await browser.new_context()
    opened = await context.new_page()
    try:
        yield opened
    finally:
        await context.close()

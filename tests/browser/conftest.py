"""Playwright in headless Chromium against the live test server.

Debian's /usr/bin/chromium is used where present, Playwright's own browser
elsewhere. Locally a machine with neither skips these tests; in CI
(``CI=true``) a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the Django ORM calls
# the tests make between page actions are ordinary synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SYSTEM_CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _playwright_has_browser() -> bool:
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            return Path(p.chromium.executable_path).exists()
    except Exception:
        return False


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = {
        **browser_type_launch_args,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }
    if SYSTEM_CHROMIUM:
        args["executable_path"] = SYSTEM_CHROMIUM
    elif not _playwright_has_browser():
        if os.environ.get("CI"):
            pytest.fail("no Chromium for the browser tests: apt-get install chromium")
        pytest.skip("no Chromium: apt-get install chromium, or playwright install chromium")
    return args


@pytest.fixture
def screenshot(page, request):
    """Save a full-page screenshot under test-artifacts/ (kept by CI)."""

    def take(name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take

"""The project's promises about itself: CI runs the README's command, migrations are complete."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _readme_block(heading: str) -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split(f"## {heading}", 1)[1]
    return re.search(r"```sh\n(.+?)\n```", section, re.S).group(1).strip()


def test_ci_runs_the_readme_test_command_word_for_word():
    command = _readme_block("Run the tests")
    assert "pytest" in command
    assert command in (ROOT / ".ci" / "run").read_text()


def test_the_readme_site_command_installs_migrates_and_runs_the_server():
    command = _readme_block("Run the site")
    assert "pip install -e ." in command
    assert "manage.py migrate" in command and command.endswith("manage.py runserver")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _request(port: int, head: str) -> str:
    """Send one raw HTTP request and return the response's head."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    return data.split(b"\r\n\r\n")[0].decode("latin-1")


def test_the_readme_site_command_serves_pages_and_websockets_with_no_other_service(tmp_path):
    # The README's last two steps, as typed, on an empty database file, with no
    # PostgreSQL or Redis in the environment: runserver must be Daphne's (ASGI),
    # or the WebSocket handshake below gets a plain HTTP answer.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env["SQLITE_PATH"] = str(tmp_path / "site.sqlite3")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=180)
    port = _free_port()
    server = subprocess.Popen(
        [*manage, "runserver", str(port), "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stdout.read()
            try:
                home = _request(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                break
            except OSError:
                assert time.monotonic() < deadline, "runserver never answered"
                time.sleep(0.2)
        assert home.startswith("HTTP/1.1 200")
        handshake = _request(
            port,
            "GET /ws/rooms/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            f"Origin: http://127.0.0.1:{port}\r\n\r\n",
        )
        assert handshake.startswith("HTTP/1.1 101"), handshake
        assert "Server: daphne" in handshake
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.parametrize("ci", [True, False])
def test_a_machine_without_chromium_fails_the_browser_tests_in_ci_and_skips_them_elsewhere(
    tmp_path, ci
):
    # No chromium on PATH and an empty Playwright browser folder: a machine with
    # neither browser.  The real home-page browser test runs in a child pytest.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"CI", "DATABASE_URL", "REDIS_URL", "PYTEST_XDIST_WORKER"}
    }
    env["PATH"] = str(Path(sys.executable).parent)
    env["PLAYWRIGHT_BROWSERS_PATH"] = str(tmp_path / "no-browsers")
    if ci:
        env["CI"] = "true"
    test = "tests/browser/test_home.py::test_home_page_navigation_reaches_every_section"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", test],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    if ci:
        assert result.returncode == 1, output
        assert "no Chromium for the browser tests" in output
    else:
        assert result.returncode == 0, output
        assert "1 skipped" in output


def test_every_model_change_has_a_migration(tmp_path):
    # A throw-away SQLite file: the check reads migration history from a database.
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["SQLITE_PATH"] = str(tmp_path / "check.sqlite3")
    result = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_deploy_guide_names_only_uvicorn_options_that_exist():
    # docs/DEPLOY.md tells operators which timeouts and limits to set in front of and on
    # uvicorn (issue 23): every option it names must be one uvicorn's command line has.
    from uvicorn.main import main as uvicorn_cli

    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    section = text[text.index("## The proxy in front of uvicorn") :]
    section = section[: section.index("\n## ", 1)]
    named = set(re.findall(r"`(--[a-z0-9-]+)", section))
    known = {opt for param in uvicorn_cli.params for opt in param.opts}
    assert {"--timeout-keep-alive", "--limit-concurrency"} <= named
    assert named <= known, named - known
    for directive in ("client_header_timeout", "client_body_timeout", "proxy_read_timeout"):
        assert directive in section

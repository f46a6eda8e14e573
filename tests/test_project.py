"""The project's promises about itself: CI runs the README's command, migrations are complete."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

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

"""The pure core stays pure: rules and engine import nothing from Django."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "dotsboxes"
PURE_PACKAGES = ["rules", "engine"]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_packages_import_nothing_from_django_or_the_web_apps(package):
    files = sorted((ROOT / package).rglob("*.py"))
    if package == "rules":
        assert files, "the rules core must exist"
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert top not in {"django", "channels", "daphne"}, f"{path} imports {name}"
            assert not name.startswith(("dotsboxes.games", "dotsboxes.rooms", "dotsboxes.guide")), (
                f"{path} imports {name}"
            )


def test_importing_every_pure_module_loads_no_django():
    # The static check above misses an import hidden behind a third-party module
    # or done by name at run time: import the whole core and look at what loaded.
    code = """
import importlib, json, pkgutil, sys
import dotsboxes.rules, dotsboxes.engine
for package in (dotsboxes.rules, dotsboxes.engine):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.name != "dotsboxes.engine.__main__":
            importlib.import_module(info.name)
loaded = sorted(sys.modules)
print(json.dumps(loaded))
"""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert "dotsboxes.rules.board" in loaded and "dotsboxes.engine.solver" in loaded
    web = [m for m in loaded if m.split(".")[0] in {"django", "channels", "daphne"}]
    assert web == []

"""The pure core stays pure: rules and engine import nothing from Django."""

from __future__ import annotations

import ast
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

"""The pure core stays pure: rules and engine import nothing from Django."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "dotsboxes"
PURE_PACKAGES = ["rules", "engine", "bot"]  # the bot bridge runs on a bot owner's machine


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


# -- imports between the project's own modules ------------------------------------------

# Lower layers first; a module may import its own package and the layers below it.
# Every package of the project has a place here (a test says so), so a new app
# cannot import upwards unnoticed.
LAYERS = [
    {"rules"},
    {"engine"},
    {"jobs"},  # engine work's transport: the apps define jobs, jobs imports no app
    {"leases"},  # claims on engine work: the cache, a database lease while Redis is down
    {"games"},
    {"analysis"},  # stored analyses of games; the guide and reports show them
    {"studies"},  # user studies and the solver's checks of their claims; guide and reports use them
    # blocks, mutes, fair-play marks and figures: rooms, tournaments and the bot
    # challenges call its checks; the staff pages that also need ratings are in reports
    {"moderation"},
    {"rooms", "guide", "accounts"},
    {"reports", "notifications", "api", "profiles", "tournaments", "puzzles"},
    {"privacy"},  # closing an account and its data archive reach into every app above
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_imports() -> dict[str, set[str]]:
    """Each module of the package and the project modules it imports, anywhere in
    the file (an import inside a function closes a circle just the same)."""
    paths = {
        _module_name(path): path for path in ROOT.rglob("*.py") if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                # "from pkg import mod" imports the module; "from mod import name" the module.
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base
                    for alias in node.names
                ]
            else:
                continue
            for target in targets:
                while target and target not in paths:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_among_the_project_modules():
    graph = _project_imports()
    assert "dotsboxes.rooms.services" in graph and "dotsboxes.games.services" in graph
    assert "dotsboxes.games.models" in graph["dotsboxes.games.services"]
    assert _cycles(graph) == []


# Not layers: the bot bridge (pure, held to the test above) and Django's date formats.
OUTSIDE_LAYERS = {"bot", "formats"}


def test_every_package_of_the_project_has_a_layer():
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    ranked = set().union(*LAYERS)
    assert "games" in packages and "analysis" in packages
    assert packages - ranked - OUTSIDE_LAYERS == set()


def test_imports_point_down_the_layers():
    rank = {package: n for n, layer in enumerate(LAYERS) for package in layer}
    upward = []
    for name, targets in _project_imports().items():
        parts = name.split(".")
        if len(parts) < 2 or parts[1] not in rank:
            continue
        for target in targets:
            other = target.split(".")[1] if target.count(".") else ""
            if other in rank and other != parts[1] and rank[other] >= rank[parts[1]]:
                upward.append(f"{name} imports {target}")
    assert upward == []


def test_nothing_outside_jobs_imports_the_process_pool():
    # Engine work leaves a request or the room clock through a job (dotsboxes.jobs):
    # saving results and handling failures then exist once, whatever carries it.
    pool = "dotsboxes.jobs.pool"
    graph = _project_imports()
    assert pool in graph and pool in graph["dotsboxes.jobs"]
    outside = sorted(
        name
        for name, targets in graph.items()
        if pool in targets and not name.startswith("dotsboxes.jobs")
    )
    assert outside == []


def test_job_modules_are_discovered_not_listed():
    from dotsboxes import jobs

    names = set(jobs.discover())
    # One job of each app that defines some, found by its app's jobs module alone.
    assert {
        "games.computer_move",
        "engine.hint",
        "analysis.analyse",
        "analysis.board_deep",
        "studies.check",
    } <= names
    assert not hasattr(jobs, "JOB_MODULES")


def test_the_layer_picture_in_the_architecture_page_is_the_layer_table():
    # docs/ARCHITECTURE.md draws LAYERS as numbered rows, lowest last; a new app or layer
    # must be drawn there too (the picture once had 7 tiers while this table had 8).
    text = (ROOT.parent / "docs" / "ARCHITECTURE.md").read_text()
    picture = text.split("## The layers", 1)[1].split("```", 2)[1]
    packages = set().union(*LAYERS)
    drawn: dict[int, set[str]] = {}
    for line in picture.splitlines():
        number, _, rest = line.strip().partition(" ")
        if number.isdigit():  # "N name  name  name      what they hold"
            drawn[int(number)] = set(re.split(r"\s{3,}", rest.strip())[0].split())
    assert set().union(*drawn.values()) <= packages
    assert drawn == {n: layer for n, layer in enumerate(LAYERS, 1)}

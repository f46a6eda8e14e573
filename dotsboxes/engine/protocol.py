"""The engine's line protocol: a command per line in; any info lines, then one answer line.

=====================================  ========================================
command                                answer
=====================================  ========================================
``size W H``                           ``ok``: a new empty board of W x H boxes
``play E1 E2 ...``                     ``ok``: the edges drawn in order
``undo``                               ``ok``: the last edge taken back
``go [level NAME] [movetime MS]``      ``bestmove E``: the side to move's edge,
                                       after an ``info`` line for the master
``solve [movetime MS]``                ``value V best E1 E2 ...`` or
                                       ``unknown lower L upper U``, after
                                       ``info nodes N time T``
``analyse``                            one line: components, safe edges, control
``id``                                 ``id name dotsboxes version V backend B``:
                                       the engine, its version and the solver
                                       core in use (``native`` or ``python``)
``quit``                               no answer; the engine exits
=====================================  ========================================

Edges are in dot-pair notation (``a1-b1``).  The board starts as 5 x 5 boxes.
``go`` defaults to the master level with its default budget; ``solve`` to 10
seconds.  ``V`` is the side to move's final margin over the boxes not yet
claimed, and ``best`` lists every edge that achieves it; a ``solve`` value is
always proved.  When the solver does not finish, ``unknown`` gives the bounds
it proved (``-n`` and ``n`` with ``n`` boxes unclaimed when it proved nothing).
The master's ``go`` first prints ``info value V exact|estimate nodes N time T``:
its value for the side to move, proved by the solver (``exact``) or estimated
by the search (``estimate``; ``?`` when neither valued the move, as when it is
the only one or every other move was proved worse), the solver and search
nodes, and the milliseconds it took.  The session keeps the master's tables
(:class:`players.Game`) from move to move until ``size`` starts a new board:
the next ``go`` or ``solve`` starts from what the previous ones proved.

**Info lines are part of the protocol.**  Before its answer line a command may
print any number of lines starting with ``info`` (``go`` at the master level
and ``solve`` do; other engines may print them for any command).  A client
reads lines until the one that starts with the answer it expects (``ok``,
``bestmove``, ``value`` or ``unknown``, or ``error``) and skips every other
line, ``info`` or not, so that engines may add lines without breaking it
(:class:`dotsboxes.bot.engine.Engine` does).

Anything malformed,
or an edge that cannot be drawn, answers ``error <message>`` and leaves the
position exactly as it was (a ``play`` line is applied entirely or not at all).
Blank lines are ignored.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import TextIO

from dotsboxes.rules import Board

from . import backend_name, players
from .analysis import analyse, describe

DEFAULT_SOLVE_SECONDS = 10.0
_MAX_MS = 3_600_000


class ProtocolError(ValueError):
    """A command the engine cannot carry out; the message is sent after ``error``."""


class Session:
    """The state of one protocol conversation: a board and its history."""

    def __init__(self) -> None:
        self.board = Board(5, 5)
        self.game = players.Game()
        players.prepare(self.board)  # so that no go pays for the tables

    def handle(self, line: str) -> str | None:
        """Answer one command line (``None`` for blank lines and ``quit``)."""
        words = line.split()
        if not words:
            return None
        command, args = words[0].lower(), words[1:]
        handler: Callable[[list[str]], str] | None = getattr(self, f"_cmd_{command}", None)
        if handler is None:
            return f"error unknown command {words[0]!r}; commands: {_COMMANDS}"
        try:
            return handler(args)
        except ValueError as exc:  # ProtocolError and every rules error
            return f"error {' '.join(str(exc).split())}"

    # -- commands ---------------------------------------------------------------

    def _cmd_size(self, args: list[str]) -> str:
        if len(args) != 2 or not all(a.isdigit() for a in args):
            raise ProtocolError("size takes two whole numbers of boxes, like 'size 5 5'")
        self.board = Board(int(args[0]), int(args[1]))
        self.game = players.Game()  # a new game: its own tables
        players.prepare(self.board)
        return "ok"

    def _cmd_play(self, args: list[str]) -> str:
        if not args:
            raise ProtocolError("play needs at least one edge, like 'play a1-b1'")
        trial = self.board.copy()
        for text in args:
            trial.play(text)
        self.board = trial
        return "ok"

    def _cmd_undo(self, args: list[str]) -> str:
        _no_args("undo", args)
        if not self.board.move_stack:
            raise ProtocolError("nothing to undo: no edge has been drawn")
        self.board.pop()
        return "ok"

    def _cmd_go(self, args: list[str]) -> str:
        options = _options("go", args, {"level", "movetime"})
        level = options.get("level", "master").lower()
        if level not in players.LEVELS:
            raise ProtocolError(f"unknown level {level!r}; levels: {', '.join(players.LEVELS)}")
        if self.board.is_over():
            raise ProtocolError("the game is over: no edge is left to draw")
        budget = _seconds(options["movetime"]) if "movetime" in options else None
        if level != "master":
            edge = players.choose(self.board, level=level, budget=budget, seed=0)
            return f"bestmove {edge}"
        t = self.game.think(self.board, budget=budget, seed=0)
        value = "?" if t.value is None else str(t.value)
        kind = "exact" if t.exact else "estimate"
        return (
            f"info value {value} {kind} nodes {t.nodes} time {round(t.seconds * 1000)}\n"
            f"bestmove {t.edge}"
        )

    def _cmd_solve(self, args: list[str]) -> str:
        options = _options("solve", args, {"movetime"})
        seconds = _seconds(options["movetime"]) if "movetime" in options else DEFAULT_SOLVE_SECONDS
        if self.board.is_over():
            return "info nodes 0 time 0\nvalue 0 best"  # nothing left: worth nothing
        try:
            solver = importlib.import_module("dotsboxes.engine.solver")
        except ImportError:
            return "unknown"
        table = self.game.solver_table(self.board)
        start = time.perf_counter()
        stats: dict[str, int] = {}
        solution = solver.solve(self.board, budget=seconds, table=table, stats=stats)
        info = f"info nodes {stats['nodes']} time {round((time.perf_counter() - start) * 1000)}"
        if solution is None:
            bounds = solver.move_bounds(self.board, table).values()
            lower = max(lo for lo, _ in bounds)
            upper = max(hi for _, hi in bounds)
            return f"{info}\nunknown lower {lower} upper {upper}"
        best = " ".join(str(e) for e in sorted(solution.best, key=self.board.index))
        return f"{info}\nvalue {solution.value} best {best}"

    def _cmd_analyse(self, args: list[str]) -> str:
        _no_args("analyse", args)
        return describe(analyse(self.board))

    _cmd_analyze = _cmd_analyse

    def _cmd_id(self, args: list[str]) -> str:
        _no_args("id", args)
        return f"id name dotsboxes version {_version()} backend {backend_name()}"


_COMMANDS = "size, play, undo, go, solve, analyse, id, quit"


def _version() -> str:
    try:
        return metadata.version("dotsboxes")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def _no_args(command: str, args: list[str]) -> None:
    if args:
        raise ProtocolError(f"{command} takes no arguments")


def _options(command: str, args: list[str], allowed: set[str]) -> dict[str, str]:
    if len(args) % 2:
        raise ProtocolError(
            f"{command} takes name-value pairs: {' '.join(f'[{a} ...]' for a in sorted(allowed))}"
        )
    options: dict[str, str] = {}
    for name, value in zip(args[::2], args[1::2], strict=True):
        name = name.lower()
        if name not in allowed or name in options:
            raise ProtocolError(f"{command} does not take {name!r} here")
        options[name] = value
    return options


def _seconds(text: str) -> float:
    if not text.isdigit() or not 0 < int(text) <= _MAX_MS:
        raise ProtocolError(f"movetime is whole milliseconds from 1 to {_MAX_MS}, not {text!r}")
    return int(text) / 1000


def serve(lines: Iterable[str], out: TextIO) -> None:
    """Run a session over ``lines``, writing and flushing each answer to ``out``."""
    session = Session()
    for line in lines:
        if line.strip().lower() == "quit":
            break
        answer = session.handle(line)
        if answer is not None:
            out.write(answer + "\n")
            out.flush()

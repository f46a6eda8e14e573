"""Stored answers for the practice exercises, computed by the exact solver.

The exercise positions never change, so the value of every legal move in
each of them is computed once, offline, and kept in ``answers.json``.  A
submitted answer is then checked by a dictionary lookup and no request ever
runs the engine.  The test suite recomputes every entry with the solver, so
the file cannot drift from what the solver says.

Regenerate after editing an exercise::

    python -m dotsboxes.guide.answers
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from .exercises import EXERCISES, Exercise

PATH = Path(__file__).with_name("answers.json")


@cache
def _stored() -> dict[str, dict[str, int]]:
    return json.loads(PATH.read_text())


def move_values(exercise: Exercise) -> dict[str, int]:
    """Every legal move's value (the mover's final margin) in an edge exercise."""
    return _stored()[exercise.slug]


def best_value(exercise: Exercise) -> int:
    return max(move_values(exercise).values())


def compute() -> dict[str, dict[str, int]]:
    """Ask the solver for every edge exercise (slow: run offline, never in a request)."""
    from dotsboxes.engine.solver import move_values as solve_moves

    out: dict[str, dict[str, int]] = {}
    for exercise in EXERCISES:
        if exercise.kind != "edge":
            continue
        values = solve_moves(exercise.board)
        if values is None:
            raise RuntimeError(f"the solver gave up on {exercise.slug}")
        out[exercise.slug] = {str(edge): value for edge, value in sorted(values.items())}
    return out


if __name__ == "__main__":
    PATH.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {PATH}")

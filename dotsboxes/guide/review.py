"""Find the moves of a finished game that lost boxes against best play.

Pure (no Django): it runs in the engine's process pool, never in a request.
Positions are solved from the end of the game backwards, because late
positions are small and solve at once while early ones may be out of reach;
the first position the solver cannot settle within its budget ends the
review, and every earlier move is reported as not checked.
"""

from __future__ import annotations

import time

from dotsboxes.engine.solver import move_values
from dotsboxes.rules import Board, Edge

#: Seconds the solver may spend on one position, and on one whole game.
BUDGET_PER_POSITION = 3.0
TOTAL_BUDGET = 20.0


def review_moves(
    start_key: str,
    edges: list[str],
    plies: list[int],
    *,
    budget: float = BUDGET_PER_POSITION,
    total: float = TOTAL_BUDGET,
) -> dict:
    """Solve the position before each move in ``plies`` (0-based indexes into ``edges``).

    Returns ``{"checked": {ply: {"played": edge, "values": {edge: value}}}, "complete": bool}``
    where values are the solver's move values for the side that moved (see
    :func:`dotsboxes.engine.solver.move_values`).  ``complete`` is False when the
    time ran out before the earliest requested move.
    """
    board = Board.from_key(start_key)
    boards = []
    for edge in edges:
        boards.append(board.copy(stack=False))
        board.play(Edge.parse(edge))
    deadline = time.monotonic() + total
    checked: dict[int, dict] = {}
    complete = True
    for ply in sorted(set(plies), reverse=True):
        left = deadline - time.monotonic()
        values = move_values(boards[ply], budget=min(budget, left)) if left > 0 else None
        if values is None:
            complete = False
            break
        checked[ply] = {
            "played": edges[ply],
            "values": {str(e): v for e, v in values.items()},
        }
    return {"checked": checked, "complete": complete}

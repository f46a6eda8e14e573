"""A deliberately naive exact oracle for small positions (tests only).

Plain negamax over every legal move, memoised on the drawn edges: slow, but
obviously right, so the engine's theory can be checked against it.
"""

from __future__ import annotations

from dotsboxes.rules import Board


def brute_value(board: Board, memo: dict[int, int] | None = None) -> int:
    """Final margin of the side to move over the unclaimed boxes, best play."""
    memo = {} if memo is None else memo
    key = board.edge_bits
    if key in memo:
        return memo[key]
    if board.is_over():
        return 0
    best = None
    for edge in board.legal_moves:
        claimed = len(board.push(edge))
        child = brute_value(board, memo)
        board.pop()
        value = claimed + child if claimed else -child
        best = value if best is None else max(best, value)
    memo[key] = best
    return best


def brute_move_values(board: Board) -> dict:
    """Value of every legal move for the side to move (margin before the move)."""
    memo: dict[int, int] = {}
    values = {}
    for edge in board.legal_moves:
        claimed = len(board.push(edge))
        child = brute_value(board, memo)
        board.pop()
        values[edge] = claimed + child if claimed else -child
    return values

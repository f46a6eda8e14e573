"""Turn arithmetic on the pure rules core (no Django here): whole turns for every mode.

A turn is everything one player draws before play passes to the other.  Abort,
take-back and the computer's stand-in moves all reason in whole turns.
"""

from __future__ import annotations

from dataclasses import dataclass

from dotsboxes.rules import Board, Player


@dataclass(frozen=True)
class TurnSpan:
    """One turn: who drew it, and its plies from ``start`` up to ``stop`` (0-based)."""

    player: Player
    start: int
    stop: int


def turn_spans(board: Board) -> list[TurnSpan]:
    """The turns of ``board``'s move stack, oldest first.

    >>> b = Board(1, 1)
    >>> for e in ("a1-b1", "a2-b2", "a1-a2", "b1-b2"):
    ...     _ = b.play(e)
    >>> [(s.player.name, s.start, s.stop) for s in turn_spans(b)]
    [('BLUE', 0, 1), ('RED', 1, 2), ('BLUE', 2, 3), ('RED', 3, 4)]
    """
    replay = board.copy()
    for _ in board.move_stack:
        replay.pop()
    spans: list[TurnSpan] = []
    for ply, edge in enumerate(board.move_stack):
        mover = replay.turn
        if spans and spans[-1].player is mover and spans[-1].stop == ply:
            spans[-1] = TurnSpan(mover, spans[-1].start, ply + 1)
        else:
            spans.append(TurnSpan(mover, ply, ply + 1))
        replay.push(edge)
    return spans


def finished_turns(board: Board, spans: list[TurnSpan] | None = None) -> list[TurnSpan]:
    """Turns that are over: all of them once the game is over, else all but one in progress.
    ``spans``: the board's :func:`turn_spans`, when the caller has them."""
    spans = list(turn_spans(board) if spans is None else spans)
    if spans and not board.is_over() and spans[-1].player is board.turn:
        spans.pop()
    return spans


def both_have_played(board: Board, spans: list[TurnSpan] | None = None) -> bool:
    """True once each player has finished at least one turn (no more aborting)."""
    return {span.player for span in finished_turns(board, spans)} == {Player.BLUE, Player.RED}


def takeback_start(board: Board, requester: Player) -> int | None:
    """The ply count to roll back to when ``requester``'s take-back is accepted.

    That removes the requester's last turn (whole, even if still in progress)
    and the opponent's turn after it, if any.  ``None`` when the requester has
    not drawn anything yet.
    """
    for span in reversed(turn_spans(board)):
        if span.player is requester:
            return span.start
    return None

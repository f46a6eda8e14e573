"""A board's history as players read it: every edge with its mover and claims
(:func:`history`), grouped into turns (:func:`turns`), the turn log of a replay
(:func:`replay_log`) and the last turn in one sentence for screen readers
(:func:`status_sentence`).  Pure functions of a rules ``Board``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from dotsboxes.rules import Board, Edge, Player

from .wording import boxes_text, player_name


@dataclass(frozen=True)
class Step:
    """One drawn edge: its 1-based ply, who drew it and the boxes it claimed."""

    ply: int
    edge: Edge
    player: Player
    claimed: tuple[int, ...]


def edge_list_html(edges: Iterable[object]) -> SafeString:
    """Edge names joined by ", ", each in a span that never breaks inside (site.css .edge-name).

    Browsers break a line after a hyphen ("c3-" / "c4"); a log line may wrap only after a
    comma.  Only markup is added, so the text a reader copies is still "c1-c2, c3-c4".
    """
    return format_html_join(", ", '<span class="edge-name">{}</span>', ((str(e),) for e in edges))


@dataclass(frozen=True)
class Turn:
    """A run of edges by one player (play passes after the last one)."""

    number: int
    player: Player
    steps: tuple[Step, ...]

    @property
    def edges(self) -> list[Edge]:
        return [s.edge for s in self.steps]

    @property
    def claimed(self) -> int:
        return sum(len(s.claimed) for s in self.steps)

    @property
    def first_ply(self) -> int:
        return self.steps[0].ply

    @property
    def last_ply(self) -> int:
        return self.steps[-1].ply

    @property
    def text(self) -> str:
        return ", ".join(str(e) for e in self.edges)

    @property
    def html(self) -> SafeString:
        """The edges for a turn log: each name kept on one line."""
        return edge_list_html(self.edges)

    @property
    def player_name(self) -> str:
        return player_name(self.player)


def history(board: Board) -> list[Step]:
    """Every edge on the board's move stack with its mover and claims.

    Works for boards that started from a position key too: the stack is
    unwound on a copy to find the start, then replayed.
    """
    start = board.copy()
    while start.move_stack:
        start.pop()
    steps = []
    for ply, edge in enumerate(board.move_stack, start=1):
        mover = start.turn
        steps.append(Step(ply, edge, mover, start.push(edge)))
    return steps


def turns(board: Board, steps: Sequence[Step] | None = None) -> list[Turn]:
    """The board's moves grouped into turns."""
    groups: list[list[Step]] = []
    for step in history(board) if steps is None else steps:
        if groups and groups[-1][-1].player is step.player and groups[-1][-1].claimed:
            groups[-1].append(step)
        else:
            groups.append([step])
    return [Turn(n, g[0].player, tuple(g)) for n, g in enumerate(groups, start=1)]


def replay_log(all_turns: Sequence[Turn], ply: int) -> list[dict]:
    """The turn log as it stood after ``ply`` edges, then the turns still to come.

    A turn cut in two by ``ply`` shows its drawn edges and, apart, its later ones;
    its claims count only the drawn edges.
    """
    rows = []
    for turn in all_turns:
        played = [s for s in turn.steps if s.ply <= ply]
        rows.append(
            {
                "turn": turn,
                "played": edge_list_html(s.edge for s in played),
                "later": edge_list_html(s.edge for s in turn.steps if s.ply > ply),
                "claimed": sum(len(s.claimed) for s in played),
                "future": not played,
            }
        )
    return rows


def edge_owners(board: Board) -> dict[Edge, Player]:
    """Who drew each edge on the board's move stack."""
    return {step.edge: step.player for step in history(board)}


def status_sentence(
    board: Board, *, computer: Player | None = None, steps: Sequence[Step] | None = None
) -> str:
    """The last turn and what comes next, in one sentence (``steps``: the board's
    :func:`history`, when the caller has it).

    >>> b = Board(1, 1)
    >>> for e in ("a1-b1", "a2-b2", "a1-a2", "b1-b2"):
    ...     _ = b.play(e)
    >>> status_sentence(b)
    'Red draws b1-b2 and claims a box; the game is over: Red wins 1 to 0.'
    """
    all_turns = turns(board, steps)
    verb = ""
    if all_turns:
        last = all_turns[-1]
        who = {"player": player_name(last.player), "edges": last.text}
        if last.claimed == 1:
            verb = gettext("%(player)s draws %(edges)s and claims a box") % who
        elif last.claimed:
            verb = ngettext(
                "%(player)s draws %(edges)s and claims %(n)d box",
                "%(player)s draws %(edges)s and claims %(n)d boxes",
                last.claimed,
            ) % {**who, "n": last.claimed}
        else:
            verb = gettext("%(player)s draws %(edges)s") % who
    turn = player_name(board.turn)
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            nxt = gettext("the game is over: a tie, %(boxes)s each") % {
                "boxes": boxes_text(outcome.blue)
            }
        else:
            nxt = gettext("the game is over: %(player)s wins %(high)d to %(low)d") % {
                "player": player_name(outcome.winner),
                "high": max(outcome.scores),
                "low": min(outcome.scores),
            }
    elif all_turns and all_turns[-1].player is board.turn:
        nxt = gettext("%(player)s moves again") % {"player": turn}
    elif board.turn is computer:
        nxt = gettext("the computer (%(player)s) is thinking") % {"player": turn}
    else:
        nxt = gettext("%(player)s to move") % {"player": turn}
    if not verb:
        return nxt[0].upper() + nxt[1:] + gettext(".")
    # Translators: two clauses of the status line: what was just drawn; what comes next.
    return gettext("%(last)s; %(next)s.") % {"last": verb, "next": nxt}

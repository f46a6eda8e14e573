"""Master against a plain UCT Monte-Carlo player at equal time per move.

Not a pytest module.  Run from the repository root::

    nice python tests/bench/uct.py --games 10 --size 5x5 --movetime 2.0

The opponent is written here, independently of the engine: it uses only the
rules core's geometry (which boxes an edge borders), none of the engine's
chain analysis, search or solver.  It is the kind of program the computer
games championships see: UCT (UCB1 on win rate, C = 0.7) over the legal
moves, a tree grown one node per simulation, and playouts with the usual
light knowledge of Monte-Carlo Dots and Boxes programs: take a box whenever
one is offered, draw a safe edge (no third side) while there is one, else a
random edge.  ``--plain`` makes the playouts uniformly random.

Colours alternate game by game and seeds differ, so every game is a new
game.  Both sides get ``--movetime`` seconds per move: the UCT player uses
all of it, in CPU time so that a loaded machine does not starve it, on every
move with a choice; the master at most that (its budget; its node limits
assume a fraction of this machine's speed).  ``--no-hard-stop`` plays the
master by its node limits alone, so a loaded machine cannot cut its searches
short either.  Prints each game, the master's wins, losses and ties, and
both sides' wall and CPU seconds per move.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine.players import choose
from dotsboxes.rules import Board, Player


class Geometry:
    """Edges and boxes of one board size, from the rules core only."""

    def __init__(self, width: int, height: int) -> None:
        board = Board(width, height)
        self.edges = board.edges
        self.index = {e: i for i, e in enumerate(board.edges)}
        self.edge_boxes = [board.edge_boxes(e) for e in board.edges]
        self.num_boxes = board.num_boxes
        self.box_edges: list[list[int]] = [[] for _ in range(board.num_boxes)]
        for i, boxes in enumerate(self.edge_boxes):
            for b in boxes:
                self.box_edges[b].append(i)


class State:
    """Drawn edges, sides per box, scores and the side to move (0 or 1)."""

    __slots__ = ("drawn", "free", "geo", "score", "sides", "turn")

    def __init__(self, geo: Geometry, board: Board) -> None:
        self.geo = geo
        self.drawn = [board.is_drawn(e) for e in geo.edges]
        self.sides = [board.sides(b) for b in range(geo.num_boxes)]
        self.free = [i for i, d in enumerate(self.drawn) if not d]
        self.turn = 0 if board.turn is Player.BLUE else 1
        blue, red = board.scores
        self.score = [blue, red]

    def copy(self) -> State:
        other = State.__new__(State)
        other.geo = self.geo
        other.drawn = self.drawn[:]
        other.sides = self.sides[:]
        other.free = self.free[:]
        other.turn = self.turn
        other.score = self.score[:]
        return other

    def play(self, i: int, offered: list[int] | None = None) -> None:
        self.drawn[i] = True
        self.free.remove(i)
        claimed = 0
        for b in self.geo.edge_boxes[i]:
            self.sides[b] += 1
            claimed += self.sides[b] == 4
            if offered is not None and self.sides[b] == 3:
                offered.append(b)
        if claimed:
            self.score[self.turn] += claimed
        else:
            self.turn ^= 1

    def playout(self, rng: random.Random, plain: bool) -> None:
        """Play to the end: takes first, then safe edges, then anything."""
        geo, sides, drawn, free = self.geo, self.sides, self.drawn, self.free
        if plain:
            while free:
                self.play(rng.choice(free))
            return
        offered = [b for b in range(geo.num_boxes) if sides[b] == 3]
        safe_left = True
        while free:
            while offered and sides[offered[-1]] != 3:
                offered.pop()
            if offered:
                box = offered.pop()
                self.play(next(e for e in geo.box_edges[box] if not drawn[e]), offered)
                continue
            move = -1
            if safe_left:
                order = free[:]
                rng.shuffle(order)
                move = next((i for i in order if all(sides[b] < 2 for b in geo.edge_boxes[i])), -1)
                # Sides only grow: once nothing is safe, nothing will be again.
                safe_left = move >= 0
            self.play(move if move >= 0 else rng.choice(free), offered)


#: Simulations run by each UCT move, for the report.
SIMULATIONS: list[int] = []


def uct_move(board: Board, geo: Geometry, seconds: float, rng: random.Random, plain: bool) -> int:
    """The UCT player's edge index for ``board`` after ``seconds`` of simulations."""
    root_state = State(geo, board)
    if len(root_state.free) == 1:
        return root_state.free[0]
    # CPU time, not wall time: on a shared machine the opponent still gets its
    # full share of thinking, whatever else runs.
    deadline = time.process_time() + seconds
    # Per node: the side that moved into it (for its win count) and the side to move in it.
    root = {"move": -1, "parent": None, "children": [], "untried": root_state.free[:]}
    root.update(visits=0, wins=0.0, mover=-1, to_move=root_state.turn)
    c = 0.7
    sims = 0
    while time.process_time() < deadline:
        sims += 1
        node, state = root, root_state.copy()
        while not node["untried"] and node["children"]:
            log_n = math.log(node["visits"])
            node = max(
                node["children"],
                key=lambda ch: ch["wins"] / ch["visits"] + c * math.sqrt(log_n / ch["visits"]),
            )
            state.play(node["move"])
        if node["untried"]:
            move = node["untried"].pop(rng.randrange(len(node["untried"])))
            mover = state.turn
            state.play(move)
            child = {"move": move, "parent": node, "children": [], "untried": state.free[:]}
            child.update(visits=0, wins=0.0, mover=mover, to_move=state.turn)
            node["children"].append(child)
            node = child
        state.playout(rng, plain)
        blue, red = state.score
        while node is not None:
            node["visits"] += 1
            if node["mover"] >= 0:
                mine, theirs = (blue, red) if node["mover"] == 0 else (red, blue)
                node["wins"] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            node = node["parent"]
    SIMULATIONS.append(sims)
    best = max(root["children"], key=lambda ch: ch["visits"])
    return best["move"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--size", default="5x5")
    parser.add_argument("--movetime", type=float, default=2.0, help="seconds per move, both")
    parser.add_argument("--level", default="master")
    parser.add_argument("--plain", action="store_true", help="uniformly random playouts")
    parser.add_argument(
        "--no-hard-stop", dest="hard_stop", action="store_false", help="node limits only"
    )
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    geo = Geometry(width, height)
    wins = losses = ties = 0
    ours: list[float] = []
    theirs: list[float] = []
    ours_cpu: list[float] = []
    theirs_cpu: list[float] = []
    for game in range(args.games):
        master_blue = game % 2 == 0
        ours_colour = Player.BLUE if master_blue else Player.RED
        rng = random.Random(1000 + game)
        board = Board(width, height)
        while not board.is_over():
            start, start_cpu = time.perf_counter(), time.process_time()
            if board.turn is ours_colour:
                edge = choose(
                    board,
                    level=args.level,
                    budget=args.movetime,
                    seed=game,
                    hard_stop=args.hard_stop,
                )
                ours.append(time.perf_counter() - start)
                ours_cpu.append(time.process_time() - start_cpu)
            else:
                edge = geo.edges[uct_move(board, geo, args.movetime, rng, args.plain)]
                theirs.append(time.perf_counter() - start)
                theirs_cpu.append(time.process_time() - start_cpu)
            board.play(edge)
        blue, red = board.scores
        margin = blue - red if master_blue else red - blue
        wins += margin > 0
        losses += margin < 0
        ties += margin == 0
        colour = "Blue" if master_blue else "Red"
        print(f"game {game + 1}: {args.level} ({colour}) {margin:+d}", flush=True)
    print(
        f"\n{args.level} vs UCT{' (plain)' if args.plain else ''}, {args.size}, "
        f"{args.movetime:.2f} s per move: {wins} wins, {losses} losses, {ties} ties"
    )
    for name, times, cpu in ((args.level, ours, ours_cpu), ("uct", theirs, theirs_cpu)):
        print(
            f"  {name:>8} s per move: wall median {statistics.median(times):.3f}  "
            f"p95 {percentile(times, 0.95):.3f}  max {max(times):.3f};  "
            f"CPU median {statistics.median(cpu):.3f}  max {max(cpu):.3f}"
        )
    print(f"  UCT simulations per move: median {statistics.median(SIMULATIONS)}")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

"""The 5 x 5 endgame suite: master against exact values at 1, 2, 4 and 10 s.

Not a pytest module.  Run from the repository root, under ``nice -n 10``::

    python tests/bench/endgames.py generate [--games 120]   # writes data/endgames.json
    python tests/bench/endgames.py crosscheck [--count 50]  # plain alpha-beta agrees?
    python tests/bench/endgames.py run [--budgets 1,2,4,10] [--limit N]

``generate`` plays seeded games between different levels (casual, club,
expert, master, each pairing both ways round) and keeps positions with 28 to
40 undrawn edges, at most two a game, then values each exactly with the solver
with a generous node limit and a large table, and every move's value too, so
that "boxes lost" is the best value less the chosen move's.  Positions the
solver cannot settle in ``--solve-nodes`` are dropped and counted.  The file keeps
each position's key, its value, every move's value, the solver's nodes and
seconds, and the safe edges and undrawn edges (the measurements behind
the master's solver schedule).

``crosscheck`` values the positions with the fewest undrawn edges again with
:func:`plain_value`, an alpha-beta over every legal move with a table on the
drawn edges and none of the solver's chain theory, and prints any
disagreement.

``run`` plays master's move in every position at each budget (fresh table,
hard stop on, as the product runs) and prints, per budget: % optimal, boxes
lost per position, seconds used (median, p95), % optimal among the positions
the solver settled within that budget, and every position where more time
gave a worse move.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import players, solver
from dotsboxes.rules import Board, Player

DATA = Path(__file__).resolve().parent / "data" / "endgames.json"
PAIRINGS = [("casual", "club"), ("club", "expert"), ("expert", "master"), ("club", "master")]
# Fast budgets for the game generation: positions, not strong play, are wanted.
GEN_BUDGET = {"casual": 0.05, "club": 0.05, "expert": 0.1, "master": 0.1}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def safe_edges(board: Board) -> int:
    return sum(1 for e in board.legal_moves if all(board.sides(b) < 2 for b in board.edge_boxes(e)))


def game_positions(n: int) -> list[tuple[str, str, int]]:
    """(position key, pairing, game) from seeded game ``n``: at most two."""
    a, b = PAIRINGS[n % len(PAIRINGS)]
    if n // len(PAIRINGS) % 2:
        a, b = b, a
    rng = random.Random(f"endgames:{n}")
    wanted = {rng.randint(28, 34), rng.randint(35, 40)}
    found = []
    board = Board(5, 5)
    while wanted and not board.is_over():
        undrawn = len(board.legal_moves)
        if undrawn in wanted:
            wanted.discard(undrawn)
            found.append((board.key(), f"{a}-{b}", n))
        level = a if board.turn is Player.BLUE else b
        edge = players.choose(board, level=level, budget=GEN_BUDGET[level], seed=n, hard_stop=False)
        board.play(edge)
    return found


def generate(args: argparse.Namespace) -> None:
    solver.TABLE_LIMIT = 1_000_000  # a generous table for the reference values
    positions = []
    dropped = 0
    start = time.perf_counter()
    for n in range(args.games):
        print(f"game {n}", flush=True)
        for key, pairing, game in game_positions(n):
            board = Board.from_key(key)
            solver.clear_cache()
            t = time.perf_counter()
            solution = solver.solve(board, max_nodes=args.solve_nodes)
            values = None
            if solution is not None:
                seconds = time.perf_counter() - t
                values = solver.move_values(board, budget=args.values_seconds)
            if values is None:
                dropped += 1
                print(f"dropped (unsolved): {key}", flush=True)
                continue
            assert max(values.values()) == solution.value, key
            positions.append(
                {
                    "key": key,
                    "pairing": pairing,
                    "game": game,
                    "undrawn": len(board.legal_moves),
                    "safe": safe_edges(board),
                    "value": solution.value,
                    "moves": {str(e): v for e, v in values.items()},
                    "solver_nodes": solution.nodes,
                    "solver_seconds": round(seconds, 3),
                }
            )
            print(
                f"{len(positions):3d} game {n} undrawn {len(board.legal_moves)} "
                f"safe {safe_edges(board):2d} value {solution.value:+d} "
                f"nodes {solution.nodes} {seconds:.2f} s",
                flush=True,
            )
        if n % 5 == 4 or n == args.games - 1:  # partial results survive an interruption
            DATA.parent.mkdir(exist_ok=True)
            data = {"positions": positions, "dropped": dropped, "solve_nodes": args.solve_nodes}
            DATA.write_text(json.dumps(data, indent=1) + "\n")
    print(
        f"{len(positions)} positions, {dropped} dropped, {time.perf_counter() - start:.0f} s; "
        f"solver seconds median {statistics.median(p['solver_seconds'] for p in positions):.2f}"
    )


class _OutOfTime(Exception):
    pass


def plain_value(board: Board, alpha: int, beta: int, memo: dict, deadline: float) -> int:
    """Alpha-beta over every legal move, no chain theory: fail-soft, bounds memoised."""
    if board.is_over():
        return 0
    if len(memo) % 1024 == 0 and time.perf_counter() > deadline:
        raise _OutOfTime
    key = board.edge_bits
    left = board.unclaimed
    lo, hi = memo.get(key, (-left, left))
    if lo >= beta or lo == hi:
        return lo
    if hi <= alpha:
        return hi
    a0, b0 = max(alpha, lo), min(beta, hi)
    a = a0
    best = -left - 1
    # Captures first, then edges that give no third side: only an ordering.
    moves = sorted(board.legal_moves, key=lambda e: (-board.claims(e), _third_sides(board, e)))
    for edge in moves:
        k = len(board.push(edge))
        if k:
            v = k + plain_value(board, a - k, b0 - k, memo, deadline)
        else:
            v = -plain_value(board, -b0, -a, memo, deadline)
        board.pop()
        if v > best:
            best = v
            a = max(a, v)
            if a >= b0:
                break
    if best <= a0:
        memo[key] = (lo, best)
    elif best >= b0:
        memo[key] = (best, hi)
    else:
        memo[key] = (best, best)
    return best


def _third_sides(board: Board, edge) -> int:
    return sum(1 for b in board.edge_boxes(edge) if board.sides(b) == 2)


def crosscheck(args: argparse.Namespace) -> None:
    sys.setrecursionlimit(10_000)
    positions = json.loads(DATA.read_text())["positions"]
    chosen = sorted(positions, key=lambda p: (p["undrawn"], p["key"]))[: args.count]
    agree = done = 0
    for p in chosen:
        board = Board.from_key(p["key"])
        t = time.perf_counter()
        try:
            v = plain_value(board, -board.unclaimed, board.unclaimed, {}, t + args.seconds)
        except _OutOfTime:
            print(f"undrawn {p['undrawn']}: plain alpha-beta out of time", flush=True)
            continue
        done += 1
        ok = v == p["value"]
        agree += ok
        print(
            f"undrawn {p['undrawn']} solver {p['value']:+d} plain {v:+d} "
            f"{'ok' if ok else 'DISAGREE'} {time.perf_counter() - t:.1f} s",
            flush=True,
        )
    print(f"{agree} of {done} agree ({len(chosen) - done} out of time)")


def run(args: argparse.Namespace) -> None:
    positions = json.loads(DATA.read_text())["positions"]
    if args.limit:
        positions = positions[: args.limit]
    budgets = [float(b) for b in args.budgets.split(",")]
    lost: dict[float, list[int]] = {}
    print(f"load average at start: {os.getloadavg()[0]:.1f}; {len(positions)} positions")
    for budget in budgets:
        lost[budget] = []
        used = []
        proved_ok = proved = 0
        for p in positions:
            board = Board.from_key(p["key"])
            # As the product plays: fresh tables, hard stop on.
            thought = players.Game().think(board, budget=budget, seed=0)
            used.append(thought.seconds)
            loss = p["value"] - p["moves"][str(thought.edge)]
            lost[budget].append(loss)
            if thought.proved:
                proved += 1
                proved_ok += loss == 0
        n = len(positions)
        ok = sum(x == 0 for x in lost[budget])
        print(
            f"{budget:5.2f} s: {100 * ok / n:5.1f} % optimal ({ok}/{n}), "
            f"{statistics.mean(lost[budget]):.3f} boxes lost per position "
            f"(max {max(lost[budget])}); settled by the solver: {proved} "
            f"({proved_ok} optimal); seconds used median {statistics.median(used):.3f} "
            f"p95 {percentile(used, 0.95):.3f} max {max(used):.3f}; "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    worse = 0
    for i, p in enumerate(positions):
        for small, large in pairwise(budgets):
            if lost[large][i] > lost[small][i]:
                worse += 1
                print(
                    f"more time worse: {p['key']} {small} s lost {lost[small][i]}, "
                    f"{large} s lost {lost[large][i]}"
                )
    print(f"cases where more time was worse: {worse}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--games", type=int, default=120)
    g.add_argument("--solve-nodes", type=int, default=2_000_000)
    g.add_argument("--values-seconds", type=float, default=600.0)
    c = sub.add_parser("crosscheck")
    c.add_argument("--count", type=int, default=50)
    c.add_argument("--seconds", type=float, default=600.0, help="per position")
    r = sub.add_parser("run")
    r.add_argument("--budgets", default="1,2,4,10")
    r.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    {"generate": generate, "crosscheck": crosscheck, "run": run}[args.command](args)


if __name__ == "__main__":
    main()

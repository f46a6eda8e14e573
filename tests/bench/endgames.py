"""The 5 x 5 endgame suite: master against exact values at 1, 2, 4 and 10 s.

Not a pytest module.  Run from the repository root, under ``nice -n 10``::

    python tests/bench/endgames.py generate [--games 120]   # writes data/endgames.json
    python tests/bench/endgames.py generate --part 0/2 & ... --part 1/2; ... merge
    python tests/bench/endgames.py crosscheck [--count 50]  # plain alpha-beta agrees?
    python tests/bench/endgames.py run [--budgets 1,2,4,10] [--limit N] [--part K/N]
    python tests/bench/endgames.py report [--budgets 1,2,4,10]   # the parts' figures

``generate`` plays seeded games between different levels (casual, club,
expert, master, each pairing both ways round) and keeps positions with 28 to
40 undrawn edges, at most two a game, then values each exactly with the solver
with a generous node limit and a large table, and every move's value too, so
that "boxes lost" is the best value less the chosen move's.  Positions the
solver cannot settle in ``--solve-nodes`` are dropped and counted.  The file keeps
each position's key, its value, every move's value, the solver's nodes and
seconds, and the safe edges and undrawn edges (the measurements behind
the master's solver schedule).

``crosscheck`` values the positions with the fewest undrawn edges again by brute
force (``plain_value.c``, compiled on the spot with ``cc``: every subset of the
undrawn edges valued from the rules alone, 2^k bytes for k undrawn edges, so up
to ``--max-undrawn`` 32), and prints any disagreement.  :func:`plain_value` is
the same idea in Python, an alpha-beta with no chain theory; it is far too slow
for these positions and checks the C program on small boards in the tests.

``run`` plays master's move in every position at each budget (fresh table,
hard stop on, as the product runs; ``--part K/N`` plays every Nth, so parallel
runs share the work) and keeps the results; ``report`` prints, per budget:
% optimal, boxes lost per position, seconds used (median, p95), % optimal
among the positions the solver settled within that budget, the CPU time used
in the settled and in the unsettled positions (median, p95, max: the time-use
distribution), and every position where more time gave a worse move.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
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
    # One with 28-30 undrawn edges, in the brute-force cross-check's reach, and one
    # with 31-40.
    wanted = {rng.randint(28, 30), rng.randint(31, 40)}
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
    part, parts = (int(x) for x in args.part.split("/"))
    # ``--part 110/1 --games 130``: games 110-129, added to an earlier run's parts.
    out = DATA if (part, parts) == (0, 1) else DATA.with_suffix(f".part{part}.json")
    for n in range(part, args.games, parts):
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
        # Partial results survive an interruption.
        DATA.parent.mkdir(exist_ok=True)
        data = {"positions": positions, "dropped": dropped, "solve_nodes": args.solve_nodes}
        out.write_text(json.dumps(data, indent=1) + "\n")
    print(
        f"{len(positions)} positions, {dropped} dropped, {time.perf_counter() - start:.0f} s; "
        f"solver seconds median {statistics.median(p['solver_seconds'] for p in positions):.2f}"
    )


def merge(args: argparse.Namespace) -> None:
    """Join the parts that parallel ``generate --part K/N`` runs wrote, in game order."""
    parts = sorted(DATA.parent.glob(DATA.stem + ".part*.json"))
    loaded = [json.loads(p.read_text()) for p in parts]
    positions = sorted(
        (pos for d in loaded for pos in d["positions"]), key=lambda p: (p["game"], -p["undrawn"])
    )
    data = {
        "positions": positions,
        "dropped": sum(d["dropped"] for d in loaded),
        "solve_nodes": loaded[0]["solve_nodes"],
    }
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    for p in parts:
        p.unlink()
    print(f"{len(positions)} positions from {len(parts)} parts, {data['dropped']} dropped")


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


def plain_input(board: Board) -> str:
    """``plain_value.c``'s input: k, then each unclaimed box's undrawn sides as a mask."""
    index = {e: i for i, e in enumerate(board.legal_moves)}
    masks = [
        sum(1 << index[e] for e in board.box_edges(b) if e in index)
        for b in range(board.num_boxes)
        if board.owner(b) is None
    ]
    return f"{len(index)} {len(masks)} " + " ".join(f"{m:x}" for m in masks) + "\n"


def build_plain_value(directory: Path) -> Path:
    """Compile the brute-force checker into ``directory``."""
    exe = directory / "plain_value"
    source = Path(__file__).resolve().parent / "plain_value.c"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(source)], check=True)
    return exe


def brute_force(exe: Path, board: Board) -> int:
    out = subprocess.run([str(exe)], input=plain_input(board), capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr.strip())
    return int(out.stdout)


def crosscheck(args: argparse.Namespace) -> None:
    positions = json.loads(DATA.read_text())["positions"]
    small = [p for p in positions if p["undrawn"] <= args.max_undrawn]
    chosen = sorted(small, key=lambda p: (p["undrawn"], p["key"]))[: args.count]
    agree = 0
    seconds = []
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_plain_value(Path(tmp))
        for p in chosen:
            board = Board.from_key(p["key"])
            t = time.perf_counter()
            v = brute_force(exe, board)
            seconds.append(time.perf_counter() - t)
            ok = v == p["value"]
            agree += ok
            print(
                f"undrawn {p['undrawn']} solver {p['value']:+d} brute force {v:+d} "
                f"{'ok' if ok else 'DISAGREE ' + p['key']} {seconds[-1]:.1f} s",
                flush=True,
            )
    print(
        f"{agree} of {len(chosen)} agree (undrawn {chosen[0]['undrawn']}-{chosen[-1]['undrawn']}; "
        f"brute force median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s)"
    )


def _results(args: argparse.Namespace, budget: float, part: str = "*") -> str:
    mode = "clock" if args.hard_stop else "nodes"
    return f"{budget:g}s-{mode}.part{part}.json"


def run(args: argparse.Namespace) -> None:
    """Play master in every position (this part's share) at each budget; keep the results."""
    positions = json.loads(DATA.read_text())["positions"]
    if args.limit:
        positions = positions[: args.limit]
    part, parts = (int(x) for x in args.part.split("/"))
    out = Path(args.results)
    out.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {os.getloadavg()[0]:.1f}; {len(positions)} positions")
    for budget in [float(b) for b in args.budgets.split(",")]:
        rows = []
        for i in range(part, len(positions), parts):
            p = positions[i]
            board = Board.from_key(p["key"])
            # As the product plays: fresh tables, hard stop on (``--no-hard-stop``:
            # node limits alone, what an unloaded machine plays).
            cpu = time.process_time()
            thought = players.Game().think(board, budget=budget, seed=0, hard_stop=args.hard_stop)
            cpu = time.process_time() - cpu
            loss = p["value"] - p["moves"][str(thought.edge)]
            rows.append(
                {
                    "i": i,
                    "lost": loss,
                    "proved": thought.proved,
                    "seconds": thought.seconds,
                    "cpu": cpu,
                    "load": os.getloadavg()[0],
                }
            )
            print(f"{budget:g} s position {i}: lost {loss} in {thought.seconds:.2f} s", flush=True)
        (out / _results(args, budget, str(part))).write_text(json.dumps(rows) + "\n")
    if parts == 1:
        report(args)


def report(args: argparse.Namespace) -> None:
    """The per-budget figures and the more-time-worse cases, from every part's results."""
    positions = json.loads(DATA.read_text())["positions"]
    budgets = [float(b) for b in args.budgets.split(",")]
    lost: dict[float, dict[int, int]] = {}
    for budget in budgets:
        rows = [
            row
            for f in sorted(Path(args.results).glob(_results(args, budget)))
            for row in json.loads(f.read_text())
        ]
        if not rows:
            print(f"{budget:g} s: no results")
            continue
        lost[budget] = {r["i"]: r["lost"] for r in rows}
        losses = list(lost[budget].values())
        used = [r["seconds"] for r in rows]
        settled = [r for r in rows if r["proved"]]
        n, ok = len(rows), sum(x == 0 for x in losses)
        print(
            f"{budget:5.2f} s: {100 * ok / n:5.1f} % optimal ({ok}/{n}), "
            f"{statistics.mean(losses):.3f} boxes lost per position (max {max(losses)}); "
            f"settled by the solver: {len(settled)} ({sum(r['lost'] == 0 for r in settled)} "
            f"optimal); seconds used median {statistics.median(used):.3f} "
            f"p95 {percentile(used, 0.95):.3f} max {max(used):.3f}; "
            f"load median {statistics.median(r['load'] for r in rows):.1f}",
            flush=True,
        )
        # Where the time goes: CPU seconds (the load does not change them) in the
        # positions the solver settled and in those the search had to play.
        for name, part in (
            ("settled", settled),
            ("unsettled", [r for r in rows if not r["proved"]]),
        ):
            cpu = [r["cpu"] for r in part if "cpu" in r]
            if cpu:
                print(
                    f"         {name}: {len(part)} positions, CPU seconds median "
                    f"{statistics.median(cpu):.3f} p95 {percentile(cpu, 0.95):.3f} "
                    f"max {max(cpu):.3f}",
                    flush=True,
                )
    worse = 0
    done = [b for b in budgets if b in lost]
    for small, large in pairwise(done):
        for i, loss in lost[large].items():
            if i in lost[small] and loss > lost[small][i]:
                worse += 1
                print(
                    f"more time worse: {positions[i]['key']} ({positions[i]['undrawn']} undrawn) "
                    f"{small:g} s lost {lost[small][i]}, {large:g} s lost {loss}"
                )
    print(f"cases where more time was worse: {worse}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--games", type=int, default=120)
    g.add_argument("--solve-nodes", type=int, default=2_000_000)
    g.add_argument("--values-seconds", type=float, default=600.0)
    g.add_argument("--part", default="0/1", help="K/N: games K, K+N, ... (parallel runs)")
    sub.add_parser("merge")
    c = sub.add_parser("crosscheck")
    c.add_argument("--count", type=int, default=50)
    c.add_argument("--max-undrawn", type=int, default=32, help="2^k bytes of memory")
    for name in ("run", "report"):
        r = sub.add_parser(name)
        r.add_argument("--budgets", default="1,2,4,10")
        r.add_argument("--no-hard-stop", dest="hard_stop", action="store_false")
        r.add_argument("--results", default="/tmp/dotsboxes-endgames", help="results directory")
        if name == "run":
            r.add_argument("--limit", type=int, default=0)
            r.add_argument("--part", default="0/1", help="K/N: positions K, K+N, ...")
    args = parser.parse_args()
    commands = {"generate": generate, "merge": merge, "crosscheck": crosscheck}
    {**commands, "run": run, "report": report}[args.command](args)


if __name__ == "__main__":
    main()

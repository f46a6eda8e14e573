"""The time guarantee: wall time per move against its budget, quiet and loaded.

Not a pytest module.  Run from the repository root, once per core::

    DOTSBOXES_ENGINE_BACKEND=native nice -n 10 python tests/bench/time_guarantee.py
    DOTSBOXES_ENGINE_BACKEND=python nice -n 10 python tests/bench/time_guarantee.py

Positions: 3 x 3, 5 x 5 and 9 x 9 boxes, an opening, a middle game and an
endgame of each (casual against casual from the empty board, ``--seeds`` games
a size).  Every level that thinks (club, expert, master, and the hint, which is
the master at that budget plus its explanation) moves in every position at
every budget, as in real play (hard stop on, fresh tables): first on the
machine as it is ("quiet"), then with ``N`` busy-loop processes per core
(``--loads``, default 2 and 6), started here at this process's niceness.

``partial`` instead measures the rule a stopped search answers by: on solved
3 x 3, 4 x 3 and 4 x 4 positions and node limits that stop a search inside an
iteration, whenever the best move of the last finished iteration and the move
leading the unfinished one differ, the boxes each loses against the solver::

    nice -n 10 python tests/bench/time_guarantee.py partial

Per budget and load it prints the median, 95th percentile and maximum of wall
time / budget (and of CPU time / budget), the moves over budget + 10 %, how
often the loaded move equals the quiet one, and the boxes lost against the
solver's best (where the solver settles the position and the moves) by the
quiet and by the loaded moves.  Then the first move of a fresh engine process
(``python -m dotsboxes.engine``: ``size``, then ``go ... movetime``), timed
from the ``go`` line to the ``bestmove`` line, at the smallest budget.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import backend_name, players, solver
from dotsboxes.engine.analysis import arrays
from dotsboxes.engine.search import _Abort, _Searcher, s_moves
from dotsboxes.rules import Board, Edge

ROOT = Path(__file__).resolve().parents[2]
PHASES = ("opening", "middle", "endgame")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def positions(width: int, height: int, seed: int) -> dict[str, Board]:
    """An opening (a tenth of the edges drawn), a middle game (two fifths) and an
    endgame (the first position with at most three safe edges left), casual play."""
    board = Board(width, height)
    found: dict[str, Board] = {}
    n = len(board.edges)
    rng = random.Random(seed)
    while not board.is_over() and len(found) < 3:
        drawn = n - len(board.legal_moves)
        safe = sum(1 for e in board.legal_moves if players.is_safe(board, e))
        if "opening" not in found and drawn >= n // 10:
            found["opening"] = board.copy()
        if "middle" not in found and drawn >= 2 * n // 5:
            found["middle"] = board.copy()
        if "endgame" not in found and safe <= 3 and len(board.legal_moves) > 2:
            found["endgame"] = board.copy()
        board.push(players.choose(board, level="casual", seed=rng.randrange(10**6)))
    return found


def move(board: Board, level: str, budget: float) -> tuple[Edge, float, float]:
    """The level's edge, with its wall and CPU seconds (fresh tables, hard stop on)."""
    start, start_cpu = time.perf_counter(), time.thread_time()
    if level == "hint":
        edge = players.hint(board, budget=budget).edge
    else:
        edge = players.choose(board, level=level, budget=budget, seed=0)
    return edge, time.perf_counter() - start, time.thread_time() - start_cpu


def start_load(per_core: int) -> list[subprocess.Popen]:
    count = per_core * (os.cpu_count() or 2)
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def stop_load(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def fresh_process_move(board: Board, budget: float) -> float:
    """Seconds from ``go`` to ``bestmove`` for a new engine process's first move."""
    engine = subprocess.Popen(
        [sys.executable, "-m", "dotsboxes.engine"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    try:
        assert engine.stdin and engine.stdout
        engine.stdin.write(f"size {board.width} {board.height}\nid\n")
        engine.stdin.flush()
        while not engine.stdout.readline().startswith("id "):
            pass  # the engine has read the size and is ready
        start = time.perf_counter()
        engine.stdin.write(f"go level master movetime {max(1, round(budget * 1000))}\n")
        engine.stdin.flush()
        while not engine.stdout.readline().startswith("bestmove"):
            pass
        return time.perf_counter() - start
    finally:
        engine.kill()
        engine.wait()


def move_value(board: Board, edge: Edge, seconds: float) -> int | None:
    """The mover's margin after drawing ``edge`` (solver), ``None`` if not settled."""
    claimed = board.claims(edge)
    board.push(edge)
    try:
        rest = 0 if board.is_over() else solver.value(board, budget=seconds)
    finally:
        board.pop()
    if rest is None:
        return None
    return claimed + rest if claimed else -rest


def stopped_answers(board: Board, nodes: int, playouts: int) -> tuple[Edge, Edge, bool] | None:
    """The search's loop (search.search) by hand: the finished iteration's best move
    (the first in order if none finished) and the unfinished one's leader when
    ``nodes`` stops it between the two and they differ; and whether one finished."""
    g, drawn, sides = arrays(board)
    rng = random.Random(f"0:leaves:{board.key()}")
    s = _Searcher(g, drawn, sides, max_nodes=nodes, deadline=None, playouts=playouts, rng=rng)
    moves = s_moves(s)
    safe = [i for i in moves if all(sides[b] <= 1 for b in g.edge_boxes[i])]
    random.Random(f"0:{board.key()}").shuffle(safe)
    moves = safe + [i for i in moves if i not in safe]
    if len(moves) == 1 or (3 not in sides and min((x for x in sides if x < 4), default=4) >= 2):
        return None
    done = -1
    for depth in range(1, 65):
        inexact = s.inexact
        try:
            move, _ = s.root(moves, depth)
        except _Abort:
            finished = moves[0] if done < 0 else done  # none finished: the first in order
            if s.partial is None or s.partial[0] == finished:
                return None
            return g.edges[finished], g.edges[s.partial[0]], done >= 0
        done = move
        moves.remove(move)
        moves.insert(0, move)
        if s.inexact == inexact:
            return None  # exact: the search ends by itself
    return None


NODE_LIMITS = (300, 600, 1000, 2000, 4000)


def partial() -> None:
    names = ("finished", "unfinished")
    lost = {k: dict.fromkeys(names, 0) for k in (True, False)}
    better = {k: dict.fromkeys(names, 0) for k in (True, False)}
    cases = dict.fromkeys((True, False), 0)
    for width, height, undrawn in [(3, 3, 18), (3, 3, 16), (4, 3, 22), (4, 3, 20), (4, 4, 24)]:
        for seed in range(25):
            rng = random.Random(seed)
            board = Board(width, height)
            while len(board.legal_moves) > undrawn:
                moves = board.legal_moves
                takes = [e for e in moves if board.claims(e)]
                safe = [e for e in moves if players.is_safe(board, e)]
                board.play(rng.choice(takes or safe or moves))
            values = None
            for nodes in NODE_LIMITS:
                for playouts in (0, 8):
                    found = stopped_answers(board, nodes, playouts)
                    if found is None:
                        continue
                    *pair, deeper = found
                    values = values or solver.move_values(board, budget=5)
                    if values is None:
                        break
                    top = max(values.values())
                    cases[deeper] += 1
                    for name, edge, other in zip(names, pair, reversed(pair), strict=True):
                        lost[deeper][name] += top - values[edge]
                        better[deeper][name] += values[edge] > values[other]
    for deeper, what in ((True, "an iteration finished"), (False, "none finished")):
        print(f"{cases[deeper]} stops ({what}) where the two moves differ:")
        for name in names:
            print(
                f"  {name:>10} iteration's move: {lost[deeper][name]} boxes lost, "
                f"better in {better[deeper][name]}"
            )


def main() -> None:
    if sys.argv[1:2] == ["partial"]:
        if sys.argv[2:3]:
            global NODE_LIMITS
            NODE_LIMITS = tuple(int(n) for n in sys.argv[2].split(","))
        partial()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="0.05,0.25,1,2")
    parser.add_argument("--levels", default="club,expert,master,hint")
    parser.add_argument("--sizes", default="3x3,5x5,9x9")
    parser.add_argument("--seeds", type=int, default=1, help="games (positions) per size")
    parser.add_argument("--loads", default="2,6", help="busy processes per core")
    parser.add_argument("--solve", type=float, default=2.0, help="solver seconds per value")
    parser.add_argument("--worst", type=int, default=0, help="list the slowest moves")
    args = parser.parse_args()
    budgets = [float(b) for b in args.budgets.split(",")]
    levels = args.levels.split(",")
    loads = [0] + [int(n) for n in args.loads.split(",") if n]
    boards: list[tuple[str, Board]] = []
    for size in args.sizes.split(","):
        width, height = (int(n) for n in size.split("x"))
        for seed in range(args.seeds):
            for phase, board in positions(width, height, seed).items():
                boards.append((f"{size} {phase} {seed}", board))
    print(
        f"backend {backend_name()}, {len(boards)} positions, levels {', '.join(levels)}, "
        f"{os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for _, board in boards:  # imports and per-size tables: the fresh-process runs time those
        players.choose(board, level="master", budget=0.01)
    # results[load][budget] = list of (position index, level, edge, wall, cpu)
    results: dict[int, dict[float, list]] = {}
    fresh: dict[int, list[tuple[str, float]]] = {}
    for load in loads:
        procs = start_load(load) if load else []
        try:
            time.sleep(0.5 if load else 0)
            la = os.getloadavg()[0]
            results[load] = {b: [] for b in budgets}
            for budget in budgets:
                for i, (_, board) in enumerate(boards):
                    for level in levels:
                        edge, wall, cpu = move(board, level, budget)
                        results[load][budget].append((i, level, edge, wall, cpu))
            fresh[load] = []
            for size in args.sizes.split(","):
                width, height = (int(n) for n in size.split("x"))
                wall = fresh_process_move(Board(width, height), min(budgets))
                fresh[load].append((size, wall))
            print(f"load {load} per core done (load average {la:.1f} at its start)", flush=True)
        finally:
            stop_load(procs)
    # The solver's values of every move played, on the quiet machine.
    values: dict[tuple[int, Edge], int | None] = {}
    best: dict[int, int | None] = {}
    for i, (_, board) in enumerate(boards):
        best[i] = solver.value(board, budget=args.solve)
    for per_budget in results.values():
        for rows in per_budget.values():
            for i, _, edge, _, _ in rows:
                if (i, edge) not in values and best[i] is not None:
                    values[i, edge] = move_value(boards[i][1], edge, args.solve)
    settled = sum(v is not None for v in best.values())
    print(f"solver settles {settled} of {len(boards)} positions in {args.solve} s")
    print(
        "load/core budget  moves  wall/budget med  p95   max   cpu/budget med  p95   "
        "over+10%  same-as-quiet  boxes lost quiet/loaded (moves settled)"
    )
    for load, per_budget in results.items():
        for budget, rows in per_budget.items():
            walls = [r[3] / budget for r in rows]
            cpus = [r[4] / budget for r in rows]
            over = sum(w > 1.1 for w in walls)
            quiet = {(r[0], r[1]): r[2] for r in results[0][budget]}
            same = sum(quiet[r[0], r[1]] == r[2] for r in rows)
            lost_q = lost_l = counted = 0
            for i, level, edge, _, _ in rows:
                q = values.get((i, quiet[i, level]))
                v = values.get((i, edge))
                if best[i] is None or q is None or v is None:
                    continue
                counted += 1
                lost_q += best[i] - q
                lost_l += best[i] - v
            print(
                f"{load:>9} {budget:>6.2f} {len(rows):>6}  "
                f"{statistics.median(walls):>14.2f} {percentile(walls, 0.95):>5.2f} "
                f"{max(walls):>5.2f}   {statistics.median(cpus):>14.2f} "
                f"{percentile(cpus, 0.95):>5.2f}   {over:>8}  {same:>6}/{len(rows):<6}  "
                f"{lost_q:>10}/{lost_l:<6} ({counted})"
            )
    worst = sorted(
        (
            (r[3] / budget, load, budget, r)
            for load, pb in results.items()
            for budget, rows in pb.items()
            for r in rows
        ),
        key=lambda x: -x[0],
    )[: args.worst]
    if worst:
        print("slowest moves (wall/budget, load per core, budget, position, level, wall s, CPU s):")
    for ratio, load, budget, (i, level, _, wall, cpu) in worst:
        print(
            f"  {ratio:6.2f}  {load}  {budget:.2f}  {boards[i][0]:<18} {level:<7} "
            f"{wall:.3f} {cpu:.4f}"
        )
    print(f"fresh engine process, first move at {min(budgets)} s (go to bestmove, wall/budget):")
    for load, rows in fresh.items():
        cells = ", ".join(f"{size} {wall / min(budgets):.2f}" for size, wall in rows)
        print(f"  load {load} per core: {cells}")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

"""Where the master lost its games against Selflocking: the proved value, move by move.

Reads the games ``tests/bench/selflocking.py --record FILE`` wrote and, for
each game asked for (the lost and tied ones by default), solves its positions
from the end backwards (one table per game, so each earlier position starts
from what the later ones proved) until the solver cannot settle one within
``--nodes`` (a node limit, not seconds: the answer does not depend on the
load).  Prints, for each settled position, the final margin it proves for the
master; a master's move after which that margin drops is a mistake, named
with what the master thought of it and the solver's best moves::

    python tests/bench/selflocking_replay.py /work/ext/runs/games-0.05.jsonl

``--rethink`` replays each game with the master thinking at every one of its
positions at ``--movetime`` (node limits only, one table, the game's seed: as
in the match), and at each mistake says whether the move it finds keeps the
value, and how many solver nodes the position needs (fresh table) against the
master's solver limit at that budget.  ``--set NAME=VALUE`` changes a
constant of :mod:`players` first (e.g. ``--set SOLVER_SHARE=1.0``), to try a
variant on the same mistakes; ``--mistakes FILE`` reads the mistakes an
earlier ``--out FILE`` wrote instead of solving the games again::

    python tests/bench/selflocking_replay.py games.jsonl --out mistakes.json
    python tests/bench/selflocking_replay.py games.jsonl --mistakes mistakes.json \\
        --rethink --movetime 0.02 --set SOLVER_SHARE=1.0
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import backend_name, players, solver
from dotsboxes.rules import Board, Edge, Player


def positions(edges: list[str]) -> list[Board]:
    """The board before each edge of the game."""
    board = Board(5, 5)
    out = []
    for name in edges:
        out.append(board.copy())
        board.play(Edge.parse(name))
    return out


def master_margin(board: Board, value: int, master: Player) -> int:
    """The final margin for the master that ``value`` (for the side to move) proves."""
    blue, red = board.scores
    now = blue - red if master is Player.BLUE else red - blue
    return now + (value if board.turn is master else -value)


def replay(game: dict, nodes: int, megabytes: int) -> list[dict]:
    """Each master's move in the settled part of the game that lost boxes."""
    master = Player.BLUE if game["master_first"] else Player.RED
    names = [e[0] for e in game["edges"]]
    boards = positions(names)
    table = solver.Table(megabytes=megabytes)
    proved: dict[int, tuple[int, tuple[Edge, ...]]] = {}
    for i in range(len(boards) - 1, -1, -1):
        start = time.process_time()
        solution = solver.solve(boards[i], max_nodes=nodes, table=table)
        if solution is None:
            print(f"  ply {i + 1}: {60 - i} undrawn, not settled in {nodes:,} nodes")
            break
        proved[i] = (master_margin(boards[i], solution.value, master), solution.best)
        spent = time.process_time() - start
        if spent > 1:
            print(f"  ply {i + 1}: {60 - i} undrawn, settled in {spent:.1f} s CPU", flush=True)
    final = game["margin"]
    mistakes = []
    for i in sorted(proved):
        after = proved[i + 1][0] if i + 1 in proved else final
        before, best = proved[i]
        mover = "master" if boards[i].turn is master else "engine"
        if after != before:
            entry = {
                "ply": i + 1,
                "undrawn": 60 - i,
                "mover": mover,
                "edge": names[i],
                "before": before,
                "after": after,
                "best": [str(e) for e in best],
                "key": boards[i].key(),
                "thought": game["edges"][i][1:],
            }
            print(
                f"  ply {i + 1} ({60 - i} undrawn) {mover} {names[i]}: proved margin "
                f"{before:+d} -> {after:+d}; best {' '.join(entry['best'])}"
                + (f"; master thought {entry['thought']}" if mover == "master" else "")
            )
            if mover == "master":
                mistakes.append(entry)
    if proved:
        first = min(proved)
        print(f"  earliest settled: ply {first + 1}, proved margin {proved[first][0]:+d}")
    return mistakes


def rethink(game: dict, mistakes: list[dict], movetime: float) -> None:
    """Play ``game`` again through the master at ``movetime`` and judge it at ``mistakes``."""
    at = {m["ply"]: m for m in mistakes}
    master = players.Game()
    board = Board(5, 5)
    for ply, entry in enumerate(game["edges"], start=1):
        if len(entry) > 1:  # the master's move: think, as in the match
            thought = master.think(board, budget=movetime, seed=game["seed"], hard_stop=False)
            if ply in at:
                m = at[ply]
                m["rethink"] = str(thought.edge) in m["best"]
                # From a fresh table (the game's table knows the answer by now if
                # the master found it; measured, it saves the solver little here).
                need = solver.solve(board, max_nodes=50_000_000, table=solver.Table())
                limit = int(movetime * players.SOLVER_SHARE * players.SOLVER_RATE)
                print(
                    f"  ply {ply} ({60 - ply + 1} undrawn): again at {movetime:g} s "
                    f"{thought.edge}, keeps the value: {m['rethink']}; the solver needs "
                    f"{f'{need.nodes:,}' if need else 'over 50,000,000'} nodes "
                    f"(the master's limit {limit:,})",
                    flush=True,
                )
        board.play(Edge.parse(entry[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", help="a file selflocking.py --record wrote")
    parser.add_argument("--games", type=int, nargs="*", help="game numbers (default: not won)")
    parser.add_argument("--nodes", type=int, default=30_000_000, help="solver nodes a position")
    parser.add_argument("--megabytes", type=int, default=1024, help="the solver's table")
    parser.add_argument("--rethink", action="store_true")
    parser.add_argument("--movetime", type=float, default=0.05)
    parser.add_argument("--out", help="write the mistakes found here (JSON)")
    parser.add_argument("--mistakes", help="the mistakes an earlier --out wrote")
    parser.add_argument("--set", action="append", default=[], help="NAME=VALUE in players")
    args = parser.parse_args()
    for setting in args.set:
        name, value = setting.split("=", 1)
        getattr(players, name)  # an unknown name fails here
        setattr(players, name, ast.literal_eval(value))
    print(f"solver backend: {backend_name()}; players changed: {args.set or 'none'}")
    known = json.loads(Path(args.mistakes).read_text()) if args.mistakes else None
    games = [json.loads(line) for line in Path(args.record).read_text().splitlines()]
    chosen = [g for g in games if (g["game"] in args.games if args.games else g["margin"] <= 0)]
    found = []
    for game in chosen:
        side = "first" if game["master_first"] else "second"
        print(f"game {game['game']} (master {side}, margin {game['margin']:+d})", flush=True)
        if known is None:
            mistakes = replay(game, args.nodes, args.megabytes)
        else:
            mistakes = [m for m in known if m["game"] == game["game"]]
        for mistake in mistakes:
            mistake["game"] = game["game"]
        if args.rethink:
            rethink(game, mistakes, args.movetime)
        found += mistakes
    if args.rethink:
        kept = sum(m["rethink"] for m in found)
        print(f"kept the value again at {args.movetime:g} s: {kept} of {len(found)} mistakes")
    if args.out:
        Path(args.out).write_text(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()

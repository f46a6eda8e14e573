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

``--rethink`` plays each mistake position again with the master's own
thinking (:func:`players.Game.think`, node limits only, fresh table) at
``--movetime`` and says whether the move it finds now keeps the value.
"""

from __future__ import annotations

import argparse
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


def rethink(mistake: dict, movetime: float) -> bool:
    """Whether the master, thinking again at ``movetime`` (node limits only), keeps the value."""
    board = Board.from_key(mistake["key"])
    thought = players.Game().think(board, budget=movetime, hard_stop=False)
    return str(thought.edge) in mistake["best"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", help="a file selflocking.py --record wrote")
    parser.add_argument("--games", type=int, nargs="*", help="game numbers (default: not won)")
    parser.add_argument("--nodes", type=int, default=30_000_000, help="solver nodes a position")
    parser.add_argument("--megabytes", type=int, default=1024, help="the solver's table")
    parser.add_argument("--rethink", action="store_true")
    parser.add_argument("--movetime", type=float, default=0.05)
    parser.add_argument("--out", help="write the mistakes found here (JSON)")
    args = parser.parse_args()
    print(f"solver backend: {backend_name()}")
    games = [json.loads(line) for line in Path(args.record).read_text().splitlines()]
    chosen = [g for g in games if (g["game"] in args.games if args.games else g["margin"] <= 0)]
    found = []
    for game in chosen:
        side = "first" if game["master_first"] else "second"
        print(f"game {game['game']} (master {side}, margin {game['margin']:+d})", flush=True)
        for mistake in replay(game, args.nodes, args.megabytes):
            mistake["game"] = game["game"]
            if args.rethink:
                mistake["rethink"] = rethink(mistake, args.movetime)
                print(f"    again at {args.movetime:g} s: keeps the value: {mistake['rethink']}")
            found.append(mistake)
    if args.out:
        Path(args.out).write_text(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()

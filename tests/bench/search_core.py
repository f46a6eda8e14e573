"""The heuristic search's two cores, side by side (a script, not a pytest test).

    nice -n 10 python tests/bench/search_core.py rate --positions 12
    nice -n 10 python tests/bench/search_core.py match --games 40 --budget 0.05 [--native-rate N]

    nice -n 10 python tests/bench/search_core.py diff --positions 2000

``diff``: the differential run of tests/engine/test_native_search.py, larger:
positions where no random number enters (static leaves, at most one safe root
move) must give the same search in both cores (move, value, depth, nodes), and
wherever both call a value exact on the others it must be the same.

``rate``: search nodes per CPU second of the Python search and the C search
on the same 5 x 5 middle-game positions (48, 40 and 32 undrawn edges, safe
edges drawn first), with the master's completions (8 a leaf) and with the
static chain-parity leaves; the ratio.

``match``: master against master at a short budget, colours alternating, on
5 x 5: one side searches in C with the native node rate
(``players.NODE_RATES["native"]``), the other in Python with the Python rate,
as before the C search (``--native-rate`` and ``--native-playouts`` change
the C side's node rate and completions a leaf).  Both use the native solver.
Node limits decide (``hard_stop=False``), so the result is the same on any
machine.  Prints the C side's wins, losses, ties and mean margin, and CPU
seconds per move.
Needs the native extensions.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import _backend, players, search
from dotsboxes.rules import Board


def middle_game(seed: int, undrawn: int) -> Board:
    rng = random.Random(seed)
    board = Board(5, 5)
    while len(board.legal_moves) > undrawn:
        safe = [e for e in board.legal_moves if players.is_safe(board, e)]
        board.play(rng.choice(safe or board.legal_moves))
    return board


def bench_diff(args: argparse.Namespace) -> None:
    from tests.engine.test_native_search import boards

    module = _backend.native_search
    if module is None:
        raise SystemExit("needs the C search")
    rng = random.Random(args.seed)
    same = different = exact_both = exact_different = 0
    start = time.process_time()
    for i, board in enumerate(boards(args.positions, seed=args.seed)):
        nodes = rng.choice((300, 3_000, 10_000))
        moves = search.root_moves(board)
        if sum(players.is_safe(board, e) for e in moves) <= 1:
            python = search.python_search(board, max_nodes=nodes)
            edge, value, depth, used, exact, stopped = module.search(
                search._native_geometry(board.width, board.height),
                module.Table(1 << 21),
                board.edge_bits.to_bytes(16, "little"),
                nodes,
                0,
            )
            native = search.SearchResult(board.edges[edge], value, depth, used, exact, stopped)
            if native == python:
                same += 1
            else:
                different += 1
                print("DIFFERENT SEARCH", board.key(), nodes, python, native)
            continue
        playouts = (0, 8)[i % 2]
        python = search.python_search(board, max_nodes=nodes, playouts=playouts, seed=i)
        native = search.native_search(board, max_nodes=nodes, playouts=playouts, seed=i)
        if native.edge not in board.legal_moves:
            raise SystemExit(f"illegal move {native.edge} in {board.key()}")
        if python.exact and native.exact:
            exact_both += 1
            if python.value != native.value:
                exact_different += 1
                print("DIFFERENT VALUE", board.key(), python, native)
    print(
        f"{args.positions} positions: the same search {same}, different {different}; "
        f"both exact {exact_both}, different values {exact_different}; "
        f"{time.process_time() - start:.0f} s CPU, load average {os.getloadavg()[0]:.1f}"
    )


def bench_rate(args: argparse.Namespace) -> None:
    boards = [middle_game(s, u) for s in range(args.positions // 3) for u in (48, 40, 32)]
    print(f"{len(boards)} positions; load average {os.getloadavg()[0]:.1f}")
    for playouts in (8, 0):
        rates = {}
        for name, run, nodes in (
            ("python", search.python_search, args.python_nodes),
            ("native", search.native_search, args.native_nodes),
        ):
            total, start = 0, time.process_time()
            for board in boards:
                total += run(board, max_nodes=nodes, playouts=playouts).nodes
            rates[name] = total / (time.process_time() - start)
            print(f"  playouts {playouts}, {name}: {rates[name]:,.0f} nodes per CPU second")
        print(f"  ratio native/python: {rates['native'] / rates['python']:.0f}x")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


def bench_match(args: argparse.Namespace) -> None:
    if _backend.native_search is None or _backend.backend_name() != "native":
        raise SystemExit("needs the native extensions and the native backend")
    native_module = _backend.native_search
    rates = dict(players.NODE_RATES)
    if args.native_rate:
        rates["native"] = args.native_rate
    playouts = {"python": players.MASTER_PLAYOUTS, "native": players.MASTER_PLAYOUTS}
    if args.native_playouts:
        playouts["native"] = args.native_playouts
    print(
        f"load average at start {os.getloadavg()[0]:.1f}; budget {args.budget} s; "
        f"completions a leaf: {playouts}"
    )
    margins, cpu = [], {"native": [], "python": []}
    for game in range(args.start, args.start + args.games):
        board = Board(5, 5)
        sides = ("native", "python") if game % 2 == 0 else ("python", "native")
        memories = {"native": players.Game(), "python": players.Game()}
        while not board.is_over():
            core = sides[board.turn.value]
            _backend.native_search = native_module if core == "native" else None
            players.NODE_RATE = rates[core]
            players.MASTER_PLAYOUTS = playouts[core]
            start = time.process_time()
            edge = memories[core].choose(
                board, level="master", budget=args.budget, seed=game, hard_stop=False
            )
            cpu[core].append(time.process_time() - start)
            board.play(edge)
        _backend.native_search = native_module
        blue, red = board.scores
        margin = (blue - red) if sides[0] == "native" else (red - blue)
        margins.append(margin)
        print(
            f"game {game + 1}: C search {'Blue' if sides[0] == 'native' else 'Red'}, "
            f"margin {margin:+d}",
            flush=True,
        )
    wins = sum(m > 0 for m in margins)
    losses = sum(m < 0 for m in margins)
    print(
        f"C search (rate {rates['native']:,}) against Python search (rate {rates['python']:,}): "
        f"{wins} wins, {losses} losses, {len(margins) - wins - losses} ties; mean margin "
        f"{statistics.mean(margins):+.1f}"
    )
    for core, xs in cpu.items():
        print(
            f"  {core}: CPU per move median {statistics.median(xs) * 1000:.1f} ms, "
            f"max {max(xs) * 1000:.1f} ms"
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("diff", "rate", "match"))
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--python-nodes", type=int, default=20_000)
    parser.add_argument("--native-nodes", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument(
        "--native-rate", type=int, help="the C side's node rate (default: the engine's)"
    )
    parser.add_argument(
        "--native-playouts", type=int, help="the C side's completions a leaf (default: master's)"
    )
    parser.add_argument("--start", type=int, default=0, help="the first game's seed")
    parser.add_argument("--budget", type=float, default=0.05)
    args = parser.parse_args()
    {"diff": bench_diff, "rate": bench_rate, "match": bench_match}[args.what](args)


if __name__ == "__main__":
    main()

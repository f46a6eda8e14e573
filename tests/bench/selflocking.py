"""Master at time odds against the public C++ UCT engine Selflocking/DotsAndBoxes.

Not a pytest module, and the C++ engine is not part of this project: fetch
https://github.com/Selflocking/DotsAndBoxes yourself, build its protocol
front end (``test/xieyi.cpp`` with ``src/AI/*.cpp``) outside this repository,
with ``UCT_LIMIT_TIME`` in ``src/AI/define.h`` set to the seconds it should
think (its clock is the process's CPU time, read with ``clock()``, so a
loaded machine does not weaken it).  The game recorder it links
(``src/CJSON/datarecorder.cpp``) needs a library we do not use and can be
replaced by empty functions.  Then, from this repository's root::

    nice -n -10 python tests/bench/selflocking.py --engine /path/to/binary \\
        --games 40 --movetime 0.05 --record games.jsonl

On a shared machine give the match priority (its clock is CPU time, the
master's is wall time): as root ``nice -n -10``, and where the kernel groups
processes by session (``/proc/sys/kernel/sched_autogroup_enabled``), nice
counts only inside the group, so also ``echo -10 > /proc/PID/autogroup``.
The games ``--record`` keeps are what ``selflocking_replay.py`` analyses.

The engine plays 5 x 5 boxes only.  Its protocol: ``new black|white``, then
``move N EDGES`` each way, one line per turn with every edge of that turn,
three letters an edge (``A`` row column for a horizontal edge, ``B`` column
row for a vertical one).  Colours alternate game by game; the master keeps its
transposition table across the moves of a game (:class:`players.Game`), as the
protocol and the web app's workers do.  Prints each game and the totals: wins,
margins as first and as second player, and the master's seconds per move.
``--record FILE`` appends each game to FILE as one JSON line (its edges in
order, who drew each, and for the master's its seconds, value and whether the
solver proved it), to replay lost games with the solver.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import players
from dotsboxes.rules import Board, Edge, Player


def to_engine(edge: Edge) -> str:
    """Our edge in the C++ engine's three letters (a reflection of the board, which
    keeps every box's four sides together)."""
    if edge.horizontal:
        return "A" + chr(65 + edge.y) + chr(65 + edge.x)
    return "B" + chr(65 + edge.x) + chr(65 + edge.y)


def from_engine(text: str) -> Edge:
    a, b = ord(text[1]) - 65, ord(text[2]) - 65
    if text[0] == "A":
        return Edge(b, a, horizontal=True)
    return Edge(a, b, horizontal=False)


class EngineFault(Exception):
    """The C++ engine broke the rules (seen at 2 s: edges after a move that claimed
    nothing, its own board out of step with the game): the game is void."""


class Opponent:
    """One game's C++ engine process."""

    def __init__(self, binary: str) -> None:
        self.proc = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def reply(self) -> list[Edge]:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the C++ engine stopped answering")
            words = line.split()
            if words and words[0] == "move":
                text = words[2] if len(words) > 2 else ""
                return [from_engine(text[i : i + 3]) for i in range(0, len(text), 3)]

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play_game(
    binary: str, master_first: bool, budget: float, seed: int, hard_stop: bool = True
) -> tuple[int, list, list]:
    """The master's final margin, its seconds per move, and the game's record
    (one entry an edge: its name, and for the master's edges the seconds, the
    value the master gave it and whether the solver proved it)."""
    board = Board(5, 5)
    # Master keeps its table across the moves of a game (as the protocol does).
    game = players.Game()
    ours = Player.BLUE if master_first else Player.RED
    times: list[float] = []
    record: list = []
    opponent = Opponent(binary)
    try:
        opponent.send("new white" if master_first else "new black")
        while not board.is_over():
            if board.turn is ours:
                turn: list[Edge] = []
                while board.turn is ours and not board.is_over():
                    start = time.perf_counter()
                    thought = game.think(board, budget=budget, seed=seed, hard_stop=hard_stop)
                    times.append(time.perf_counter() - start)
                    edge = thought.edge
                    record.append([str(edge), round(times[-1], 4), thought.value, thought.proved])
                    board.play(edge)
                    turn.append(edge)
                if not board.is_over():
                    opponent.send(f"move {len(turn)} {''.join(map(to_engine, turn))}")
            else:
                for edge in opponent.reply():
                    if board.turn is ours:
                        raise EngineFault("the C++ engine moved on after its turn had ended")
                    board.play(edge)
                    record.append([str(edge)])
    finally:
        opponent.close()
    blue, red = board.scores
    return (blue - red if master_first else red - blue), times, record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="the C++ engine's protocol binary")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--movetime", type=float, default=0.1, help="master's seconds per move")
    # The C++ engine's clock is its CPU time; node limits alone are the master's
    # equivalent (its budget as an unloaded machine spends it), whatever the load.
    parser.add_argument("--no-hard-stop", dest="hard_stop", action="store_false")
    parser.add_argument("--record", help="append each game to this file as a JSON line")
    args = parser.parse_args()
    margins: dict[bool, list[int]] = {True: [], False: []}
    times: list[float] = []
    seed = voids = 0
    while len(margins[True]) + len(margins[False]) < args.games:
        first = (len(margins[True]) + len(margins[False])) % 2 == 0
        seed += 1
        try:
            margin, used, record = play_game(
                args.engine, first, args.movetime, seed=seed, hard_stop=args.hard_stop
            )
        except EngineFault as fault:  # replayed with the next seed, same colours
            voids += 1
            print(f"void game (seed {seed}): {fault}", flush=True)
            continue
        margins[first].append(margin)
        times += used
        n = len(margins[True]) + len(margins[False])
        load = os.getloadavg()[0]
        print(
            f"game {n}: master {'first ' if first else 'second'} {margin:+d}  "
            f"(s per move median {statistics.median(used):.3f} max {max(used):.3f}, "
            f"load {load:.1f})",
            flush=True,
        )
        if args.record:
            with open(args.record, "a") as out:
                line = {"game": n, "seed": seed, "master_first": first, "margin": margin}
                line |= {"movetime": args.movetime, "load": load, "edges": record}
                out.write(json.dumps(line) + "\n")
    print(f"void games (the C++ engine broke the rules): {voids}")
    every = margins[True] + margins[False]
    wins = sum(m > 0 for m in every)
    print(
        f"\nmaster at {args.movetime:.3f} s vs Selflocking: {wins} wins, "
        f"{sum(m < 0 for m in every)} losses, {sum(m == 0 for m in every)} ties "
        f"of {len(every)} ({100 * wins / len(every):.0f} %)"
    )
    for first in (True, False):
        if margins[first]:
            m = margins[first]
            print(
                f"  as {'first ' if first else 'second'} player: mean margin "
                f"{statistics.mean(m):+.1f}, min {min(m):+d}, wins {sum(x > 0 for x in m)}/{len(m)}"
            )
    print(
        f"  master s per move: median {statistics.median(times):.3f}  "
        f"p95 {percentile(times, 0.95):.3f}  max {max(times):.3f}"
    )
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

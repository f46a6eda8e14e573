"""Re-prove every shipped puzzle with the solver, and time it.

Not a pytest module (no ``test_`` prefix).  Run from the repository root::

    nice -n 10 python tests/bench/puzzles.py [--rebuild] [--exact]

For each puzzle in ``dotsboxes/puzzles/data/puzzles.json``: re-solve every
player step of its line from a fresh solver table (the answer is still the
unique best family and every other move still loses two boxes or more, as
``tests/puzzles/test_shipped_set.py`` checks on a sample).  Prints the count,
the total CPU seconds, and the median and p95 per puzzle, by size.
``--exact`` also checks every step against every legal move's exact value
(``solver.move_values``: the answers, the boxes each wrong move is said to
lose, the replies).  ``--rebuild`` also times building the seed set from
scratch (without writing it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine.solver import Table
from dotsboxes.puzzles import build
from tests.puzzles.test_shipped_set import reprove, reprove_exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--exact", action="store_true", help="also every move's exact value")
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.rebuild:
        started = time.process_time()
        records = build.seed_set(progress=print)
        print(f"built {len(records)} puzzles in {time.process_time() - started:.1f} CPU s")
    records = build.read()
    _timed(records, lambda rec: reprove(rec, Table()), "re-proved (close_moves)")
    if args.exact:
        _timed(records, reprove_exact, "re-proved (every move's exact value)")


def _timed(records: list[dict], check, label: str) -> None:
    times: dict[str, list[float]] = defaultdict(list)
    started = time.process_time()
    for rec in records:
        t = time.process_time()
        check(rec)
        times[f"{rec['width']}x{rec['height']}"].append(time.process_time() - t)
    total = time.process_time() - started
    print(f"{label}: {len(records)} puzzles in {total:.1f} CPU s")
    for size, values in sorted(times.items()):
        values.sort()
        p95 = values[int(0.95 * (len(values) - 1))]
        print(
            f"{size}: {len(values)} puzzles, median {statistics.median(values) * 1000:.1f} ms,"
            f" p95 {p95 * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()

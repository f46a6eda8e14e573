"""Benchmark: time from saving a study chapter to its claim's badge (a script, not a test).

    nice -n 10 python tests/bench/study_claims.py embedded --positions 20
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dotsboxes_studies \\
    REDIS_URL=redis://127.0.0.1:6379/8 ENGINE_QUEUE=1 \\
    nice -n 10 python tests/bench/study_claims.py workers --positions 20 --workers 1

Each position is a 5 x 5 board with 34 undrawn edges, reached by two club players
(seeded).  A chapter starting there claims that the club player's next edge is a
best move (``!``).  Saving it (:func:`dotsboxes.studies.services.chapter_save_text`)
asks for the check; the clock stops when the check is stored and the badge can be
shown (what the author's page polls for).  One chapter at a time: this is the
latency an author sees, with the solver's full ``STUDY_CHECK_SECONDS`` (20 s) when
it does not settle.

``embedded`` is the default deployment (SQLite in a temporary file, the job in a
thread of this process, the engine in its background process pool).  ``workers``
runs the job in ``manage.py engine_worker --lane background`` processes started
here (needs ``ENGINE_QUEUE=1``, ``REDIS_URL`` and ``DATABASE_URL``).  Prints each
position's time and badge, then medians and p95s; the solver's own time is printed
beside it (what the check spent in the engine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
UNDRAWN = 34


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def positions(n: int) -> list[tuple[str, str]]:
    """(position key, the edge claimed best) for ``n`` seeded club games at 34 undrawn."""
    from dotsboxes.engine.players import choose
    from dotsboxes.rules import Board

    found, seed = [], 0
    while len(found) < n:
        board = Board(5, 5)
        while len(board.legal_moves) > UNDRAWN and not board.is_over():
            board.play(choose(board, level="club", seed=seed, hard_stop=False))
        seed += 1
        if len(board.legal_moves) != UNDRAWN:
            continue  # a capture jumped past 34: the next game
        start = Board.from_key(board.key())
        found.append((start.key(), str(choose(start, level="club", seed=seed, hard_stop=False))))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("embedded", "workers"))
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
    if args.mode == "embedded":
        for name in ("DATABASE_URL", "REDIS_URL", "ENGINE_QUEUE"):
            os.environ.pop(name, None)
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    elif not (os.environ.get("ENGINE_QUEUE") and os.environ.get("REDIS_URL")):
        sys.exit("workers: set ENGINE_QUEUE=1, REDIS_URL and DATABASE_URL")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from dotsboxes.studies import checks, services
    from dotsboxes.studies.models import Chapter, PositionCheck, Study

    PositionCheck.objects.all().delete()  # cold: nothing checked before
    owner, _ = get_user_model().objects.get_or_create(username="bench-author")
    study = Study.objects.create(owner=owner, title="bench")
    workers = []
    if args.mode == "workers":
        for _ in range(args.workers):
            workers.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "engine_worker", "--lane", "background"],
                    cwd=ROOT,
                    start_new_session=True,
                )
            )
        time.sleep(5)  # the workers import Django and connect
    cases = positions(args.positions)
    print(f"{len(cases)} positions of 5 x 5 at {UNDRAWN} undrawn edges", flush=True)
    waits, solver_times, badges = [], [], {}
    try:
        for n, (key, edge) in enumerate(cases, start=1):
            chapter = Chapter.objects.create(study=study, number=n, title=f"p{n}", text="")
            text = f"Chapter: p{n}\nSize: 5 x 5 boxes\nPosition: {key}\n\n1. {edge} !\n"
            started = time.perf_counter()
            services.chapter_save_text(chapter=chapter, text=text, version=chapter.version)
            while True:
                row = PositionCheck.objects.filter(key=key).first()
                if row is not None and row.status in ("done", "failed"):
                    break
                time.sleep(0.02)
            chapter.refresh_from_db()
            judged = [
                checks.verdict(c, checks.rows_for([key])) for c in checks.claims(chapter.parsed())
            ]
            badge = checks.badge(judged)
            waited = time.perf_counter() - started
            waits.append(waited)
            solver_times.append(row.seconds or 0.0)
            badges[badge] = badges.get(badge, 0) + 1
            print(
                f"{n:3d} {key:40s} {edge:6s} {badge:10s} badge after {waited:6.2f} s "
                f"(solver {row.seconds or 0:.2f} s)",
                flush=True,
            )
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
    print(f"mode {args.mode}: badges {badges}")
    print(
        f"time to the badge: median {statistics.median(waits):.2f} s, p95 {p95(waits):.2f} s, "
        f"max {max(waits):.2f} s"
    )
    print(
        f"solver time: median {statistics.median(solver_times):.2f} s, "
        f"p95 {p95(solver_times):.2f} s"
    )


if __name__ == "__main__":
    main()

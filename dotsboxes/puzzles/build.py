"""Building the puzzle set: seed games, site games, the shipped data file, loading it.

The solver work is in :mod:`dotsboxes.engine.puzzles` (pure); this module turns
its puzzles into records (plain JSON-ready dicts) and records into rows.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from dotsboxes.engine import puzzles as engine
from dotsboxes.engine.solver import Table
from dotsboxes.rules import Board, Edge

#: The shipped set: ``dotsboxes/puzzles/data/puzzles.json``, built by ``build_puzzles --rebuild``.
DATA = Path(__file__).with_name("data") / "puzzles.json"
#: Puzzles per size in the shipped set, mostly 5 x 5 (the site's main size).
TARGETS = {(5, 5): 400, (4, 4): 60, (3, 3): 40}
#: Undrawn edges at most in a candidate position, per size: the solver settles
#: these within :data:`engine.NODES`; more on 4 x 4 was 10 times slower per game.
MAX_UNDRAWN = {(3, 3): 24, (4, 4): 26, (5, 5): 36}
DEFAULT_MAX_UNDRAWN = 30


def position_key(board: Board) -> str:
    return f"{board.width}x{board.height}:{board.key()}"


def record(puzzle: engine.Puzzle, moves: list[Edge], ply: int, table: Table) -> dict | None:
    """A puzzle as a JSON-ready record (``None`` if a refutation cannot be proved)."""
    try:
        wrong = engine.refutations(puzzle.board, puzzle.line, table=table)
    except RuntimeError:
        return None
    return {
        "position_key": position_key(puzzle.board),
        "width": puzzle.board.width,
        "height": puzzle.board.height,
        "moves": [str(e) for e in moves[:ply]],
        "line": [s.as_dict() for s in puzzle.line],
        "wrong": wrong,
        "themes": puzzle.themes,
        "rating": engine.initial_rating(puzzle.board, puzzle.line),
        "version": engine.VERSION,
    }


def from_game(width: int, height: int, edges: list[Edge]) -> Iterator[tuple[int, dict]]:
    """Every puzzle record of one game, with its ply; a fresh solver table per game,
    so a game gives the same puzzles whatever was built before it."""
    table = Table()
    limit = MAX_UNDRAWN.get((width, height), DEFAULT_MAX_UNDRAWN)
    for ply, puzzle in engine.candidates(width, height, edges, max_undrawn=limit, table=table):
        rec = record(puzzle, edges, ply, table)
        if rec is not None:
            yield ply, rec


def seed_set(
    targets: dict[tuple[int, int], int] = TARGETS,
    *,
    progress: Callable[[str], None] | None = None,
) -> list[dict]:
    """The seed set: self-play games with seeds 0, 1, 2... per size until each target.

    Reproducible: the same targets give the same records, in the same order.
    """
    records: list[dict] = []
    seen: set[str] = set()
    for (width, height), target in targets.items():
        count, seed, started = 0, 0, time.process_time()
        while count < target:
            edges = engine.selfplay(width, height, seed)
            for ply, rec in from_game(width, height, edges):
                if count >= target or rec["position_key"] in seen:
                    continue
                seen.add(rec["position_key"])
                rec.update(source="selfplay", seed=seed, ply=ply)
                records.append(rec)
                count += 1
            seed += 1
        if progress is not None:
            spent = time.process_time() - started
            progress(
                f"{width}x{height}: {count} puzzles from {seed} seed games, "
                f"{spent:.1f} CPU s ({spent / max(count, 1):.3f} s per puzzle)"
            )
    return records


def write(records: list[dict], path: Path = DATA) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # One record per line: diffs of a rebuilt set stay readable.
    lines = ",\n".join(json.dumps(r, sort_keys=True, separators=(",", ":")) for r in records)
    path.write_text(f"[\n{lines}\n]\n")


def read(path: Path = DATA) -> list[dict]:
    return json.loads(path.read_text()) if path.exists() else []


_FIELDS = ("width", "height", "moves", "line", "wrong", "themes", "version")


def load(records: list[dict], model, *, game=None) -> tuple[int, int]:
    """Create missing puzzles and refresh the proved fields of known ones.

    Ratings, statistics and the hidden flag of a known puzzle are kept: a
    rebuild never undoes what players and administrators did.  ``model`` is
    the Puzzle model (the data migration passes its historical one).  Returns
    (created, updated).
    """
    known = {
        p.position_key: p
        for p in model.objects.filter(position_key__in=[r["position_key"] for r in records])
    }
    created = updated = 0
    fresh = []
    for rec in records:
        row = known.get(rec["position_key"])
        if row is None:
            fresh.append(
                model(
                    position_key=rec["position_key"],
                    source=rec.get("source", "selfplay"),
                    seed=rec.get("seed"),
                    game=game,
                    ply=rec["ply"],
                    rating=rec["rating"],
                    **{f: rec[f] for f in _FIELDS},
                )
            )
            created += 1
        elif any(getattr(row, f) != rec[f] for f in _FIELDS):
            for f in _FIELDS:
                setattr(row, f, rec[f])
            row.save(update_fields=list(_FIELDS))
            updated += 1
    model.objects.bulk_create(fresh, batch_size=200)
    return created, updated

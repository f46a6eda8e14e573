"""``manage.py build_puzzles``: load the shipped set and add puzzles from the site's games.

* no option: load ``dotsboxes/puzzles/data/puzzles.json`` (idempotent: known
  puzzles keep their ratings and statistics), then look through finished site
  games not looked at before and add their puzzles;
* ``--rebuild``: first rebuild the data file from the self-play seeds
  (reproducible: the same targets give the same file); seed puzzles no longer
  in the file are hidden (their attempts stay);
* ``--games N``: at most N site games per run (default 200); ``--no-games``: none.

Run it with ``nice``: it is solver work.  Cron it to let the set grow as games are played.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand
from django.db import transaction

from dotsboxes.games.models import Game
from dotsboxes.puzzles import build
from dotsboxes.puzzles.models import Puzzle, ScannedGame


class Command(BaseCommand):
    help = "Build the puzzle set from self-play seeds and the site's finished games."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rebuild", action="store_true", help="rebuild the data file first")
        parser.add_argument("--target-5x5", type=int, default=build.TARGETS[5, 5])
        parser.add_argument("--target-4x4", type=int, default=build.TARGETS[4, 4])
        parser.add_argument("--target-3x3", type=int, default=build.TARGETS[3, 3])
        parser.add_argument("--games", type=int, default=200, help="site games per run, at most")
        parser.add_argument("--no-games", action="store_true", help="skip the site's games")

    def handle(self, *args, **options) -> None:
        if options["rebuild"]:
            targets = {
                (5, 5): options["target_5x5"],
                (4, 4): options["target_4x4"],
                (3, 3): options["target_3x3"],
            }
            started = time.perf_counter()
            records = build.seed_set(targets, progress=self.stdout.write)
            build.write(records)
            self.stdout.write(
                f"wrote {len(records)} puzzles to {build.DATA} "
                f"in {time.perf_counter() - started:.1f} s"
            )
        records = build.read()
        with transaction.atomic():
            created, updated = build.load(records, Puzzle)
            # A rebuilt file can drop a seed puzzle (a rule changed): stop serving it,
            # but keep its row, its attempts and the players' histories.
            retired = (
                Puzzle.objects.filter(source=Puzzle.Source.SELFPLAY, hidden=False)
                .exclude(position_key__in=[r["position_key"] for r in records])
                .update(hidden=True)
            )
        self.stdout.write(f"shipped set: {created} new, {updated} updated, {retired} retired")
        if not options["no_games"]:
            self.scan_games(options["games"])

    def scan_games(self, limit: int) -> None:
        done = ScannedGame.objects.values("game_id")
        games = (
            Game.objects.filter(status=Game.Status.FINISHED, start_key="")
            .exclude(pk__in=done)
            .order_by("pk")[:limit]
        )
        total = 0
        for game in games:
            edges = _edges(game)
            records = []
            for ply, rec in build.from_game(game.width, game.height, edges):
                rec.update(source=Puzzle.Source.GAME, seed=None, ply=ply)
                records.append(rec)
            with transaction.atomic():
                created, _ = build.load(records, Puzzle, game=game)
                ScannedGame.objects.create(game=game, found=created)
            total += created
        self.stdout.write(f"site games: {len(games)} looked at, {total} new puzzles")


def _edges(game: Game):
    from dotsboxes.rules import Edge

    return [Edge.parse(m) for m in game.moves.order_by("ply").values_list("edge", flat=True)]

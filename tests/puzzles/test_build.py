"""build_puzzles: idempotent, puzzles from site games once each, linked to the replay."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from dotsboxes.puzzles import build
from dotsboxes.puzzles.models import Puzzle, ScannedGame
from tests.gamefactory import played_game

pytestmark = pytest.mark.django_db


def _run(*args) -> str:
    out = StringIO()
    call_command("build_puzzles", *args, stdout=out)
    return out.getvalue()


def test_loading_the_shipped_set_again_keeps_ratings_and_the_hidden_flag():
    puzzle = Puzzle.objects.first()
    Puzzle.objects.filter(pk=puzzle.pk).update(rating=1777, hidden=True, attempts=3)
    count = Puzzle.objects.count()
    out = _run("--no-games")
    assert "shipped set: 0 new, 0 updated, 0 retired" in out
    puzzle.refresh_from_db()
    assert (puzzle.rating, puzzle.hidden, puzzle.attempts) == (1777, True, 3)
    assert Puzzle.objects.count() == count


def test_site_games_give_puzzles_linked_to_their_replay_and_are_looked_at_once():
    # 3 x 2 games: every position solves at once (3 x 3 ones cost seconds each).
    games = [played_game(width=3, height=2, seed=s) for s in range(6)]
    before = Puzzle.objects.count()
    out = _run()
    assert "site games: 6 looked at" in out
    assert ScannedGame.objects.count() == 6
    found = Puzzle.objects.filter(source=Puzzle.Source.GAME)
    assert found.count() == Puzzle.objects.count() - before
    assert found.exists(), "six random 3 x 2 games hold a puzzle"
    puzzle = found.first()
    assert puzzle.game in games
    replay = reverse("games:replay", args=[puzzle.game.public_id])
    assert puzzle.source_url == f"{replay}?ply={puzzle.ply}"
    assert puzzle.moves == [m.edge for m in puzzle.game.moves.order_by("ply")][: puzzle.ply]
    assert "site games: 0 looked at, 0 new puzzles" in _run()


def test_the_admin_lists_statistics_and_hides_puzzles(client):
    admin = get_user_model().objects.create_superuser("root", "r@example.org", "pw-root-12345")
    client.force_login(admin)
    page = client.get(reverse("admin:puzzles_puzzle_changelist")).content.decode()
    assert "success" in page.lower()
    ids = list(Puzzle.objects.values_list("pk", flat=True)[:2])
    client.post(
        reverse("admin:puzzles_puzzle_changelist"),
        {"action": "hide", "_selected_action": ids},
    )
    assert Puzzle.objects.filter(pk__in=ids, hidden=True).count() == 2
    detail = client.get(reverse("admin:puzzles_puzzle_change", args=[ids[0]]))
    assert detail.status_code == 200 and "self-play seed" in detail.content.decode()


def test_a_seed_puzzle_dropped_from_the_file_is_hidden_not_deleted(decline_puzzle):
    # decline_puzzle is a seed puzzle the shipped file does not hold.
    Puzzle.objects.update(hidden=False)
    out = _run("--no-games")
    assert "1 retired" in out
    decline_puzzle.refresh_from_db()
    assert decline_puzzle.hidden
    assert Puzzle.objects.filter(hidden=False).count() == len(build.read())

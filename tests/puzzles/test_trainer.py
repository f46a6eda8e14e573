"""The puzzle trainer through its pages: plain forms, htmx, ratings, bad input."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from dotsboxes.puzzles import services
from dotsboxes.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating

pytestmark = pytest.mark.django_db


def _url(puzzle: Puzzle) -> str:
    return reverse("puzzles:puzzle", args=[puzzle.pk])


def _move(client, puzzle, edge, step=0, **extra):
    return client.post(_url(puzzle), {"edge": edge, "step": str(step)}, **extra)


def _solve(client, puzzle, **extra):
    """Play every one of the player's steps of the line; the last response."""
    response = None
    for step, s in enumerate(puzzle.line):
        if s["player"]:
            response = _move(client, puzzle, s["edge"], step, **extra)
    return response


def test_the_shipped_set_is_loaded_by_the_migration_with_sources_and_themes():
    assert Puzzle.objects.count() >= 500
    sizes = {(p.width, p.height) for p in Puzzle.objects.all()}
    assert {(3, 3), (4, 4), (5, 5)} <= sizes
    assert Puzzle.objects.filter(width=5).count() > Puzzle.objects.count() // 2
    for p in Puzzle.objects.all()[:50]:
        assert 1 <= len(p.themes) <= 3 and p.seed is not None


def test_the_index_serves_a_puzzle_and_the_page_says_who_moves(alice, decline_puzzle):
    response = alice.get(reverse("puzzles:index"))
    assert response.status_code == 302 and response.url == _url(decline_puzzle)
    page = alice.get(response.url).content.decode()
    assert "Red to move: find the best move." in page
    assert 'value="e1-e2"' in page  # an edge button of the clickable board


def test_the_right_edge_solves_the_puzzle_and_raises_both_sides_ratings(alice, decline_puzzle):
    first = _move(alice, decline_puzzle, "e1-e2", HTTP_HX_REQUEST="true").content.decode()
    # Blue's best replies are played for it, then Red takes the last chain.
    assert "Keep going" in first and "The best reply: d1-d2, a2-a3." in first
    last = _solve(alice, decline_puzzle, HTTP_HX_REQUEST="true")
    assert "Puzzle solved!" in last.content.decode()
    response = _move(alice, decline_puzzle, "e1-e2", HTTP_HX_REQUEST="true")
    assert "already solved" in response.content.decode()  # nothing counted twice
    attempt = PuzzleAttempt.objects.get()
    assert attempt.solved and attempt.rating_after > attempt.rating_before
    decline_puzzle.refresh_from_db()
    assert f"This puzzle: {round(decline_puzzle.rating)}." in last.content.decode()
    assert decline_puzzle.attempts == 1 and decline_puzzle.solved == 1
    assert decline_puzzle.rating < 1500  # the puzzle lost its game
    assert services.player_rating(services.Who(None, alice.session)).rating > 1500


def test_a_wrong_edge_shows_the_refutation_and_its_cost_and_a_retry_is_not_rated(
    alice, decline_puzzle
):
    alice.get(_url(decline_puzzle))
    response = _move(alice, decline_puzzle, "d1-d2", follow=True)
    page = response.content.decode()
    assert "Not this one: d1-d2 loses" in page
    wrong = decline_puzzle.wrong[0]["d1-d2"]
    assert wrong["lost"] >= 2
    assert f"loses {wrong['lost']} boxes against best play" in page
    assert "The refutation: " + ", ".join(wrong["line"]) in page
    assert PuzzleAttempt.objects.get().solved is False
    # Retry from the start, and solve: no second rating.
    alice.post(_url(decline_puzzle), {"retry": "1"})
    page = _solve(alice, decline_puzzle, follow=True).content.decode()
    assert "Puzzle solved!" in page
    assert PuzzleAttempt.objects.count() == 1


def test_the_theme_is_shown_on_request_and_after_solving(alice, decline_puzzle):
    page = alice.get(_url(decline_puzzle)).content.decode()
    assert "Decline the last two boxes" not in page
    page = alice.get(_url(decline_puzzle) + "?themes=1").content.decode()
    assert "Decline the last two boxes" in page


@pytest.mark.parametrize(
    ("edge", "step", "message"),
    [
        ("", "0", "Click an edge on the board"),
        ("z9-z10", "0", "is not an edge of this board"),
        ("a1-b1", "0", "already drawn"),
        ("e1-e2", "3", "out of date"),  # a stale tab or a forged step
        ("e1-e2", "x", "out of date"),
    ],
)
def test_bad_input_is_explained_and_changes_nothing(alice, decline_puzzle, edge, step, message):
    alice.get(_url(decline_puzzle))
    before = dict(alice.session[services.STATE_KEY])
    response = alice.post(
        _url(decline_puzzle), {"edge": edge, "step": step}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert alice.session[services.STATE_KEY] == before
    assert not PuzzleAttempt.objects.exists()


def test_a_second_tab_still_showing_the_first_position_is_told_it_is_stale(alice, decline_puzzle):
    alice.get(_url(decline_puzzle))
    _move(alice, decline_puzzle, "e1-e2")  # the first tab moved on to step 3
    before = dict(alice.session[services.STATE_KEY])
    page = _move(alice, decline_puzzle, "d1-d2", 0, HTTP_HX_REQUEST="true").content.decode()
    assert "out of date" in page
    assert alice.session[services.STATE_KEY] == before
    assert not PuzzleAttempt.objects.exists()  # the stale wrong edge was not rated


def test_a_hidden_puzzle_is_not_found_for_players(alice, decline_puzzle):
    decline_puzzle.hidden = True
    decline_puzzle.save()
    assert alice.get(_url(decline_puzzle)).status_code == 404


def test_a_signed_in_player_keeps_a_rating_row_and_a_history(client, decline_puzzle):
    bob = get_user_model().objects.create_user("bob", password="pw-bob-123456")
    client.force_login(bob)
    client.get(_url(decline_puzzle))
    _solve(client, decline_puzzle)
    row = PuzzleRating.objects.get(user=bob)
    assert row.rating > 1500
    page = client.get(reverse("puzzles:history")).content.decode()
    assert f"Puzzle {decline_puzzle.pk}" in page and "Solved" in page


def test_streak_mode_counts_solved_puzzles_and_one_miss_ends_it(alice, decline_puzzle):
    response = alice.get(reverse("puzzles:streak"))
    assert response.url == _url(decline_puzzle)
    alice.get(response.url)
    page = _solve(alice, decline_puzzle, follow=True).content.decode()
    assert "Streak: 1 puzzle solved so far." in page
    assert not PuzzleAttempt.objects.exists()  # streak puzzles are not rated
    # The next streak puzzle must be rated higher: none is left.
    page = alice.get(reverse("puzzles:streak")).content.decode()
    assert "No harder puzzle is left: your streak ends at 1 puzzle." in page
    alice.post(reverse("puzzles:streak"))  # start again
    response = alice.get(reverse("puzzles:streak"))
    alice.get(response.url)
    page = _move(alice, decline_puzzle, "d1-d2", follow=True).content.decode()
    assert "Streak over: 0 puzzles solved." in page


def test_the_home_page_shows_the_daily_puzzle(client, decline_puzzle):
    page = client.get("/").content.decode()
    assert "Daily puzzle" in page and _url(decline_puzzle) in page


def test_puzzle_moves_are_throttled(alice, decline_puzzle, rate_limits):
    rate_limits.RATE_LIMITS = {"puzzle": ("3/h", "100/h")}
    alice.get(_url(decline_puzzle))
    codes = [_move(alice, decline_puzzle, "", HTTP_HX_REQUEST="true").status_code for _ in range(4)]
    assert codes[:3] == [200, 200, 200] and codes[3] == 429


def test_a_board_button_posted_with_the_empty_typed_field_counts_as_the_answer(
    alice, decline_puzzle
):
    # What a browser without JavaScript sends: the clicked button and the text field.
    alice.get(_url(decline_puzzle))
    response = alice.post(_url(decline_puzzle), {"edge": ["e1-e2", ""], "step": "0"}, follow=True)
    assert "Right: e1-e2." in response.content.decode()


def test_the_trainer_reads_in_chinese_with_no_english_left(decline_puzzle):
    from django.test import Client

    from tests.i18n.test_language import ZH, english_words

    client = Client()
    pages = [client.get(_url(decline_puzzle) + "?themes=1", **ZH)]
    pages.append(
        client.post(_url(decline_puzzle), {"edge": "d1-d2", "step": "0"}, follow=True, **ZH)
    )
    pages.append(client.get(reverse("puzzles:history"), **ZH))
    for response in pages:
        html = response.content.decode()
        assert "让双" in html or "做题记录" in html
        assert english_words(html) == []


def test_solving_the_puzzle_a_streak_was_lost_on_does_not_add_to_the_streak(alice, decline_puzzle):
    response = alice.get(reverse("puzzles:streak"))
    alice.get(response.url)
    _move(alice, decline_puzzle, "d1-d2")  # the miss ends the streak at 0
    page = _solve(alice, decline_puzzle, follow=True).content.decode()
    assert "Puzzle solved!" in page  # the board may still be finished, for practice
    assert "Streak over: 0 puzzles solved." in page
    assert services.streak_state(alice.session)["count"] == 0


@pytest.mark.parametrize("rating", [1250.0, 1850.0])
def test_a_new_puzzle_is_served_among_those_rated_nearest_the_player(client, rating):
    # The shipped set spreads from about 1200 to 1900; an anonymous player's
    # rating lives in the session.
    session = client.session
    session[services.RATING_KEY] = [rating, 100.0, 0.06]
    session.save()
    gaps = sorted(abs(p.rating - rating) for p in Puzzle.objects.filter(hidden=False))
    for _ in range(5):
        response = client.get(reverse("puzzles:next"))
        served = Puzzle.objects.get(pk=int(response.url.rstrip("/").rsplit("/", 1)[1]))
        assert abs(served.rating - rating) <= gaps[services.NEAREST - 1]
    page = client.get(response.url).content.decode()
    assert f'Your puzzle rating: <strong data-testid="my-rating">{round(rating)}</strong>' in page


def test_a_shipped_puzzle_links_to_its_seed_game_at_that_position_once_tried(alice):
    # Self-play seed games are not site games (no replay): the analysis board shows
    # the game's edges up to the puzzle, and Undo steps back through them.
    from django.test import RequestFactory

    from dotsboxes.analysis.views import _board_state

    puzzle = Puzzle.objects.filter(source=Puzzle.Source.SELFPLAY, width=5).first()
    page = alice.get(_url(puzzle)).content.decode()
    assert 'data-testid="source"' not in page  # not before the player has tried
    wrong = next(iter(puzzle.wrong[0]))
    page = _move(alice, puzzle, wrong, follow=True).content.decode()
    assert f"From engine self-play, seed {puzzle.seed}, after {puzzle.ply} edges." in page
    link = re.search(r'<a href="([^"]+)" data-testid="source">', page).group(1)
    link = link.replace("&amp;", "&")
    assert link == puzzle.source_url and link.startswith(reverse("analysis:board"))
    board, line, error = _board_state(RequestFactory().get(link))
    assert error == "" and [str(e) for e in line] == puzzle.moves
    assert f"{board.width}x{board.height}:{board.key()}" == puzzle.position_key


def test_the_whole_history_can_be_browsed_page_by_page(alice, decline_puzzle):
    from dotsboxes.puzzles.views import HISTORY_PER_PAGE

    alice.get(_url(decline_puzzle))
    key = alice.session.session_key
    puzzles = list(Puzzle.objects.order_by("pk")[: HISTORY_PER_PAGE + 5])
    PuzzleAttempt.objects.bulk_create(
        PuzzleAttempt(
            puzzle=p,
            session_key=key,
            solved=True,
            rating_before=1500,
            rating_after=1510,
            puzzle_rating_before=1500,
            puzzle_rating_after=1490,
        )
        for p in puzzles
    )
    first = alice.get(reverse("puzzles:history")).content.decode()
    assert first.count("<tr>") == HISTORY_PER_PAGE + 1  # the header row and a full page
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    second = alice.get(reverse("puzzles:history") + "?page=2").content.decode()
    assert second.count("<tr>") == 5 + 1
    shown = set(re.findall(r"Puzzle (\d+)</a>", first + second))
    assert shown == {str(p.pk) for p in puzzles}


def test_fresh_streaks_start_at_random_within_the_lowest_rating_band():
    # Issue 23: every fresh session's streak began with the same puzzle.  With the shipped
    # set, 30 fresh sessions now start at many different puzzles, all of the lowest band.
    from django.test import Client

    lowest = Puzzle.objects.filter(hidden=False).order_by("rating").first().rating
    firsts = set()
    for _ in range(30):
        response = Client().get(reverse("puzzles:streak"))
        firsts.add(int(re.search(r"/(\d+)/$", response.url).group(1)))
    assert len(firsts) >= 8, firsts
    ratings = Puzzle.objects.filter(pk__in=firsts).values_list("rating", flat=True)
    assert max(ratings) <= lowest + services.STREAK_FIRST_BAND


def test_a_puzzle_with_several_best_moves_says_how_many_in_both_languages(client):
    # Issue 23: a puzzle accepting both b3-c3 and c2-c3 asked for "the best move" and said
    # "Every other move loses at least two boxes".  One from the shipped set with two.
    from django.test import Client

    from tests.i18n.test_language import ZH, english_words

    family = next(
        p
        for p in Puzzle.objects.filter(hidden=False).order_by("pk")
        if p.line[0]["player"] and len(p.line[0]["accepted"]) == 2
    )
    page = client.get(_url(family)).content.decode()
    assert "to move: find a best move (2 are equally good)." in page
    assert "Every move but these 2 loses at least two boxes, proved by the solver." in page
    assert "find the best move" not in page and "Every other move" not in page
    page = Client().get(_url(family), **ZH).content.decode()
    assert "共 2 步同样好" in page and "除这 2 步之外" in page
    assert english_words(page) == []

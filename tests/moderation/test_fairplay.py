"""Fair-play figures from stored analyses, the staff's flagged list and decisions.

The population is small (CI): model players on 3 x 2 boxes boards, every position
solved exactly; tests/bench/fairplay.py measures the flag on 1,000s of accounts."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dotsboxes.accounts.models import Rating, RatingChange
from dotsboxes.engine import annotate, solver
from dotsboxes.moderation import evidence, fairplay
from dotsboxes.moderation.models import FairPlayDecision, FairPlayMark, GameFigures
from dotsboxes.reports.models import Report
from dotsboxes.rules import Board, Edge
from tests.moderation.synthetic import make_population
from tests.rooms.conftest import open_room

pytestmark = pytest.mark.django_db
User = get_user_model()


# -- the figures of one game ---------------------------------------------------------------


def entry(ply, side, edge, best, lost=0, exact=True):
    return {"ply": ply, "side": side, "edge": edge, "best": best, "lost": lost, "exact": exact}


def test_only_exact_positions_with_a_real_choice_count_and_stand_in_edges_are_left_out():
    # 1 x 1 boxes: 4 edges, so 4 legal edges at ply 1, 3 at ply 2, ...
    entries = [
        entry(1, "blue", "a1-b1", ["a1-b1", "a1-a2", "b1-b2", "a2-b2"]),  # every edge best
        entry(2, "red", "a1-a2", ["b1-b2"], lost=1),  # a real choice, missed
        entry(3, "blue", "b1-b2", ["b1-b2"]),  # matched... but the computer drew it
        entry(4, "blue", "a2-b2", ["a2-b2"], exact=False),  # estimate: not counted
    ]
    blue = fairplay.game_figures(entries, "blue", width=1, height=1, by_computer=[3])
    red = fairplay.game_figures(entries, "red", width=1, height=1)
    assert (blue.choices, blue.matched, blue.exact, blue.edges) == (0, 0, 1, 2)
    assert (red.choices, red.matched, red.lost) == (1, 0, 1)


def test_real_choices_agree_with_the_solver_on_an_annotated_game():
    """Re-check with the solver: a position counts as a real choice exactly when its
    legal edges do not all have the same value."""
    rng = random.Random(3)
    board, edges = Board(3, 2), []
    while not board.is_over():
        edge = rng.choice(board.legal_moves)
        edges.append(str(edge))
        board.push(edge)
    result = annotate.annotate(3, 2, edges)
    replay = Board(3, 2)
    for e in result["edges"]:
        values = solver.move_values(replay)
        real = len(set(values.values())) > 1
        counted = fairplay.game_figures([e], e["side"], width=3, height=2).choices == 1
        assert counted == real, e
        replay.push(Edge.parse(e["edge"]))


def test_a_few_perfect_games_are_not_enough_to_flag():
    """At the lowest reference miss rate, 10 choices without a miss happen by chance
    more often than the flag allows; 200 do not."""
    assert fairplay.miss_chance(0, 10, fairplay.MIN_MISS) > fairplay.ALPHA
    assert fairplay.miss_chance(0, 200, fairplay.MIN_MISS) < fairplay.ALPHA


# -- a population of model players -------------------------------------------------------------


@pytest.fixture
def population():
    return make_population()


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("sam", is_staff=True))
    return client


def test_the_engine_user_is_flagged_for_staff_only_and_shown_beside_a_report(population, staff):
    people, cheat = population
    page = staff.get(reverse("reports:fairplay")).content.decode()
    flagged = [u.username for u in people if f"/fairplay/{u.username}/" in page]
    assert flagged == []
    assert f"/fairplay/{cheat.username}/" in page
    figures = evidence.player_figures(cheat.pk)
    assert figures.choices >= fairplay.MIN_CHOICES and figures.matched == figures.choices
    assert figures.lost == 0
    assert GameFigures.objects.filter(user=cheat).count() == min(12, fairplay.RECENT_GAMES)
    # ... never to players:
    evidence.fill()
    client = Client()
    client.force_login(cheat)
    for page in (reverse("accounts:profile", args=["cheat"]), "/"):
        text = client.get(page).content.decode()
        assert "fair-play" not in text.lower() and "flag" not in text.lower()
    assert client.get(reverse("reports:fairplay")).status_code == 404
    assert client.get(reverse("reports:fairplay_player", args=["cheat"])).status_code == 404
    decided = client.post(
        reverse("reports:fairplay_decide", args=["cheat"]), {"action": "clear", "reason": "me"}
    )
    assert decided.status_code == 404 and not FairPlayDecision.objects.exists()
    # ... and beside a report of one of its games:
    evidence.fill()
    game = evidence.recent(cheat.pk)[0].game
    report = Report.objects.create(
        game=game,
        width=game.width,
        height=game.height,
        ply=3,
        position_key=game.board(ply=3).key(),
        category="other",
        text="My opponent never misses.",
    )
    page = staff.get(report.get_absolute_url()).content.decode()
    assert "Fair play" in page and "real choices" in page
    assert reverse("reports:fairplay_player", args=["cheat"]) in page


def test_staff_decisions_mark_label_keep_out_of_rated_play_and_void_once(population, staff):
    _people, cheat = population
    evidence.fill()
    window = [row.game_id for row in evidence.recent(cheat.pk)]
    changes = RatingChange.objects.filter(user=cheat, game_id__in=window)
    gained = sum(max(0.0, c.rating_after - c.rating_before) for c in changes)
    assert gained > 0  # the games were rated as they finished
    before = Rating.objects.get(user=cheat).rating
    url = reverse("reports:fairplay_decide", args=["cheat"])
    staff.post(url, {"action": "void", "reason": "engine use"})
    assert Rating.objects.get(user=cheat).rating == pytest.approx(before - gained)
    staff.post(url, {"action": "void", "reason": "again"})
    assert Rating.objects.get(user=cheat).rating == pytest.approx(before - gained)  # once
    first, second = FairPlayDecision.objects.order_by("created_at", "id")
    assert first.details["void"]["points"] == round(gained, 1)
    assert second.details["void"]["points"] == 0 and first.by.username == "sam"
    url = reverse("reports:fairplay_decide", args=["cheat"])
    assert staff.post(url, {"action": "mark", "reason": ""}).status_code == 302
    assert not FairPlayMark.objects.exists()  # no reason, no decision
    staff.post(url, {"action": "mark", "reason": "100 % best edges over 12 games"})
    decision = FairPlayDecision.objects.get(action="mark")
    assert decision.by.username == "sam" and decision.action == "mark"
    assert decision.details["matched"] == decision.details["choices"]
    profile = Client().get(reverse("accounts:profile", args=["cheat"])).content.decode()
    assert "Marked for a fair-play violation." in profile
    client = Client()
    client.force_login(cheat)
    refused = client.post(
        reverse("rooms:create"),
        {
            "width": 2,
            "height": 2,
            "side": "blue",
            "timer": 0,
            "visibility": "public",
            "rated": "on",
        },
    )
    assert refused.status_code == 403 and "unrated games only" in refused.content.decode()
    open_room(client, rated="")  # unrated is fine
    staff.post(url, {"action": "unmark", "reason": "appeal accepted"})
    assert not FairPlayMark.objects.exists()
    page = staff.get(reverse("reports:fairplay_player", args=["cheat"])).content.decode()
    assert "appeal accepted" in page and "100 % best edges over 12 games" in page

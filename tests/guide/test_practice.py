"""Practice answers are checked on the server, explained, and counted."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dotsboxes.guide.models import ExerciseProgress
from dotsboxes.guide.progress import SESSION_KEY

pytestmark = pytest.mark.django_db


def url(slug: str) -> str:
    return reverse("guide:exercise", args=[slug])


def answer(client, slug: str, htmx: bool = True, **data):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url(slug), data, **headers)


def test_a_best_move_is_right_and_explained(alice):
    html = answer(alice, "smallest-first", edge="a3-b3").content.decode()
    assert "Right: a3-b3" in html
    assert "Giving the lone box costs one" in html
    assert "Every move as good as the best: a2-a3, a3-b3" in html
    assert "Next exercise" in html


def test_any_move_of_optimal_value_counts_not_only_the_first_listed(alice):
    html = answer(alice, "smallest-first", edge="a2-a3").content.decode()
    assert "Right: a2-a3" in html


def test_a_worse_move_is_wrong_and_says_how_much_it_costs(alice):
    html = answer(alice, "smallest-first", edge="a1-a2").content.decode()
    assert "Not quite: a1-a2 gives away 4 boxes against best play" in html
    assert "Give the smallest piece first" in html
    assert 'name="edge"' in html  # the board stays answerable


def test_a_typed_edge_in_either_dot_order_is_read(alice):
    html = answer(alice, "leave-two", edge=" E4-e3 ").content.decode()
    assert "Right: e3-e4" in html


def test_a_clicked_board_edge_counts_beside_the_empty_typed_field(alice):
    # Without JavaScript the clicked slot and the blank "type the edge" field post
    # the same name; the blank one came last and the answer was lost.
    html = answer(alice, "leave-two", edge=["e3-e4", ""]).content.decode()
    assert "Right: e3-e4" in html


@pytest.mark.parametrize(
    ("edge", "message"),
    [
        ("", "Click an edge on the board"),
        ("a1-c1", "not neighbours"),
        ("j9-j10", "not on this"),
        ("a2-b2", "already drawn"),
    ],
)
def test_bad_input_is_explained_and_not_counted(alice, edge, message):
    html = answer(alice, "smallest-first", edge=edge).content.decode()
    assert message in html
    assert SESSION_KEY not in alice.session or "smallest-first" not in alice.session[SESSION_KEY]


def test_rules_questions_take_a_choice(alice):
    assert "Right: Blue" in answer(alice, "who-moves-after-a-claim", choice="blue").content.decode()
    wrong = answer(alice, "who-moves-after-a-plain-edge", choice="blue").content.decode()
    assert "Not quite: Blue" in wrong
    assert (
        "Choose one of the answers" in answer(alice, "whose-box", choice="green").content.decode()
    )


def test_a_plain_form_post_redirects_and_shows_the_result_once(alice):
    response = answer(alice, "one-edge-two-boxes", htmx=False, edge="b1-b2")
    assert response.status_code == 302
    page = alice.get(response["Location"]).content.decode()
    assert "Right: b1-b2" in page
    again = alice.get(url("one-edge-two-boxes")).content.decode()
    assert "Right: b1-b2" not in again
    assert "Solved, right first time" in again


def test_progress_counts_tries_and_right_first_time_per_session(alice):
    answer(alice, "close-a-box", edge="b1-b2")
    answer(alice, "leave-two", edge="d3-d4")
    answer(alice, "leave-two", edge="e3-e4")
    answer(alice, "leave-two", edge="d3-d4")  # after solving, more tries change nothing
    progress = alice.session[SESSION_KEY]
    assert progress["close-a-box"] == {"attempts": 1, "solved": True, "first_try": True}
    assert progress["leave-two"] == {"attempts": 2, "solved": True, "first_try": False}
    page = alice.get(reverse("guide:practice")).content.decode()
    assert "Solved 2 of" in page and "1 right first time" in page
    bob = Client()
    assert "Solved 0 of" in bob.get(reverse("guide:practice")).content.decode()


def test_a_signed_in_player_keeps_progress_in_the_account():
    user = get_user_model().objects.create_user("dora", password="pw-for-tests-only")
    laptop = Client()
    laptop.force_login(user)
    answer(laptop, "loop-first", edge="c1-d1")
    answer(laptop, "loop-first", edge="b2-b3")
    row = ExerciseProgress.objects.get(user=user, exercise="loop-first")
    assert (row.attempts, row.solved, row.first_try) == (2, True, False)
    phone = Client()
    phone.force_login(user)
    page = phone.get(reverse("guide:practice")).content.decode()
    assert "Solved 1 of" in page


def test_answers_need_the_csrf_token():
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(url("close-a-box"), {"edge": "b1-b2"}).status_code == 403


def test_get_and_post_only(alice):
    assert alice.put(url("close-a-box")).status_code == 405


def test_drawing_a_box_side_by_side_then_naming_owner_and_next_player(alice):
    slug = "draw-a-box"
    html = answer(alice, slug, edge="c1-c2").content.decode()
    assert "c1-c2 is not a side of the left box" in html
    for edge in ("a1-b1", "a2-b2", "a1-a2"):
        html = answer(alice, slug, edge=edge).content.decode()
    assert "Red draws next. 1 side of the left box still to draw." in html
    assert "Choose" not in html and 'name="choice"' not in html
    early = answer(alice, slug, choice="red-red").content.decode()
    assert "Draw all four sides of the box first" in early
    html = answer(alice, slug, edge="b1-b2").content.decode()
    assert "Who owns it, and who draws the next edge?" in html
    assert (
        "Not quite: Blue owns it; Red draws next"
        in answer(alice, slug, choice="blue-red").content.decode()
    )
    assert (
        "Right: Red owns it; Red draws next"
        in answer(alice, slug, choice="red-red").content.decode()
    )
    assert alice.session[SESSION_KEY][slug] == {"attempts": 2, "solved": True, "first_try": False}
    html = answer(alice, slug, reset="1").content.decode()
    assert "Blue draws next. 4 sides of the left box still to draw." in html


def test_progress_made_before_signing_in_joins_the_account(alice):
    answer(alice, "close-a-box", edge="b1-b2")
    user = get_user_model().objects.create_user("erin", password="pw-for-tests-only")
    alice.force_login(user)  # signing in keeps the session's data
    alice.get(reverse("guide:practice"))
    row = ExerciseProgress.objects.get(user=user, exercise="close-a-box")
    assert (row.attempts, row.solved, row.first_try) == (1, True, True)
    other_device = Client()
    other_device.force_login(user)
    assert "Solved 1 of" in other_device.get(reverse("guide:practice")).content.decode()


def test_solved_in_the_browser_after_failing_on_the_account_is_solved_on_the_account(alice):
    user = get_user_model().objects.create_user("fay", password="pw-for-tests-only")
    laptop = Client()
    laptop.force_login(user)
    answer(laptop, "leave-two", edge="d3-d4")  # wrong, on the account
    answer(alice, "leave-two", edge="e3-e4")  # right first time, in a browser not signed in
    alice.force_login(user)  # signing in keeps the browser's session data
    page = alice.get(reverse("guide:practice")).content.decode()
    assert "Solved 1 of" in page and "0 right first time" in page
    row = ExerciseProgress.objects.get(user=user, exercise="leave-two")
    assert (row.attempts, row.solved, row.first_try) == (2, True, False)
    # the account now says so on any device
    assert "Solved 1 of" in laptop.get(reverse("guide:practice")).content.decode()


def test_the_box_drawn_from_blues_turn_with_three_sides_left_is_blues(alice):
    slug = "draw-the-missing-sides"
    for edge in ("a1-b1", "b1-b2"):
        html = answer(alice, slug, edge=edge).content.decode()
        assert "Choose" not in html and 'name="choice"' not in html
    html = answer(alice, slug, edge="a1-a2").content.decode()
    assert "Who owns it, and who draws the next edge?" in html
    assert (
        "Not quite: Red owns it; Red draws next"
        in answer(alice, slug, choice="red-red").content.decode()
    )
    assert (
        "Right: Blue owns it; Blue draws next"
        in answer(alice, slug, choice="blue-blue").content.decode()
    )


def test_a_wrong_answer_explains_and_still_offers_the_next_exercise(alice):
    html = answer(alice, "smallest-first", edge="a1-a2").content.decode()
    assert "Not quite" in html
    assert "Or go on: Hand over a pair" in html
    assert reverse("guide:exercise", args=["hand-over-a-pair"]) in html

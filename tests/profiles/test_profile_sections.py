"""The profile's rating chart (one line per time control) and correspondence games."""
# ruff: noqa: RUF001 - the pages use real typography (multiplication sign).

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from dotsboxes.games.models import Game
from dotsboxes.profiles.chart import Line, Point, rating_svg
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.identity import Viewer
from dotsboxes.rooms.models import Room

DAY = 86400


def viewer(user) -> Viewer:
    return Viewer(user.pk, "", user.username, f"u:{user.pk}")


def rated_game(host, guest, *, timer: int, resigner) -> Game:
    room = rooms.room_create(
        viewer=viewer(host), width=2, height=2, host_side="blue", rated=True, timer_seconds=timer
    )
    rooms.room_join(public_id=room.game.public_id, viewer=viewer(guest))
    game = Game.objects.get(pk=room.game.pk)
    rooms.room_resign(public_id=game.public_id, viewer=viewer(resigner), version=game.version)
    return game


def circles(svg: str) -> list[tuple[float, float]]:
    return [
        (float(x), float(y)) for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', svg)
    ]


SERIES = ("live", "correspondence", "untimed")


def series_points(svg: str, series: str) -> list[tuple[float, float]]:
    start = svg.index(f'data-series="{series}"')
    return circles(svg[start : svg.index("</g>", start)])


def test_the_chart_draws_each_line_with_its_points_higher_ratings_higher_up():
    live = Line("live", "Live", [Point(0, 1500, "a"), Point(2, 1600, "c")])
    slow = Line("correspondence", "Correspondence", [Point(1, 1450, "b")])
    svg = rating_svg([live, slow], title="T", description="D", first="1 Dec", last="3 Dec")
    assert svg.count("<polyline") == 2 and 'data-series="correspondence"' in svg
    (x0, y0), (x2, y2), (x1, y1) = circles(svg)  # live's two points, then the slow one
    assert x0 < x1 < x2  # games in the order they were played
    assert y2 < y0 < y1  # 1600 above 1500 above 1450 (SVG y grows downwards)
    assert "<title>c</title>" in svg and "1 Dec" in svg and "3 Dec" in svg


def test_the_chart_of_no_games_is_empty_and_one_game_still_draws():
    assert rating_svg([], title="T", description="D", first="", last="") == ""
    svg = rating_svg(
        [Line("live", "Live", [Point(0, 1512, "x")])], title="T", description="D", first="", last=""
    )
    assert len(circles(svg)) == 1 and ">1400<" in svg and ">1600<" in svg


@pytest.mark.django_db
def test_the_profile_draws_one_line_per_time_control_with_the_ratings_after_each_game(client):
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    rated_game(alice, bob, timer=30, resigner=bob)  # live: alice wins
    rated_game(alice, bob, timer=2 * DAY, resigner=alice)  # correspondence: alice loses
    rated_game(alice, bob, timer=0, resigner=bob)  # no clock: alice wins
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    svg = page[
        page.index('<svg class="rating-chart"') : page.index("</svg>", page.index("rating-chart"))
    ]
    for series in SERIES:
        assert f'data-series="{series}"' in svg
    # Each line starts from the rating before its first game, then one point a game.
    assert len(circles(svg)) == 6
    (_, y_live), (_, y_corr), (_, y_untimed) = (series_points(svg, s)[-1] for s in SERIES)
    assert y_live < y_corr > y_untimed  # the loss took her rating down, the win back up
    assert "Rating after each of 3 rated games" in svg
    assert "Correspondence (days a move):" in page and "after 1 game" in page


@pytest.mark.django_db
def test_a_profile_without_rated_games_has_no_chart(client):
    get_user_model().objects.create_user("carol")
    page = client.get(reverse("accounts:profile", args=["carol"])).content.decode()
    assert "rating-chart" not in page and "Rating history" not in page


@pytest.mark.django_db
def test_the_profile_lists_correspondence_games_under_way_with_who_moves(client):
    User = get_user_model()
    alice, bob, carol = (User.objects.create_user(n) for n in ("alice", "bob", "carol"))
    room = rooms.room_create(
        viewer=viewer(alice), width=3, height=3, host_side="blue", timer_seconds=3 * DAY
    )
    rooms.room_join(public_id=room.game.public_id, viewer=viewer(bob))
    rooms.room_create(
        viewer=viewer(alice), width=2, height=2, host_side="red", timer_seconds=DAY
    )  # nobody has joined yet
    rooms.room_create(viewer=viewer(alice), width=2, height=2, timer_seconds=60)  # live: not listed
    rooms.room_create(viewer=viewer(carol), width=2, height=2, timer_seconds=DAY)  # not hers
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    section = page[page.index("Correspondence games under way") :]
    assert section.count("<li>") == 2
    assert "against bob" in section and "alice to move" in section and "3 days a move" in section
    assert "3 × 3 boxes" in section and "2 × 2 boxes" in section  # sizes say boxes
    assert "waiting for an opponent" in section
    assert Room.objects.get(pk=room.pk).get_absolute_url() in section
    bobs = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    bobs = bobs[bobs.index("Correspondence games under way") :]
    assert bobs.count("<li>") == 1 and "against alice" in bobs and "the opponent to move" in bobs

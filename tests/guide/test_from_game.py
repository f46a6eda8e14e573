"""Learn from a finished game: the solver (in the process pool) finds the costly moves."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from dotsboxes.games.models import Game, Move, Side
from dotsboxes.guide.exercises import BY_SLUG
from dotsboxes.rules import Board, parse_record

pytestmark = pytest.mark.django_db(transaction=True)


def finished_game(*, mode=Game.Mode.COMPUTER, computer_side="blue", finish=True) -> Game:
    """Dev (Red) against the computer on 4 x 2 boxes; Dev opens a chain of four at edge 12."""
    record = parse_record(BY_SLUG["replay-the-long-chain"].record)
    game = Game.objects.create(
        width=4,
        height=2,
        mode=mode,
        computer_side=computer_side if mode == Game.Mode.COMPUTER else "",
        computer_level="casual" if mode == Game.Mode.COMPUTER else "",
        blue_name="Computer" if mode == Game.Mode.COMPUTER else "Cleo",
        red_name="Dev",
    )
    computer = computer_side if mode == Game.Mode.COMPUTER else ""
    board = Board(4, 2)
    edges = record.edges if finish else record.edges[:10]
    for ply, edge in enumerate(edges, start=1):
        side = Side.of(board.turn)
        board.play(edge)
        Move.objects.create(
            game=game, ply=ply, edge=str(edge), side=side, by_computer=side == computer
        )
    if finish:
        outcome = board.outcome()
        game.status = Game.Status.FINISHED
        game.result = Game.Result.BLUE if outcome.winner is not None else Game.Result.TIE
        game.termination = Game.Termination.COMPLETED
    game.version = len(edges)
    game.save()
    return game


def review_page(client, game: Game, timeout: float = 60.0) -> str:
    """Poll the page (as its htmx refresh does) until the review has come back."""
    url = reverse("guide:from_game", args=[game.public_id])
    deadline = time.monotonic() + timeout
    while True:
        html = client.get(url).content.decode()
        if "Checking your moves" not in html:
            return html
        assert time.monotonic() < deadline, "the review did not come back in time"
        time.sleep(0.2)


def test_the_review_lists_the_chain_opening_that_lost_four_boxes(client):
    game = finished_game()
    first = client.get(reverse("guide:from_game", args=[game.public_id])).content.decode()
    assert "Checking your moves" in first and 'hx-trigger="every 2s"' in first
    html = review_page(client, game)
    assert "Edge 12: Dev drew <strong>a1-a2</strong>, which gave away 4 boxes" in html
    assert "Computer drew" not in html  # the computer's own moves are not the player's
    retry = reverse("guide:from_game_retry", args=[game.public_id, 11])
    assert retry in html


def test_on_one_device_both_players_moves_are_checked(client):
    game = finished_game(mode=Game.Mode.LOCAL)
    html = review_page(client, game)
    assert "Dev drew <strong>a1-a2</strong>" in html
    # Every move is valued now, not only the tail the solver reaches.
    assert "Checked all 22 moves made at this board: exact from edge 1" in html


def test_retrying_the_position_checks_the_answer_against_the_solver(client):
    game = finished_game()
    review_page(client, game)
    url = reverse("guide:from_game_retry", args=[game.public_id, 11])
    page = client.get(url).content.decode()
    assert "In the game, a1-a2 was drawn here" in page
    wrong = client.post(url, {"edge": "a1-a2"}, HTTP_HX_REQUEST="true").content.decode()
    assert "is the move from the game" in wrong and "gives away 4 boxes" in wrong
    right = client.post(url, {"edge": "a3-b3"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Right: a3-b3 is as good as the best move" in right
    bad = client.post(url, {"edge": "b2-b3"}, HTTP_HX_REQUEST="true").content.decode()
    assert "already drawn" in bad


def test_a_retry_before_the_review_exists_goes_back_to_the_review(client):
    game = finished_game()
    response = client.get(reverse("guide:from_game_retry", args=[game.public_id, 11]))
    assert response.status_code == 302
    assert response["Location"] == reverse("guide:from_game", args=[game.public_id])


def test_an_unfinished_or_online_game_is_explained_not_reviewed(client):
    unfinished = finished_game(finish=False)
    html = client.get(reverse("guide:from_game", args=[unfinished.public_id])).content.decode()
    assert "not finished yet" in html
    online = finished_game(mode=Game.Mode.ONLINE)
    html = client.get(reverse("guide:from_game", args=[online.public_id])).content.decode()
    assert "against the computer or on one device" in html
    assert client.get(reverse("guide:from_game", args=["nope"])).status_code == 404

"""The play pages through both paths: plain forms (POST, redirect) and htmx fragments."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from dotsboxes.engine import players
from dotsboxes.games.identity import SESSION_KEY
from dotsboxes.games.models import Game, Move
from dotsboxes.rules import Board

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def alice(client) -> Client:
    return client


@pytest.fixture
def bob(db) -> Client:
    return Client()


def start(client: Client, **fields) -> Game:
    data = {"mode": "local", "size": "3x3", "side": "blue", "level": players.DEFAULT_LEVEL}
    response = client.post(reverse("games:new"), data | fields)
    assert response.status_code == 302, response.content.decode()
    return Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def post(client: Client, name: str, game: Game, htmx: bool = False, **data):
    game.refresh_from_db()
    data.setdefault("version", game.version)
    return client.post(
        reverse(f"games:{name}", args=[game.public_id]), data, **(HX if htmx else {})
    )


# -- new game -------------------------------------------------------------------------


def test_the_new_game_form_offers_every_engine_level_and_the_presets(alice, db):
    html = alice.get(reverse("games:new")).content.decode()
    for level in players.LEVELS:
        assert f'value="{level}"' in html
    for preset in ("2x2", "3x3", "4x4", "5x4", "5x5"):
        assert f'value="{preset}"' in html
    assert re.search(r'value="5x5"[^>]*checked', html)


def test_the_mode_and_position_in_the_url_preset_the_form(alice, db):
    board = Board(3, 2)
    board.play("a1-b1")
    html = alice.get(reverse("games:new") + f"?mode=local&position={board.key()}").content.decode()
    assert re.search(r'value="local"[^>]*checked', html)
    assert "The starting position" in html and f'value="{board.key()}"' in html
    game = start(alice, position=board.key())
    assert (game.width, game.height, game.start_key) == (3, 2, board.key())


def test_a_set_position_starts_without_a_size_and_says_who_draws_next(alice, db):
    board = Board(3, 2)
    board.play("a1-b1")  # Red to move
    html = alice.get(reverse("games:new") + f"?position={board.key()}&side=red").content.decode()
    assert 'name="size"' not in html  # the position brings its size
    assert "Red: you draw the next edge" in html
    assert re.search(r'value="red"[^>]*checked', html)
    response = alice.post(
        reverse("games:new"),
        {"mode": "computer", "side": "red", "level": "casual", "position": board.key()},
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.start_key, game.computer_side) == (board.key(), "blue")


def test_without_a_position_a_size_must_be_chosen(alice, db):
    response = alice.post(reverse("games:new"), {"mode": "local", "side": "blue"})
    assert response.status_code == 200 and "Choose a board size." in response.content.decode()
    assert not Game.objects.exists()


def test_a_bad_position_link_is_refused_with_a_message(alice, db):
    html = alice.get(reverse("games:new") + "?position=nonsense").content.decode()
    assert "not a valid position key" in html
    response = alice.post(
        reverse("games:new"),
        {"mode": "local", "size": "5x5", "side": "blue", "level": "casual", "position": "9x9"},
    )
    assert response.status_code == 200 and not Game.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"size": "custom", "width": "", "height": "4"}, "width", "Give the width in boxes"),
        ({"size": "custom", "width": "10", "height": "4"}, "width", "from 1 to 9"),
        ({"size": "custom", "width": "0", "height": "4"}, "width", "from 1 to 9"),
        ({"size": "custom", "width": "3", "height": "x"}, "height", "Give the height in boxes"),
        ({"size": "7x7"}, "size", "Choose one of the sizes"),
        ({"mode": "computer", "level": "godlike"}, "level", "Choose one of the computer's levels"),
        ({"mode": "computer", "side": "green"}, "side", "Choose Blue (you start) or Red"),
        ({"mode": "online"}, "mode", "Choose whom to play"),
        ({"mode": ""}, "mode", "Choose whom to play"),
        ({"blue_name": "x" * 41}, "blue_name", "40 characters or fewer"),
    ],
)
def test_invalid_new_game_values_are_refused_beside_the_field(alice, db, fields, field, message):
    data = {"mode": "local", "size": "3x3", "side": "blue", "level": "casual"} | fields
    response = alice.post(reverse("games:new"), data)
    assert response.status_code == 200
    html = unescape(response.content.decode())
    # The message is the field's own error list, which the field points to.
    errors = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', html, re.S)
    assert errors and message in errors.group(1)
    assert not Game.objects.exists()


def test_values_in_fields_the_page_hides_are_ignored_not_refused_unseen(alice, db):
    # Typed under Other size, then a preset chosen: the boxes are hidden and ignored.
    game = start(alice, size="4x4", width="0", height="x")
    assert (game.width, game.height) == (4, 4)
    # The computer's fieldset is hidden on one device, the names' against the computer.
    game = start(alice, mode="local", side="green", level="godlike", blue_name="Ada")
    assert (game.mode, game.blue_name) == ("local", "Ada")
    game = start(alice, mode="computer", side="red", blue_name="x" * 41, red_name="Max")
    assert (game.computer_side, game.red_name) == ("blue", "You")


def test_any_size_from_1_to_9_boxes_can_be_chosen(alice, db):
    game = start(alice, size="custom", width="9", height="1")
    assert (game.width, game.height) == (9, 1)


def test_against_the_computer_the_browser_holds_only_its_own_seat(alice, db):
    game = start(alice, mode="computer", side="red", level=players.LEVELS[0])
    token = alice.session[SESSION_KEY]
    assert (game.computer_side, game.red_token, game.blue_token) == ("blue", token, "")
    assert game.blue_name == f"Computer ({players.LEVELS[0]})"


# -- moves ------------------------------------------------------------------------------


def test_a_plain_form_move_redirects_back_to_the_game(alice, db):
    game = start(alice)
    response = post(alice, "move", game, edge="c3-d3")
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert Move.objects.get(game=game).edge == "c3-d3"
    html = alice.get(response["Location"]).content.decode()
    assert 'data-edge="c3-d3"' in html and "Blue draws c3-d3; Red to move." in html


def test_an_htmx_move_returns_the_board_scores_log_and_status(alice, db):
    game = start(alice)
    response = post(alice, "move", game, htmx=True, edge="c3-d3", ply=0)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'id="game"' in html and 'class="scoreboard"' in html and "log-list" in html
    assert 'id="game-status" hx-swap-oob="innerHTML"' in html
    assert "Blue draws c3-d3; Red to move." in html
    assert 'class="edge drawn by-blue last"' in html  # the player's own edge: at once
    game.refresh_from_db()
    assert f'name="version" value="{game.version}"' in html


def test_a_completed_box_is_announced_and_keeps_the_turn(alice, db):
    game = start(alice, size="custom", width="1", height="1")
    for edge in ("a1-b1", "a2-b2", "a1-a2"):
        post(alice, "move", game, edge=edge)
    html = post(alice, "move", game, htmx=True, edge="b1-b2").content.decode()
    assert "Red draws b1-b2 and claims a box; the game is over: Red wins 1 to 0." in html
    assert "<strong>Red wins 1 to 0.</strong>" in html  # the result banner
    assert (
        "Learn from this game" in html and reverse("guide:from_game", args=[game.public_id]) in html
    )


@pytest.mark.parametrize("htmx", [False, True])
def test_a_stale_double_post_is_refused_with_a_message_on_both_paths(alice, db, htmx):
    game = start(alice)
    old = game.version
    post(alice, "move", game, edge="c3-d3")
    response = post(alice, "move", game, htmx=htmx, edge="c3-d3", version=old)
    if htmx:
        assert response.status_code == 200
        body = response.content.decode()
    else:
        assert response.status_code == 302
        body = alice.get(response["Location"]).content.decode()
    assert "The board had changed" in body
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("htmx", [False, True])
def test_a_typed_bad_edge_gets_a_plain_message_and_no_change(alice, db, htmx):
    game = start(alice)
    response = post(alice, "move", game, htmx=htmx, edge="a1-c1")
    body = response.content.decode() if htmx else alice.get(response["Location"]).content.decode()
    assert "not neighbours" in body
    assert not Move.objects.filter(game=game).exists()


def test_another_browser_sees_the_game_read_only_and_its_moves_are_refused(alice, bob, db):
    game = start(alice)
    html = bob.get(game.get_absolute_url()).content.decode()
    assert "You are watching" in html and 'class="slot"' not in html
    assert "Type an edge" not in html
    response = post(bob, "move", game, htmx=True, edge="c3-d3")
    assert "belongs to another browser" in response.content.decode()
    response = post(bob, "move", game, edge="c3-d3")
    assert "belongs to another browser" in bob.get(response["Location"]).content.decode()
    assert not Move.objects.filter(game=game).exists()


def test_a_forged_game_id_is_a_404_not_an_error(alice, db):
    for name in ("game", "replay", "record"):
        response = alice.get(reverse(f"games:{name}", args=["no-such-game"]))
        assert response.status_code == 404
        assert "There is no such game." in response.content.decode()
    assert "There is nothing at this address." in alice.get("/play/a/b/c/").content.decode()
    response = alice.post(reverse("games:move", args=["no-such-game"]), {"edge": "a1-b1"})
    assert response.status_code == 404


def test_moves_need_post_and_csrf(db):
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(reverse("games:new"), {"mode": "local", "size": "3x3"})
    assert response.status_code == 403
    game = Game.objects.create(mode="local")
    assert strict.get(reverse("games:move", args=[game.public_id])).status_code == 405


def test_the_page_offers_a_typed_move_box_and_the_list_of_legal_edges(alice, db):
    game = start(alice, size="2x2")
    post(alice, "move", game, edge="a1-b1")
    html = alice.get(game.get_absolute_url()).content.decode()
    assert 'name="edge" placeholder="c3-d3"' in html
    listed = re.findall(r'<button type="submit" name="edge" value="([a-j0-9-]+)"', html)
    assert len(listed) == 11 and "a1-b1" not in listed
    assert 'aria-live="polite"' in html
    assert f"?game={game.public_id}&amp;ply=1" in html  # report a problem at this position


# -- hints, undo, resign, rematch -------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_a_hint_highlights_an_edge_with_a_reason_and_is_counted(alice, db, htmx):
    game = start(alice, mode="computer", size="3x3")
    response = post(alice, "hint", game, htmx=htmx)
    html = (response if htmx else alice.get(response["Location"])).content.decode()
    edge = re.search(r'class="edge highlight" data-edge="([a-j0-9-]+)"', html).group(1)
    assert "Hint" in html and f"draw {edge}" in html.replace("<code>", "").replace("</code>", "")
    assert "safe: creates no third side" in html
    game.refresh_from_db()
    assert game.hints_used == 1
    assert "Hints: 1" in alice.get(reverse("games:record", args=[game.public_id])).content.decode()


@pytest.mark.parametrize("htmx", [False, True])
def test_undo_takes_back_the_last_turn_on_both_paths(alice, db, htmx):
    game = start(alice)
    post(alice, "move", game, edge="a1-b1")
    post(alice, "move", game, edge="a2-b2")
    response = post(alice, "undo", game, htmx=htmx)
    assert response.status_code in (200, 302)
    assert list(game.moves.values_list("edge", flat=True)) == ["a1-b1"]


def test_resign_asks_for_confirmation_and_then_shows_the_result(alice, db):
    game = start(alice, mode="computer")
    html = alice.get(game.get_absolute_url()).content.decode()
    assert "Resign…" in html and "Yes, resign" in html and "<details" in html
    html = post(alice, "resign", game, htmx=True).content.decode()
    assert "You (Blue) resigned, so Computer (casual, Red) wins (boxes 0 to 0)." in html
    assert "Rematch" in html
    game.refresh_from_db()
    assert game.termination == "resigned"
    replay = alice.get(reverse("games:replay", args=[game.public_id])).content.decode()
    assert "You (Blue) resigned, so Computer (casual, Red) wins" in replay


def test_rematch_starts_a_new_game_with_the_first_player_swapped(alice, db):
    game = start(alice, mode="computer", side="blue")
    post(alice, "resign", game)
    html = alice.get(game.get_absolute_url()).content.decode()
    # One click: the box that swaps who starts comes ticked.
    assert re.search(r'<input type="checkbox" name="swap" value="1" checked>', html)
    response = alice.post(reverse("games:rematch", args=[game.public_id]), {"swap": ["0", "1"]})
    again = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == again.get_absolute_url()
    assert again.computer_side == "blue" and again.rematch_of_id == game.pk


def test_a_rematch_with_the_box_unticked_keeps_the_same_first_player(alice, db):
    game = start(alice, blue_name="Ada", red_name="Max")
    post(alice, "resign", game)
    alice.post(reverse("games:rematch", args=[game.public_id]), {"swap": "0"})
    again = Game.objects.exclude(pk=game.pk).get()
    assert (again.blue_name, again.red_name) == ("Ada", "Max")


def test_the_same_rematch_posted_twice_starts_one_game_and_both_posts_go_to_it(alice, db):
    # A double click (or the form sent again) must not open a second new game.
    game = start(alice, mode="computer", side="blue")
    post(alice, "resign", game)
    url = reverse("games:rematch", args=[game.public_id])
    first = alice.post(url, {"swap": "1"})
    second = alice.post(url, {"swap": "1"})
    again = Game.objects.exclude(pk=game.pk).get()
    assert first["Location"] == second["Location"] == again.get_absolute_url()


# -- the computer's turn ------------------------------------------------------------------


def test_while_the_computer_thinks_the_page_polls_and_a_no_js_page_refreshes(alice, db):
    game = start(alice, mode="computer")
    post(alice, "move", game, edge="a1-b1")
    html = alice.get(game.get_absolute_url()).content.decode()
    assert "Computer is thinking…" in html and 'hx-trigger="every 400ms"' in html
    assert '<noscript><meta http-equiv="refresh"' in html
    assert 'class="slot"' not in html  # no edges to click while it thinks
    game.refresh_from_db()
    wait = reverse("games:wait", args=[game.public_id])
    assert alice.get(f"{wait}?version={game.version}&ply=1", **HX).status_code == 204


def test_the_poll_returns_the_new_edges_to_animate_one_by_one(alice, db):
    from dotsboxes.games import services

    game = start(alice, mode="computer", size="3x3")
    post(alice, "move", game, edge="a1-b1")
    game.refresh_from_db()
    seen = game.version
    services.game_apply_computer_move(game_id=game.pk, version=game.version, edge="c1-d1")
    wait = reverse("games:wait", args=[game.public_id])
    html = alice.get(f"{wait}?version={seen}&ply=1", **HX).content.decode()
    assert re.search(r'data-edge="c1-d1"[^>]*style="--i:0"', html)
    assert 'class="slot"' in html and "Computer is thinking" not in html


# -- replay, records, my games ---------------------------------------------------------------


def test_replay_shows_any_ply_and_steps_by_edge_and_turn(alice, db):
    game = start(alice, size="custom", width="1", height="1")
    for edge in ("a1-b1", "a2-b2", "a1-a2", "b1-b2"):
        post(alice, "move", game, edge=edge)
    url = reverse("games:replay", args=[game.public_id])
    html = alice.get(url + "?ply=2").content.decode()
    assert "Edge 2 of 4" in html and 'data-edge="a2-b2"' in html and 'data-edge="a1-a2"' not in html
    assert 'data-nav="prev" href="?ply=1"' in html and 'data-nav="next" href="?ply=3"' in html
    assert 'data-nav="first" href="?ply=0"' in html and 'data-nav="last" href="?ply=4"' in html
    fragment = alice.get(url + "?ply=0", **HX).content.decode()
    assert "<html" not in fragment and "Edge 0 of 4" in fragment
    assert "Edge 4 of 4" in alice.get(url + "?ply=99").content.decode()
    assert "Edge 0 of 4" in alice.get(url + "?ply=-3").content.decode()
    assert "Edge 4 of 4" in alice.get(url + "?ply=x").content.decode()


def test_the_record_exports_in_the_rules_notation_and_imports_back(alice, db):
    game = start(alice, blue_name="Ada", red_name="Max")
    for edge in ("a1-b1", "a2-b2", "a1-a2", "b1-b2", "c3-d3"):
        post(alice, "move", game, edge=edge)
    text = alice.get(reverse("games:record", args=[game.public_id])).content.decode()
    assert "Size: 3 x 3 boxes (4 x 4 dots)" in text and "Blue: Ada" in text
    assert "1. a1-b1  2. a2-b2  3. a1-a2  4. b1-b2, c3-d3" in text
    response = alice.post(
        reverse("games:import"),
        {"record": text, "mode": "local", "side": "blue", "level": "casual"},
    )
    copy = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == copy.get_absolute_url()
    assert list(copy.moves.values_list("edge", flat=True)) == list(
        game.moves.values_list("edge", flat=True)
    )
    assert (copy.blue_name, copy.red_name) == ("Ada", "Max")


def test_importing_to_continue_against_the_computer_opens_the_game(alice, db):
    text = "Size: 2 x 2 boxes\n\n1. a1-b1\n"
    response = alice.post(
        reverse("games:import"),
        {"record": text, "mode": "computer", "side": "red", "level": players.LEVELS[0]},
    )
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert (game.mode, game.computer_side, game.computer_level) == (
        "computer",
        "blue",
        players.LEVELS[0],
    )
    assert game.red_token == alice.session[SESSION_KEY]
    # Red (the importer) is to move after Blue's a1-b1: the page offers the edges.
    assert 'class="slot"' in alice.get(response["Location"]).content.decode()


def test_importing_to_replay_opens_the_replay(alice, db):
    text = "Size: 2 x 2 boxes\n\n1. a1-b1  2. a2-b2\n"
    response = alice.post(
        reverse("games:import"),
        {"record": text, "mode": "replay", "side": "blue", "level": "casual"},
    )
    game = Game.objects.get()
    assert response["Location"] == reverse("games:replay", args=[game.public_id])


def test_a_bad_record_is_refused_naming_turn_and_edge_and_nothing_is_saved(alice, db):
    text = "Size: 2 x 2 boxes\n\n1. a1-b1  2. a2-b2  3. b1-a1\n"
    response = alice.post(
        reverse("games:import"),
        {"record": text, "mode": "local", "side": "blue", "level": "casual"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Turn 3, edge b1-a1" in html and "already drawn" in html
    assert "position 2x2" not in html  # no position key dumped on the player
    assert not Game.objects.exists()


def test_my_games_lists_this_browsers_games_only(alice, bob, db):
    mine = start(alice, blue_name="Ada")
    post(alice, "move", mine, edge="a1-b1")
    theirs = start(bob, blue_name="Zed")
    html = alice.get(reverse("games:mine")).content.decode()
    assert mine.get_absolute_url() in html and theirs.get_absolute_url() not in html
    assert "3 \N{MULTIPLICATION SIGN} 3" in html and "Ada (Blue)" in html and "In progress" in html
    assert "No games yet" in Client().get(reverse("games:mine")).content.decode()


def test_a_game_page_survives_a_reload_exactly(alice, db):
    game = start(alice)
    for edge in ("a1-b1", "b1-b2", "c3-d3"):
        post(alice, "move", game, edge=edge)
    first = alice.get(game.get_absolute_url()).content.decode()
    again = alice.get(game.get_absolute_url()).content.decode()
    strip = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"|"x-csrftoken": "[^"]+"')
    assert strip.sub("", first) == strip.sub("", again)


def test_a_game_from_a_set_position_exports_and_imports_from_that_position(alice, db):
    board = Board(2, 2)
    for edge in ("a1-b1", "a2-b2", "a1-a2"):
        board.play(edge)
    game = start(alice, position=board.key())
    for edge in ("b1-b2", "c3-c2"):  # Red claims the box, then draws again
        post(alice, "move", game, edge=edge)
    text = alice.get(reverse("games:record", args=[game.public_id])).content.decode()
    assert f"Position: {board.key()}" in text and "1. b1-b2, c2-c3" in text
    alice.post(reverse("games:import"), {"record": text, "mode": "local"})
    copy = Game.objects.exclude(pk=game.pk).get()
    assert copy.start_key == board.key()
    assert copy.board().key() == game.board().key()
    bad = text.replace("1. b1-b2, c2-c3", "1. a1-b1")
    html = alice.post(reverse("games:import"), {"record": bad, "mode": "local"}).content.decode()
    assert "Turn 1, edge a1-b1" in html and Game.objects.count() == 2


# A 2 x 1 game that ends in a tie: Blue claims the left box and draws on (turn 5),
# Red the right one.
TIE = ("b1-b2", "a1-b1", "b1-c1", "a2-b2", "a1-a2", "b2-c2", "c1-c2")


def test_a_tie_is_announced_with_the_score_only_when_the_boxes_split_evenly(alice, db):
    game = start(alice, size="custom", width="2", height="1")
    for edge in TIE[:-1]:
        post(alice, "move", game, edge=edge)
    html = post(alice, "move", game, htmx=True, edge=TIE[-1]).content.decode()
    assert "<strong>A tie: 1 box each.</strong>" in html
    assert "Red draws c1-c2 and claims a box; the game is over: a tie, 1 box each." in html
    game.refresh_from_db()
    assert (game.result, game.blue_score, game.red_score) == ("tie", 1, 1)
    # An odd number of boxes cannot split evenly: 1 x 1 always has a winner.
    odd = start(alice, size="custom", width="1", height="1")
    for edge in ("a1-b1", "a2-b2", "a1-a2", "b1-b2"):
        post(alice, "move", odd, edge=edge)
    odd.refresh_from_db()
    assert odd.result == "red" and "tie" not in alice.get(odd.get_absolute_url()).content.decode()


def test_replay_shows_the_log_as_it_stood_even_in_the_middle_of_a_turn(alice, db):
    game = start(alice, size="custom", width="2", height="1")
    for edge in TIE:
        post(alice, "move", game, edge=edge)
    url = reverse("games:replay", args=[game.public_id])
    html = alice.get(url + "?ply=5").content.decode()
    item = r'<li class="log-turn log-{}"[^>]*value="{}">(.*?)</li>'
    turn5 = re.search(item.format("blue log-current", 5), html, re.S)
    played, later = re.search(r'aria-current="step">(.*?)</a>(.*)', turn5.group(1), re.S).groups()
    assert (
        played == '<span class="edge-name">a1-a2</span>'
        and "b2-c2" in later
        and "still to come" in later
    )
    assert "+1" in turn5.group(1)
    turn6 = re.search(item.format("red log-future", 6), html, re.S)
    assert "still to come" in turn6.group(1) and "c1-c2" in turn6.group(1)
    scores = re.findall(r'<span class="score-total">(\d+)</span>', html)
    assert scores == ["1", "0"]
    assert "Blue draws a1-a2 and claims a box; Blue moves again." in html

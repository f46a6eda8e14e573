"""Creating, joining and playing a room over HTTP, as three browsers would."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse

from dotsboxes.games.models import Game, Move
from dotsboxes.rooms.models import Room
from tests.rooms.conftest import act, browser, join, open_room

# A 2 x 2 boxes game in which nobody claims anything until the end.
OPENING = ["a1-b1", "a3-b3", "b1-c1", "b3-c3", "a1-a2", "c2-c3"]


def test_opening_a_room_seats_the_host_and_lists_it_in_the_lobby(db, alice, carol):
    room = open_room(alice, name="Alice", side="red", width=3, height=4)
    game = room.game
    assert (game.mode, game.width, game.height) == (Game.Mode.ONLINE, 3, 4)
    assert game.red_name == "Alice" and game.red_token and not game.blue_token
    assert room.host_side == "red"
    lobby = carol.get(reverse("rooms:lobby")).content.decode()
    assert room.get_absolute_url() in lobby and "Waiting for an opponent" in lobby


def test_a_private_room_is_reachable_by_link_but_not_listed(db, alice, carol):
    room = open_room(alice, visibility="private")
    assert room.get_absolute_url() not in carol.get(reverse("rooms:lobby")).content.decode()
    assert carol.get(room.get_absolute_url()).status_code == 200


def test_a_random_side_seats_the_host_on_blue_or_red(db, alice):
    sides = {open_room(alice, side="random").host_side for _ in range(12)}
    assert sides <= {"blue", "red"} and sides  # both are possible; never anything else


def test_first_visitor_takes_the_free_seat_and_the_next_one_only_watches(db, alice, bob, carol):
    room = open_room(alice)
    assert "Take the free seat" in bob.get(room.get_absolute_url()).content.decode()
    assert join(bob, room, "Bob").status_code == 302
    room.game.refresh_from_db()
    assert room.game.red_name == "Bob" and room.game.red_token
    page = carol.get(room.get_absolute_url()).content.decode()
    assert "Take the free seat" not in page and 'data-me="spectator"' in page
    refused = join(carol, room, "Carol")
    assert refused.status_code == 409 and "Both seats are taken" in refused.content.decode()
    room.game.refresh_from_db()
    assert room.game.red_name == "Bob"


def test_the_seat_stays_with_the_browser_that_took_it(room, bob):
    page = bob.get(room.get_absolute_url()).content.decode()
    assert 'data-me="red"' in page


def test_a_display_name_is_required_and_cleaned(db, alice, bob):
    room = open_room(alice)
    response = join(bob, room, "   ")
    assert response.status_code == 400 and "display name" in response.content.decode()
    join(bob, room, "  Bob   the\tBuilder ")
    room.game.refresh_from_db()
    assert room.game.red_name == "Bob the Builder"


def test_rated_rooms_are_for_signed_in_players_only(db, alice, bob, carol):
    users = get_user_model().objects
    alice.force_login(users.create_user("alice", password="pw-123456-x"))
    room = open_room(alice, rated="on")
    assert room.game.rated and room.game.blue_user_id
    refused = join(bob, room, "Bob")
    assert refused.status_code == 403 and "sign in" in refused.content.decode()
    carol.force_login(users.create_user("carol", password="pw-123456-x"))
    assert carol.post(reverse("rooms:join", args=[room.game.public_id])).status_code == 302
    room.game.refresh_from_db()
    assert room.game.red_user_id and room.game.red_name == "carol"


def test_anonymous_hosts_cannot_open_rated_rooms(db, alice):
    room = open_room(alice, rated="on")
    assert room.game.rated is False


def test_players_alternate_and_the_game_ends_with_a_result(room, alice, bob):
    players = [alice, bob]
    for i, edge in enumerate(OPENING):
        response = act(players[i % 2], room, "move", edge=edge)
        assert response.status_code == 200, response.content.decode()
    # Red opens the chain: Blue takes all four boxes.
    assert act(alice, room, "move", edge="a2-b2").status_code == 200
    for edge in ("b2-c2", "b1-b2", "b2-b3", "c1-c2", "a2-a3"):
        response = act(_to_move(room, alice, bob), room, "move", edge=edge)
        assert response.status_code == 200, response.content.decode()
    game = Game.objects.get(pk=room.game.pk)
    assert game.status == Game.Status.FINISHED and game.result in ("blue", "red", "tie")
    assert game.blue_score + game.red_score == 4
    assert Room.objects.get(pk=room.pk).turn_deadline is None


def _to_move(room, alice, bob):
    room.refresh_from_db()
    return alice if room.to_move == "blue" else bob


def test_a_move_response_carries_the_new_version_and_board(room, alice):
    response = act(alice, room, "move", edge="a1-b1")
    html = response.content.decode()
    room.game.refresh_from_db()
    assert f'data-version="{room.game.version}"' in html and 'data-kind="game"' in html
    assert 'data-edge="a1-b1"' in html and 'id="room-board"' in html


def test_a_move_is_answered_with_the_very_push_its_change_sent(
    transactional_db, alice, bob, listener
):
    # The command returns its change and the pushes rendered from it after commit; the
    # request answers with those, so its answer can only be its own room's change (it
    # used to look for it in the thread, where a former room's push could be found).
    room = open_room(alice)
    join(bob, room)
    channel = listener.listen(room)
    html = act(alice, room, "move", edge="a1-b1").content.decode()
    assert listener.heard(channel)["html"] == html
    room.game.refresh_from_db()
    assert f'data-version="{room.game.version}"' in html and 'data-edge="a1-b1"' in html


def test_a_plain_form_post_redirects_back_to_the_room(room, alice):
    response = act(alice, room, "move", edge="a1-b1", htmx=False)
    assert response.status_code == 302 and response["Location"] == room.get_absolute_url()


def test_the_state_url_returns_every_fragment_for_a_resync(room, carol):
    html = carol.get(reverse("rooms:state", args=[room.game.public_id])).content.decode()
    for fragment in ("room-sync", "room-board", "room-players", "room-status", "room-log"):
        assert f'id="{fragment}"' in html


def test_the_lobby_lists_games_being_played_with_a_link_to_watch(room, carol):
    html = carol.get(reverse("rooms:lobby")).content.decode()
    assert "Alice vs Bob" in html


def test_an_unknown_room_is_a_plain_404(db, carol):
    assert carol.get("/rooms/nosuchroom1/").status_code == 404
    assert carol.post("/rooms/nosuchroom1/move", {"edge": "a1-b1"}).status_code == 404


def test_moves_need_the_csrf_token(room, alice):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.cookies = alice.cookies
    response = strict.post(
        reverse("rooms:move", args=[room.game.public_id]), {"edge": "a1-b1", "version": 1}
    )
    assert response.status_code == 403
    assert Move.objects.filter(game=room.game).count() == 0


def test_pages_render_for_players_and_spectators_at_every_stage(room, alice, bob):
    carol = browser()
    for client in (alice, bob, carol):
        assert client.get(room.get_absolute_url()).status_code == 200
    act(alice, room, "resign")
    for client in (alice, bob, carol):
        page = client.get(room.get_absolute_url()).content.decode()
        assert "wins by resignation" in page


def test_the_room_log_keeps_each_edge_name_on_one_line(room, alice, carol):
    # Browsers break a line after a hyphen ("c3-" / "c4"): each name sits in a span that
    # never breaks (site.css .edge-name); the log may wrap only after a comma.
    act(alice, room, "move", edge="a1-b1")
    html = carol.get(room.get_absolute_url()).content.decode()
    assert '<span class="edge-name">a1-b1</span>' in html

"""Blocking a player: no seat in each other's rooms, no rooms in each other's lobby, no
challenge, their chat hidden; unblocking undoes it.  Mutes refuse chat until when."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from dotsboxes.api.services import challenge_create
from dotsboxes.moderation import services as moderation
from dotsboxes.moderation.models import Block, ChatMute
from dotsboxes.rooms.errors import Forbidden
from dotsboxes.rooms.models import Message
from tests.rooms.conftest import act, fresh, join, open_room, signed_in

pytestmark = pytest.mark.django_db


def user(name: str):
    return get_user_model().objects.get(username=name)


def block(client, name: str):
    return client.post(reverse("moderation:block", args=[name]))


def test_a_blocked_player_cannot_take_the_seat_in_the_blockers_room():
    alice, bob = signed_in("alice"), signed_in("bob")
    assert block(alice, "bob").status_code == 302
    room = open_room(alice)
    response = join(bob, room)
    assert response.status_code == 403
    assert "does not accept games with you" in response.content.decode()
    assert fresh(room).game.red_user_id is None


def test_the_blocker_cannot_sit_in_the_blocked_players_room_either():
    alice, bob = signed_in("alice"), signed_in("bob")
    block(alice, "bob")
    room = open_room(bob)
    response = join(alice, room)
    assert response.status_code == 403
    assert "You blocked this player" in response.content.decode()
    assert fresh(room).game.red_user_id is None


def test_after_unblocking_the_seat_can_be_taken():
    alice, bob = signed_in("alice"), signed_in("bob")
    block(alice, "bob")
    assert alice.post(reverse("moderation:unblock", args=["bob"])).status_code == 302
    room = open_room(alice)
    assert join(bob, room).status_code == 302
    assert fresh(room).game.red_user_id == user("bob").pk


def test_others_still_sit_down_in_the_blockers_room():
    alice, _bob, carol = signed_in("alice"), signed_in("bob"), signed_in("carol")
    block(alice, "bob")
    room = open_room(alice)
    assert join(carol, room).status_code == 302


def test_the_lobby_hides_rooms_of_players_apart_both_ways():
    alice, bob, carol = signed_in("alice"), signed_in("bob"), signed_in("carol")
    block(alice, "bob")
    alices = open_room(alice, name="Alice").get_absolute_url()
    bobs = open_room(bob, name="Bob").get_absolute_url()
    lobby = reverse("rooms:lobby")
    for_bob = bob.get(lobby).content.decode()
    for_alice = alice.get(lobby).content.decode()
    for_carol = carol.get(lobby).content.decode()
    assert alices not in for_bob and bobs in for_bob
    assert bobs not in for_alice and alices in for_alice
    assert alices in for_carol and bobs in for_carol
    # Pushed lists are the same for every reader: a style rule hides them too.
    alice_id = user("alice").pk
    assert f'.room-list [data-by~="u{alice_id}"]{{display:none}}' in for_bob


def test_blocked_players_chat_is_hidden_for_the_blocker_only():
    alice, bob = signed_in("alice"), signed_in("bob")
    room = open_room(alice)
    join(bob, room)
    assert act(bob, room, "chat", text="you are bad").status_code == 200
    block(alice, "bob")
    bob_id = user("bob").pk
    page = alice.get(room.get_absolute_url()).content.decode()
    assert f'data-by="u{bob_id}"' in page  # the line, marked with its author
    assert f'.chat [data-by~="u{bob_id}"]{{display:none}}' in page
    spectator = signed_in("carol").get(room.get_absolute_url()).content.decode()
    assert "you are bad" in spectator and "{display:none}" not in spectator


def test_a_blocked_player_cannot_challenge_the_blocker():
    from dotsboxes.api.services import bot_account_create

    bot, bob = get_user_model().objects.create_user("botty"), signed_in("bob")
    bot_account_create(user=bot)
    Block.objects.create(blocker=bot, blocked=user("bob"))
    with pytest.raises(Forbidden, match="does not accept games with you"):
        challenge_create(challenger=user("bob"), target=bot)
    response = bob.post(
        reverse("bots:challenge_bot", args=["botty"]),
        {"width": 3, "height": 3, "timer": 0, "side": "random"},
    )
    assert response.status_code == 403


def test_blocking_yourself_or_staff_is_refused_and_the_list_shows_blocks():
    alice = signed_in("alice")
    get_user_model().objects.create_user("sam", is_staff=True)
    signed_in("bob")
    block(alice, "alice")
    block(alice, "sam")
    block(alice, "bob")
    block(alice, "bob")  # twice: one block
    assert list(Block.objects.values_list("blocked__username", flat=True)) == ["bob"]
    page = alice.get(reverse("moderation:blocked")).content.decode()
    assert ">bob</a>" in page and "Unblock" in page


def test_block_needs_a_post_with_csrf_and_a_signed_in_player(client):
    signed_in("bob")
    assert client.post(reverse("moderation:block", args=["bob"])).status_code == 302  # sign in
    assert Block.objects.count() == 0
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(get_user_model().objects.create_user("alice"))
    assert strict.post(reverse("moderation:block", args=["bob"])).status_code == 403
    assert strict.get(reverse("moderation:block", args=["bob"])).status_code == 405
    assert Block.objects.count() == 0


def test_a_muted_player_is_told_until_when_and_nothing_is_stored():
    alice, bob = signed_in("alice"), signed_in("bob")
    room = open_room(alice)
    join(bob, room)
    moderation.mute_create(user=user("bob"), by=None, hours=24, reason="insults")
    response = act(bob, room, "chat", text="hello", htmx=False)
    assert response.status_code == 403
    assert "Staff have muted your chat until" in response.content.decode()
    assert not Message.objects.filter(kind="chat").exists()
    assert act(alice, room, "chat", text="hello").status_code == 200


def test_a_mute_that_ended_or_was_lifted_no_longer_refuses():
    alice, bob = signed_in("alice"), signed_in("bob")
    room = open_room(alice)
    join(bob, room)
    ChatMute.objects.create(user=user("bob"), reason="old", until=timezone.now() - timedelta(1))
    assert act(bob, room, "chat", text="hi").status_code == 200
    moderation.mute_create(user=user("bob"), by=None, hours=1, reason="spam")
    assert moderation.mute_lift(user=user("bob"), by=None) == 1
    assert act(bob, room, "chat", text="hi again").status_code == 200
    assert ChatMute.objects.filter(reason="spam").exists()  # the reason stays


def test_a_marked_account_gets_no_rated_rematch():
    from dotsboxes.moderation.models import FairPlayDecision, FairPlayMark

    alice, bob = signed_in("alice"), signed_in("bob")
    room = open_room(alice, rated="on")
    join(bob, room)
    assert act(alice, room, "resign").status_code == 200
    decision = FairPlayDecision.objects.create(user=user("bob"), action="mark", reason="engine")
    FairPlayMark.objects.create(user=user("bob"), decision=decision)
    refused = act(alice, room, "offer", "rematch", htmx=False)
    assert refused.status_code == 403 and "unrated games only" in refused.content.decode()
    assert not fresh(room).game.rematches.exists()

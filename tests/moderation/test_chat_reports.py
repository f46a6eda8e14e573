"""A chat line reported by a player reaches the staff queue with the lines around it;
only staff read it, and staff can mute the author from it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dotsboxes.moderation.models import ChatMute
from dotsboxes.reports.models import ChatReport
from dotsboxes.rooms.models import Message
from tests.rooms.conftest import act, join, open_room, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def chatted():
    """Alice and Bob chat in a room; Bob's third line is rude."""
    alice, bob = signed_in("alice"), signed_in("bob")
    room = open_room(alice)
    join(bob, room)
    for client, text in [
        (alice, "hello"),
        (bob, "hi"),
        (alice, "good luck"),
        (bob, "you are an idiot"),
        (alice, "please stop"),
    ]:
        assert act(client, room, "chat", text=text).status_code == 200
    rude = Message.objects.get(text="you are an idiot")
    return alice, bob, room, rude


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user("sam", is_staff=True))
    return client


def test_a_reported_line_reaches_the_staff_queue_with_its_context(chatted, staff):
    alice, _bob, room, rude = chatted
    page = alice.get(room.get_absolute_url()).content.decode()
    url = reverse("reports:chat", args=[rude.pk])
    assert url in page  # each chat line has its report link
    assert alice.get(url).status_code == 200
    response = alice.post(url, {"reason": "insult"})
    assert response.status_code == 302
    report = ChatReport.objects.get()
    assert report.author.username == "bob" and report.text == "you are an idiot"
    assert [line["text"] for line in report.context] == [
        "hello",
        "hi",
        "good luck",
        "you are an idiot",
        "please stop",
    ]
    assert [line["reported"] for line in report.context].index(True) == 3
    queue = staff.get(reverse("reports:queue")).content.decode()
    assert report.get_absolute_url() in queue and "you are an idiot" in queue
    detail = staff.get(report.get_absolute_url()).content.decode()
    assert "<mark>you are an idiot</mark>" in detail and "please stop" in detail


def test_reporting_twice_keeps_one_report(chatted):
    alice, _bob, _room, rude = chatted
    url = reverse("reports:chat", args=[rude.pk])
    alice.post(url, {"reason": ""})
    alice.post(url, {"reason": "again"})
    assert ChatReport.objects.count() == 1


def test_only_signed_in_players_report_and_only_staff_read(chatted):
    alice, bob, _room, rude = chatted
    url = reverse("reports:chat", args=[rude.pk])
    anonymous = Client()
    assert anonymous.post(url, {"reason": "x"}).status_code == 302  # to sign in
    assert ChatReport.objects.count() == 0
    alice.post(url, {"reason": "x"})
    report = ChatReport.objects.get()
    for client in (alice, bob):
        assert client.get(report.get_absolute_url()).status_code == 404
        assert client.get(reverse("reports:queue")).status_code == 404
        mute = client.post(reverse("reports:mute", args=["bob"]), {"hours": 24, "reason": "x"})
        assert mute.status_code == 404
    assert anonymous.get(report.get_absolute_url()).status_code == 302
    assert not ChatMute.objects.exists()


def test_staff_mute_the_author_from_the_report_with_the_reason_kept(chatted, staff):
    alice, bob, room, rude = chatted
    alice.post(reverse("reports:chat", args=[rude.pk]), {"reason": "insult"})
    report = ChatReport.objects.get()
    response = staff.post(
        reverse("reports:mute", args=["bob"]),
        {"hours": 24, "reason": "insulted his opponent", "next": report.get_absolute_url()},
    )
    assert response.status_code == 302 and response["Location"] == report.get_absolute_url()
    mute = ChatMute.objects.get()
    assert mute.reason == "insulted his opponent" and mute.by.username == "sam"
    refused = act(bob, room, "chat", text="sorry", htmx=False)
    assert refused.status_code == 403 and "muted your chat until" in refused.content.decode()
    detail = staff.get(report.get_absolute_url()).content.decode()
    assert "insulted his opponent" in detail and "Lift the mute now" in detail
    staff.post(reverse("reports:unmute", args=["bob"]), {"next": report.get_absolute_url()})
    assert act(bob, room, "chat", text="sorry").status_code == 200


def test_a_mute_needs_a_reason(chatted, staff):
    staff.post(reverse("reports:mute", args=["bob"]), {"hours": 24, "reason": ""})
    assert not ChatMute.objects.exists()


def test_staff_resolve_a_chat_report(chatted, staff):
    alice, _bob, _room, rude = chatted
    alice.post(reverse("reports:chat", args=[rude.pk]), {})
    report = ChatReport.objects.get()
    staff.post(reverse("reports:chat_resolve", args=[report.pk]), {"note": "muted a day"})
    report.refresh_from_db()
    assert report.status == "resolved" and report.resolved_by.username == "sam"


def test_a_repeated_mute_is_refused_and_keeps_the_running_one(chatted, staff):
    mute = {"hours": 24, "reason": "insulted his opponent"}
    staff.post(reverse("reports:mute", args=["bob"]), mute)
    first = ChatMute.objects.get()
    response = staff.post(reverse("reports:mute", args=["bob"]), mute, follow=True)
    assert "already muted until" in response.content.decode()
    assert list(ChatMute.objects.all()) == [first]
    assert ChatMute.objects.get().until == first.until

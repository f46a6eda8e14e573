"""Sign-in lock-outs (django-axes): by name and by address, a plain wait, lifted by staff."""

from __future__ import annotations

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db
PASSWORD = "plenty-of-boxes-42"


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password=PASSWORD)


def sign_in(username: str, password: str, address: str = "10.0.0.1") -> object:
    client = Client(REMOTE_ADDR=address)
    return client.post(reverse("accounts:login"), {"username": username, "password": password})


def signed_in(response) -> bool:
    return response.status_code == 302


def test_ten_wrong_passwords_for_a_name_lock_out_only_the_address_they_came_from(settings, alice):
    # Issue 23.13: they locked the name from every address, so a stranger could keep
    # alice out for good.  Now only the stranger's address is kept out.
    limit = settings.AXES_FAILURE_LIMIT
    for i in range(limit - 1):
        assert sign_in("alice", f"wrong-{i}").status_code == 200
    locked = sign_in("alice", "wrong-last")
    assert locked.status_code == 429
    page = sign_in("alice", PASSWORD).content.decode()  # the right one, from there: still no
    assert "Too many failed sign-ins" in page and "Wait 15 minutes" in page
    assert signed_in(sign_in("alice", PASSWORD, address="10.9.9.9"))  # alice, at home


def test_a_name_attacked_from_many_addresses_still_signs_in_from_its_own(settings, alice):
    for n in range(3):
        for i in range(settings.AXES_FAILURE_LIMIT):
            sign_in("alice", f"wrong-{i}", address=f"10.3.3.{n}")
        assert sign_in("alice", PASSWORD, address=f"10.3.3.{n}").status_code == 429
    assert signed_in(sign_in("alice", PASSWORD, address="10.9.9.9"))


def test_a_lock_out_looks_the_same_whether_or_not_the_account_exists(settings, alice):
    pages = {}
    for name in ("alice", "nobody-by-this-name"):
        for i in range(settings.AXES_FAILURE_LIMIT):
            sign_in(name, f"wrong-{i}", address=f"10.1.0.{len(pages)}")
        response = sign_in(name, "anything", address=f"10.1.0.{len(pages)}")
        html = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", response.content.decode())  # CSRF tokens
        pages[name] = (response.status_code, html.replace(name, "NAME"))
    assert pages["alice"] == pages["nobody-by-this-name"]
    assert pages["alice"][0] == 429


def test_many_names_tried_from_one_address_lock_that_address_only(settings, alice):
    for i in range(settings.AXES_FAILURE_LIMIT):
        sign_in(f"guess-{i}", "wrong", address="10.6.6.6")
    assert sign_in("alice", PASSWORD, address="10.6.6.6").status_code == 429
    assert signed_in(sign_in("alice", PASSWORD, address="10.7.7.7"))


def test_staff_see_the_lock_out_in_the_admin_and_lift_it(settings, alice):
    for i in range(settings.AXES_FAILURE_LIMIT):
        sign_in("alice", f"wrong-{i}")
    staff = get_user_model().objects.create_superuser("sam", password=PASSWORD)
    admin = Client()
    admin.force_login(staff)
    listing = admin.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200 and "alice" in listing.content.decode()
    attempt = AccessAttempt.objects.get(username="alice")
    response = admin.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes"},
    )
    assert response.status_code == 302
    assert signed_in(sign_in("alice", PASSWORD))

"""Bodies the site cannot decode, and NUL bytes, get a plain 400: never a 500, never a view."""

from __future__ import annotations

import pytest
from django.test import Client

from dotsboxes.games.models import Game

FORM = "application/x-www-form-urlencoded"
ENDPOINTS = ["/rooms/new", "/accounts/login/", "/accounts/signup/", "/play/", "/reports/new/"]
BODIES = [
    (f"{FORM}; charset=utf-16", "name=Alice&width=2".encode("utf-16")),
    (f"{FORM}; charset=utf-32", "name=Alice".encode("utf-32")),
    ("multipart/form-data", b"--x\r\n"),  # no boundary at all
    ("multipart/form-data; boundary=\xff", b"--x\r\n"),
]
# Readable after all (Django ignores an unknown charset, a cut multipart body is empty).
ODD_BODIES = [
    (f"{FORM}; charset=no-such-codec", b"name=Alice"),
    ("multipart/form-data; boundary=x; charset=utf-16", b"--x\r\nContent-Disposition: form-da"),
    ("text/plain; charset=utf-16", "name=Alice".encode("utf-16")),
]


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize(("content_type", "body"), BODIES)
def test_an_undecodable_body_is_refused_with_400(settings, debug, url, content_type, body):
    settings.DEBUG = debug
    client = Client(raise_request_exception=False)
    response = client.generic("POST", url, data=body, content_type=content_type)
    assert response.status_code == 400, response.content[:500]
    assert b"Traceback" not in response.content
    assert b"could not be read" in response.content
    assert Game.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize(("content_type", "body"), ODD_BODIES)
def test_an_odd_but_readable_body_is_answered_without_error(
    settings, debug, url, content_type, body
):
    settings.DEBUG = debug
    client = Client(raise_request_exception=False)
    response = client.generic("POST", url, data=body, content_type=content_type)
    assert response.status_code < 500
    assert Game.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/rooms/new", {"name": "Al\x00ice", "width": 2, "height": 2, "side": "blue"}),
        ("/accounts/login/", {"username": "a\x00", "password": "x"}),
        ("/play/", {"width": "5\x00"}),
        ("/play/import/", {"record": "\x00"}),
    ],
)
def test_a_nul_byte_in_a_form_is_refused_with_a_plain_message(client, url, data):
    response = client.post(url, data)
    assert response.status_code == 400
    assert "not allowed (NUL)" in response.content.decode()
    assert Game.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/play/%00/", "/rooms/ab%00/", "/accounts/%00/", "/play/?x=%00"])
def test_a_nul_byte_in_the_address_is_refused(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "not allowed (NUL)" in response.content.decode()

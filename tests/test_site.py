"""The site shell: home page, navigation, health check, production settings."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent


def test_home_page_offers_every_section(db, client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    sections = {
        "Play the computer": reverse("games:new"),
        "Play on one device": reverse("games:new") + "?mode=local",
        "Online rooms": reverse("rooms:lobby"),
        "Learn": reverse("guide:index"),
        "Rules": reverse("guide:rules"),
    }
    for label, url in sections.items():
        assert f'<a href="{url}">{label}</a>' in html
        assert client.get(url).status_code == 200


def test_every_page_carries_csrf_for_htmx_and_serves_htmx_locally(db, client):
    html = client.get(reverse("home")).content.decode()
    assert 'hx-headers=\'{"x-csrftoken":' in html
    scripts = re.findall(r'<script[^>]* src="([^"]+)"', html)
    assert any(re.fullmatch(r"/static/django_htmx/htmx[^/]*\.js", src) for src in scripts)
    assert all(src.startswith("/static/") for src in scripts), scripts


def test_health_check_answers_when_the_database_does(db, client):
    response = client.get(reverse("healthz"))
    assert response.json() == {"status": "ok"}


HEALTH_WITHOUT_DATABASE = """
from django.test import Client
response = Client(raise_request_exception=False).get("/healthz", HTTP_HOST="localhost")
print(response.status_code)
print(response.content.decode())
"""


def test_health_check_answers_503_with_one_line_when_the_database_is_gone():
    # Issue 23.9: it answered 500, with a traceback in the log.  Nothing listens on port 9.
    from tests.test_settings import run_python

    result = run_python(HEALTH_WITHOUT_DATABASE, DATABASE_URL="postgres://nobody@127.0.0.1:9/gone")
    assert result.returncode == 0, result.stderr
    status, body = result.stdout.splitlines()[:2]
    assert status == "503"
    answer = json.loads(body)
    assert answer["status"] == "unavailable"
    assert answer["reason"].startswith("database unavailable: ") and "\n" not in answer["reason"]
    assert "Traceback" not in result.stderr
    assert "healthz: database unavailable" in result.stderr  # one log line says why


def test_deploy_check_is_clean_with_production_settings():
    # A production process never has the test suite's async escape hatch set.
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env |= {
        "DEBUG": "0",
        "SECRET_KEY": "x7!" + "k" * 60 + "q9$Zp",
        "ALLOWED_HOSTS": "dotsboxes.example",
        "DJANGO_SETTINGS_MODULE": "dotsboxes.settings",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(DEBUG="0", ALLOWED_HOSTS="dotsboxes.example")
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_the_favicon_is_served_at_the_site_root(db, client):
    # Every browser asks for /favicon.ico; it was a 404 (issue 23).
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
    body = b"".join(response.streaming_content)
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    assert b"PNG" in body[:64]  # its images are PNGs (16, 32 and 48 px)

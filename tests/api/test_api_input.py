"""Issue 23, items 9 and 12: the bot API refuses wrong types by name, and fails in JSON."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from dotsboxes.api.models import Challenge

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("width", "5"),
        ("width", 5.5),
        ("width", True),
        ("height", [5]),
        ("timer_seconds", "30"),
        ("rated", "yes"),
        ("rated", []),
        ("rated", 1),
        ("side", 1),
    ],
)
def test_a_challenge_of_the_wrong_type_is_refused_with_400_naming_the_field(
    beta_api, alphabot, field, value
):
    response = beta_api.post("/api/challenge/alphabot", {field: value})
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"].startswith(field)
    assert not Challenge.objects.exists()


def test_a_challenge_of_the_right_types_is_made_from_json_or_a_form(beta_api, alphabot):
    good = {"width": 3, "height": 2, "timer_seconds": 30, "rated": True, "side": "blue"}
    response = beta_api.post("/api/challenge/alphabot", good)
    assert response.status_code == 201, response.content
    made = response.json()["challenge"]
    assert (made["width"], made["height"], made["rated"]) == (3, 2, True)
    # A form body's fields are all text: "3" and "on" are what a form sends.
    form = Client().post(
        "/api/challenge/alphabot",
        {"width": "4", "height": "4", "rated": "on"},
        headers={"Authorization": f"Bearer {beta_api.token}"},
    )
    assert form.status_code == 201 and form.json()["challenge"]["width"] == 4
    bad = Client().post(
        "/api/challenge/alphabot",
        {"width": "4.5"},
        headers={"Authorization": f"Bearer {beta_api.token}"},
    )
    assert bad.status_code == 400 and bad.json()["error"].startswith("width")


def test_a_server_error_in_the_api_is_answered_in_json(beta_api, alphabot, caplog):
    # A real fault, not a stand-in: the table the challenge goes into is gone (rolled
    # back with the test's transaction).
    cascade = " CASCADE" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {Challenge._meta.db_table}{cascade}")
    beta_api.client.raise_request_exception = False
    response = beta_api.post("/api/challenge/alphabot", {"width": 2, "height": 2})
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert "error" in response.json()
    assert any(r.levelname == "ERROR" for r in caplog.records)  # the log keeps the traceback

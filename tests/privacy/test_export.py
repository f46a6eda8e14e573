"""Download my data: one zip, the player's data and records, nothing of anyone else's."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.test import Client

from dotsboxes.games.models import Game
from dotsboxes.notifications.models import Notification
from dotsboxes.rooms.models import Message
from dotsboxes.rules import parse_record

from .conftest import finished

pytestmark = pytest.mark.django_db


def download(client: Client) -> zipfile.ZipFile:
    response = client.post("/accounts/settings/data")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    return zipfile.ZipFile(io.BytesIO(response.content))


def test_the_archive_needs_sign_in_and_a_post(client, world):
    assert client.post("/accounts/settings/data").status_code == 302
    assert world["alice_client"].get("/accounts/settings/data").status_code == 405


def test_the_archive_holds_the_players_games_ratings_and_records(world):
    zf = download(world["alice_client"])
    data = json.loads(zf.read("dotsboxes-data.json"))
    over = world["over"]
    assert data["account"]["name"] == "alice" and data["account"]["email"] == "alice@example.com"
    ids = {g["id"] for g in data["games"]}
    assert ids == {over.public_id, world["playing"].game.public_id, world["waiting"].game.public_id}
    (history,) = data["ratings"]["history"]
    assert history["game"] == over.public_id and history["opponent"] == "bob"
    assert [t["name"] for t in data["tournaments"]] == ["Winter cup"]
    assert data["challenges"][0]["to"] == "alphabot"
    assert [t["name"] for t in data["api_tokens"]] == ["mine"]
    # Each game's record replays to the stored game.
    record = parse_record(zf.read(f"games/{over.public_id}.txt").decode())
    assert [str(e) for e in record.board().move_stack] == [m.edge for m in over.moves.all()]


def test_the_archive_holds_nothing_of_another_player(world):
    alice, bob = world["alice"], world["bob"]
    game = world["playing"].game
    Message.objects.create(
        room=world["playing"], kind="chat", author_key=f"u:{bob.pk}", name="bob", text="BOB-CHAT"
    )
    Message.objects.create(
        room=world["playing"], kind="chat", author_key=f"u:{alice.pk}", name="alice", text="hi bob"
    )
    Notification.objects.create(
        user=bob, game=game, kind="turn", version=77, created_at=game.created_at
    )
    bobs_other = finished(bob, world["alice"].__class__.objects.create_user("carol"), seed=3)
    game.refresh_from_db()
    zf = download(world["alice_client"])
    everything = b"".join(zf.read(name) for name in zf.namelist()).decode()
    assert "hi bob" in everything  # her own chat line
    for secret in (
        "bob-private@example.com",
        world["bob_token"],
        world["bob_token"][:10],  # even its prefix
        "bob's",  # his token's name
        "BOB-CHAT",
        bobs_other.public_id,  # a game she was not in
        "carol",
    ):
        assert secret not in everything, secret
    for token in (game.blue_token, game.red_token):
        assert not token or token not in everything
    data = json.loads(zf.read("dotsboxes-data.json"))
    assert all(n["game"] != game.public_id or n["kind"] != "turn" for n in data["notifications"])
    assert len(data["ratings"]["history"]) == 1  # hers, not Bob's row of the same game
    assert Game.objects.filter(pk=bobs_other.pk).exists()


def test_the_archive_holds_the_players_studies_only(world):
    from dotsboxes.games.records import record_text
    from dotsboxes.studies.notation import parse_study
    from dotsboxes.studies.services import study_import

    mine = study_import(owner=world["alice"], text=record_text(world["over"]))
    bobs = study_import(owner=world["bob"], text=record_text(world["over"]))
    zf = download(world["alice_client"])
    assert f"studies/{bobs.slug}.txt" not in zf.namelist()
    text = zf.read(f"studies/{mine.slug}.txt").decode()
    assert len(parse_study(text).chapters) == mine.chapters.count() == 1
    data = json.loads(zf.read("dotsboxes-data.json"))
    assert [s["id"] for s in data["studies"]] == [mine.slug]

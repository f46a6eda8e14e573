"""The bot API end to end through HTTP, with the real rooms' commands and database."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from django.test import Client

from dotsboxes.api import services, tokens
from dotsboxes.api.models import ApiToken, Challenge
from dotsboxes.games.models import Game
from dotsboxes.rooms import offers
from dotsboxes.rooms import services as rooms

from .conftest import ApiClient

pytestmark = pytest.mark.django_db


def alice_moves(alice, game_id: str, edge: str) -> None:
    game = Game.objects.get(public_id=game_id)
    rooms.room_play_move(
        public_id=game_id, viewer=services.viewer_of(alice), edge=edge, version=game.version
    )


# -- tokens: 401 -------------------------------------------------------------------------


def test_no_token_is_401_with_a_bearer_challenge(db):
    response = ApiClient("").get("/api/account")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert "token" in response.json()["error"]


def test_a_wrong_token_is_401(alphabot):
    assert ApiClient("dbx_not-a-real-token").get("/api/account").status_code == 401


def test_a_revoked_token_is_401_at_once(alphabot):
    row, token = tokens.token_create(user=alphabot)
    api = ApiClient(token)
    assert api.get("/api/account").json() == {"username": "alphabot", "bot": True}
    tokens.token_revoke(user=alphabot, token_id=row.pk)
    assert api.get("/api/account").status_code == 401


def test_tokens_are_stored_only_as_their_digest(alphabot):
    row, token = tokens.token_create(user=alphabot)
    stored = ApiToken.objects.get(pk=row.pk)
    assert token not in (stored.digest, stored.prefix)
    assert stored.digest == tokens.digest(token) and len(stored.digest) == 64


def test_a_signed_in_browser_without_a_token_is_401_and_posts_need_no_csrf(alice, alphabot):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    assert browser.get("/api/account").status_code == 401
    # No CSRF token, but a bearer token: the API view is exempt (the token is the proof).
    _row, token = tokens.token_create(user=alphabot)
    response = browser.post(
        "/api/challenge/alice",
        "{}",
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 400  # not 403 CSRF: alice is a person, not a bot


# -- challenges -------------------------------------------------------------------------


def test_a_bot_accepts_a_challenge_and_both_are_seated_in_an_ordinary_room(
    bot_api, challenge, alice, alphabot
):
    response = bot_api.post(f"/api/challenge/{challenge.pk}/accept")
    assert response.status_code == 200
    state = response.json()["game"]
    assert state["you"] == "red" and state["to_move"] == "blue"
    assert state["players"]["red"] == {"name": "alphabot", "user": True, "bot": True}
    assert state["players"]["blue"]["bot"] is False
    assert state["rated"] is False and state["moves"] == []
    game = Game.objects.get(public_id=state["id"])
    assert (game.blue_user_id, game.red_user_id, game.mode) == (alice.pk, alphabot.pk, "online")
    assert game.room.turn_deadline is None
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.ACCEPTED
    again = bot_api.post(f"/api/challenge/{challenge.pk}/accept")
    assert again.status_code == 409


def test_a_rated_challenge_opens_a_rated_game(bot_api, alice, alphabot):
    challenge = services.challenge_create(
        challenger=alice, target=alphabot, width=2, height=2, rated=True
    )
    state = bot_api.post(f"/api/challenge/{challenge.pk}/accept").json()["game"]
    assert state["rated"] is True


def test_a_bot_declines_a_challenge(bot_api, challenge):
    response = bot_api.post(f"/api/challenge/{challenge.pk}/decline")
    assert response.status_code == 200
    assert response.json()["challenge"]["status"] == "declined"


def test_only_the_challenged_bot_may_accept(beta_api, challenge):
    response = beta_api.post(f"/api/challenge/{challenge.pk}/accept")
    assert response.status_code == 403
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.PENDING


def test_an_unknown_challenge_is_404(bot_api):
    assert bot_api.post("/api/challenge/99999/accept").status_code == 404


def test_a_bot_challenges_another_bot(bot_api, beta_api, betabot):
    response = bot_api.post(
        "/api/challenge/betabot", {"width": 3, "height": 2, "timer_seconds": 60, "side": "red"}
    )
    assert response.status_code == 201
    sent = response.json()["challenge"]
    assert (sent["target"], sent["width"], sent["height"], sent["side"]) == ("betabot", 3, 2, "red")
    state = beta_api.post(f"/api/challenge/{sent['id']}/accept").json()["game"]
    assert state["you"] == "blue" and state["timer_seconds"] == 60


@pytest.mark.parametrize(
    "data, words",
    [
        ({"width": 12}, "from 1 to 9"),
        ({"width": "wide"}, "width must be a whole number"),
        ({"timer_seconds": 7}, "timer"),
        ({"side": "green"}, "Blue, Red or random"),
    ],
)
def test_a_bad_challenge_is_400_with_a_message_and_stores_nothing(bot_api, betabot, data, words):
    response = bot_api.post("/api/challenge/betabot", data)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert not Challenge.objects.exists()


def test_people_are_not_challenged_through_the_api(bot_api, alice):
    response = bot_api.post("/api/challenge/alice")
    assert response.status_code == 400 and "bot" in response.json()["error"]


def test_a_challenge_to_nobody_is_404(bot_api):
    assert bot_api.post("/api/challenge/nobody-here").status_code == 404


def test_a_body_that_is_not_json_is_400(bot_api, betabot):
    response = bot_api.client.post(
        "/api/challenge/betabot",
        "{not json",
        content_type="application/json",
        headers=bot_api._headers(),
    )
    assert response.status_code == 400 and "JSON" in response.json()["error"]


def test_a_get_on_a_post_endpoint_is_405(bot_api, game_id):
    assert bot_api.get(f"/api/game/{game_id}/move").status_code == 405


# -- playing -------------------------------------------------------------------------


def test_a_move_with_the_current_version_is_drawn(bot_api, alice, game_id):
    alice_moves(alice, game_id, "a1-b1")
    state = bot_api.get(f"/api/game/{game_id}").json()["game"]
    assert state["to_move"] == "red" and state["moves"] == ["a1-b1"]
    response = bot_api.post(
        f"/api/game/{game_id}/move", {"edge": "c3-c2", "version": state["version"]}
    )
    assert response.status_code == 200
    after = response.json()["game"]
    assert after["moves"] == ["a1-b1", "c2-c3"] and after["version"] == state["version"] + 1
    assert after["to_move"] == "blue"


def test_a_stale_version_is_409_with_the_current_state(bot_api, alice, game_id):
    before = bot_api.get(f"/api/game/{game_id}").json()["game"]["version"]
    alice_moves(alice, game_id, "a1-b1")
    response = bot_api.post(f"/api/game/{game_id}/move", {"edge": "a2-b2", "version": before})
    assert response.status_code == 409
    body = response.json()
    assert body["error"] and body["state"]["version"] == before + 1
    assert body["state"]["moves"] == ["a1-b1"]  # nothing was drawn


def test_moving_out_of_turn_is_409(bot_api, game_id):
    version = bot_api.get(f"/api/game/{game_id}").json()["game"]["version"]
    response = bot_api.post(f"/api/game/{game_id}/move", {"edge": "a1-b1", "version": version})
    assert response.status_code == 409
    assert Game.objects.get(public_id=game_id).moves.count() == 0


@pytest.mark.parametrize("edge", ["a1-c1", "z9-z8", "a1-b1"])
def test_an_illegal_edge_is_422_with_a_message_and_changes_nothing(bot_api, alice, game_id, edge):
    alice_moves(alice, game_id, "a1-b1")  # so "a1-b1" is already drawn
    version = Game.objects.get(public_id=game_id).version
    response = bot_api.post(f"/api/game/{game_id}/move", {"edge": edge, "version": version})
    assert response.status_code == 422
    assert response.json()["error"] and response.json()["state"]["moves"] == ["a1-b1"]
    game = Game.objects.get(public_id=game_id)
    assert (game.version, game.moves.count()) == (version, 1)


def test_a_move_without_an_edge_or_a_version_is_400(bot_api, alice, game_id):
    alice_moves(alice, game_id, "a1-b1")
    version = Game.objects.get(public_id=game_id).version
    assert bot_api.post(f"/api/game/{game_id}/move", {"version": version}).status_code == 400
    assert bot_api.post(f"/api/game/{game_id}/move", {"edge": "a2-b2"}).status_code == 400


def test_someone_elses_game_is_403(beta_api, game_id):
    assert beta_api.get(f"/api/game/{game_id}").status_code == 403
    response = beta_api.post(f"/api/game/{game_id}/move", {"edge": "a1-b1", "version": 1})
    assert response.status_code == 403
    assert beta_api.get(f"/api/game/{game_id}/stream").status_code == 403


def test_an_unknown_game_is_404(bot_api):
    assert bot_api.get("/api/game/no-such-game").status_code == 404
    assert bot_api.post("/api/game/no-such-game/resign", {"version": 0}).status_code == 404


def test_the_bot_resigns(bot_api, alice, game_id):
    alice_moves(alice, game_id, "a1-b1")
    version = Game.objects.get(public_id=game_id).version
    response = bot_api.post(f"/api/game/{game_id}/resign", {"version": version})
    assert response.status_code == 200
    state = response.json()["game"]
    assert (state["status"], state["result"], state["termination"]) == (
        "finished",
        "blue",
        "resigned",
    )


def test_a_draw_offered_by_the_bot_and_accepted_by_the_person(bot_api, alice, game_id):
    alice_moves(alice, game_id, "a1-b1")
    version = Game.objects.get(public_id=game_id).version
    offered = bot_api.post(f"/api/game/{game_id}/draw/offer", {"version": version})
    assert offered.status_code == 200 and offered.json()["game"]["draw_offer"] == "red"
    game = Game.objects.get(public_id=game_id)
    offers.room_answer(
        public_id=game_id,
        viewer=services.viewer_of(alice),
        kind="draw",
        accept=True,
        version=game.version,
    )
    state = bot_api.get(f"/api/game/{game_id}").json()["game"]
    assert (state["status"], state["result"]) == ("finished", "draw")


def test_the_bot_accepts_a_persons_draw_offer(bot_api, alice, game_id):
    game = Game.objects.get(public_id=game_id)
    offers.room_offer(
        public_id=game_id, viewer=services.viewer_of(alice), kind="draw", version=game.version
    )
    version = Game.objects.get(public_id=game_id).version
    response = bot_api.post(f"/api/game/{game_id}/draw/accept", {"version": version})
    assert response.status_code == 200 and response.json()["game"]["result"] == "draw"


def test_answering_a_draw_nobody_offered_is_409(bot_api, game_id):
    version = Game.objects.get(public_id=game_id).version
    assert bot_api.post(f"/api/game/{game_id}/draw/accept", {"version": version}).status_code == 409
    assert bot_api.post(f"/api/game/{game_id}/draw/maybe", {"version": version}).status_code == 404


# -- rate limits: 429 -------------------------------------------------------------------


def test_too_many_calls_are_429_with_retry_after(rate_limits, bot_api):
    rate_limits.RATE_LIMITS = {"api": ("3/h", "100/h")}
    statuses = [bot_api.get("/api/account").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = bot_api.get("/api/account")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "wait" in refused.json()["error"]


def test_too_many_challenges_are_429(rate_limits, bot_api, betabot):
    rate_limits.RATE_LIMITS = {"api_challenge": ("2/h", "100/h")}
    statuses = [bot_api.post("/api/challenge/betabot").status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert Challenge.objects.count() == 2


# -- streams --------------------------------------------------------------------------


def _lines(response) -> list[dict]:
    from asgiref.sync import async_to_sync

    async def read() -> bytes:
        return b"".join([part async for part in response.streaming_content])

    text = async_to_sync(read)().decode()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.django_db(transaction=True)
def test_the_game_stream_of_a_finished_game_sends_its_state_and_ends(bot_api, alice, game_id):
    alice_moves(alice, game_id, "a1-b1")
    version = Game.objects.get(public_id=game_id).version
    bot_api.post(f"/api/game/{game_id}/resign", {"version": version})
    response = bot_api.get(f"/api/game/{game_id}/stream")
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    lines = _lines(response)
    assert [line["type"] for line in lines] == ["gameState"]
    assert lines[0]["game"]["status"] == "finished" and lines[0]["game"]["moves"] == ["a1-b1"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_event_stream_announces_a_challenge_then_the_game_it_started(
    alice, bot_api, challenge, settings
):
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    # No poll would come within the test: the game's start arrives by its wake-up.
    settings.API_POLL_SECONDS = 60
    client = AsyncClient()
    response = await client.get(
        "/api/stream/event", headers={"Authorization": f"Bearer {bot_api.token}"}
    )
    assert response.status_code == 200
    lines = response.streaming_content.__aiter__()

    async def next_event() -> dict:
        while True:
            raw = (await asyncio.wait_for(lines.__anext__(), 10)).strip()
            if raw:
                return json.loads(raw)

    first = await next_event()
    assert first["type"] == "challenge" and first["challenge"]["id"] == challenge.pk
    await sync_to_async(services.challenge_accept)(challenge_id=challenge.pk, user=challenge.target)
    started = await next_event()
    game = await sync_to_async(Challenge.objects.values_list("game__public_id", flat=True).get)(
        pk=challenge.pk
    )
    assert started == {"type": "gameStart", "game": {"id": game}}
    await lines.aclose()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_game_stream_sends_each_change_as_it_commits(alice, bot_api, game_id, settings):
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    settings.API_POLL_SECONDS = 60  # only a wake-up can bring the move in time
    response = await AsyncClient().get(
        f"/api/game/{game_id}/stream", headers={"Authorization": f"Bearer {bot_api.token}"}
    )
    lines = response.streaming_content.__aiter__()

    async def next_state() -> dict:
        while True:
            raw = (await asyncio.wait_for(lines.__anext__(), 10)).strip()
            if raw:
                return json.loads(raw)["game"]

    first = await next_state()
    assert first["moves"] == [] and first["to_move"] == "blue"
    await sync_to_async(alice_moves)(alice, game_id, "a1-b1")
    second = await next_state()
    assert second["moves"] == ["a1-b1"] and second["version"] == first["version"] + 1
    assert second["to_move"] == "red" and second["you"] == "red"
    await lines.aclose()


def test_an_unanswered_challenge_expires_and_can_no_longer_be_accepted(bot_api, challenge):
    Challenge.objects.filter(pk=challenge.pk).update(
        created_at=Challenge.open_since() - timedelta(seconds=1)
    )
    response = bot_api.post(f"/api/challenge/{challenge.pk}/accept")
    assert response.status_code == 409 and "expired" in response.json()["error"]
    assert not Game.objects.exists()
    from dotsboxes.api.streams import _events_since, _Seen

    assert _events_since(challenge.target_id, _Seen()) == []  # not offered to the bot again


@pytest.mark.parametrize(
    "body",
    [b"[" * 100_000 + b"]" * 100_000, b'{"a": ' * 100_000 + b"1" + b"}" * 100_000],
    ids=["array", "object"],
)
def test_json_nested_past_the_parsers_depth_is_400_not_500(bot_api, betabot, body):
    # json.loads raises RecursionError (not ValueError) on it: it answered 500.
    response = bot_api.client.post(
        "/api/challenge/betabot", body, content_type="application/json", headers=bot_api._headers()
    )
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    assert not Challenge.objects.exists()


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e400"])
def test_a_version_or_size_that_is_not_a_finite_number_is_refused_not_500(
    bot_api, alice, game_id, betabot, number
):
    # int(float("inf")) raises OverflowError, which nothing caught: both answered 500.
    alice_moves(alice, game_id, "a1-b1")
    challenges = Challenge.objects.count()  # (the game's own)
    move = bot_api.client.post(
        f"/api/game/{game_id}/move",
        '{"edge": "c3-c2", "version": ' + number + "}",
        content_type="application/json",
        headers=bot_api._headers(),
    )
    assert move.status_code in (400, 409) and move.json()["error"]
    assert Game.objects.get(public_id=game_id).moves.count() == 1
    challenge = bot_api.client.post(
        "/api/challenge/betabot",
        '{"width": ' + number + "}",
        content_type="application/json",
        headers=bot_api._headers(),
    )
    assert challenge.status_code == 400 and challenge.json()["error"]
    assert Challenge.objects.count() == challenges


def test_a_body_past_the_upload_limit_is_a_json_400_and_logs_no_traceback(
    bot_api, betabot, settings, caplog
):
    # request.body raised RequestDataTooBig: Django's own 400 page (not JSON), and a
    # traceback in the log for every such call.
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = bot_api.client.post(
        "/api/challenge/betabot",
        '{"side": "' + "x" * 2000 + '"}',
        content_type="application/json",
        headers=bot_api._headers(),
    )
    assert response.status_code == 400 and "too large" in response.json()["error"]
    assert not [r for r in caplog.records if r.exc_info]
    assert not Challenge.objects.exists()


def test_a_multipart_form_body_is_read_like_a_form(bot_api, alice, game_id):
    # The middleware had read the multipart stream, and request.body then raised
    # RawPostDataException: a 500.
    alice_moves(alice, game_id, "a1-b1")
    version = bot_api.get(f"/api/game/{game_id}").json()["game"]["version"]
    response = bot_api.client.post(
        f"/api/game/{game_id}/move",
        {"edge": "c3-c2", "version": version},  # the test client sends multipart
        headers=bot_api._headers(),
    )
    assert response.status_code == 200
    assert response.json()["game"]["moves"] == ["a1-b1", "c2-c3"]

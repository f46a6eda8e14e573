"""The bot API: JSON endpoints and NDJSON streams, authenticated by a personal token.

Every action calls the rooms' own command (:mod:`dotsboxes.rooms.services`) with
the bot as the viewer, exactly as the room page's buttons do; this module only
reads JSON, picks the command and writes JSON.  See docs/API.md.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connections
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from dotsboxes.games.errors import ConflictError, GameError, IllegalEdgeError
from dotsboxes.rooms import offers
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.errors import Forbidden, NotFound
from dotsboxes.rooms.models import Room

from . import services, streams
from .auth import body, refused, text, token_view, true_or_false, whole_number
from .models import Challenge
from .presenters import challenge_state, game_state

NDJSON = "application/x-ndjson"


def _room_of(public_id: str, user: AbstractBaseUser) -> Room:
    """The room of a game ``user`` sits in: 404 if none, 403 if someone else's."""
    room = Room.objects.select_related("game").filter(game__public_id=public_id).first()
    if room is None:
        raise NotFound(_("There is no game with this id."))
    if user.pk not in (room.game.blue_user_id, room.game.red_user_id):
        raise Forbidden(_("This is not your game."))
    return room


def _version(data: dict) -> int | None:
    try:
        return int(data.get("version"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _act(
    request: HttpRequest, user: AbstractBaseUser, public_id: str, command: Callable
) -> JsonResponse:
    """Run a room command for ``user``; answer the game's state, or the refusal (a
    conflict, such as a stale version, and an illegal edge carry the current state to
    resync from)."""
    _room_of(public_id, user)
    data = body(request)
    if "version" not in data:
        raise GameError(_("Send the game's version with every action."))
    viewer = services.viewer_of(user)
    try:
        command(viewer, _version(data), data)
    except (ConflictError, IllegalEdgeError) as exc:
        return refused(exc, state=game_state(_room_of(public_id, user), user))
    return JsonResponse({"game": game_state(_room_of(public_id, user), user)})


@token_view()
def account(request: HttpRequest, user: AbstractBaseUser) -> JsonResponse:
    return JsonResponse({"username": user.get_username(), "bot": services.is_bot(user)})


@token_view()
def game(request: HttpRequest, user: AbstractBaseUser, public_id: str) -> JsonResponse:
    return JsonResponse({"game": game_state(_room_of(public_id, user), user)})


@token_view(methods=("POST",))
def move(request: HttpRequest, user: AbstractBaseUser, public_id: str) -> JsonResponse:
    def command(viewer, version, data):
        edge = data.get("edge")
        if not isinstance(edge, str) or not edge.strip():
            raise GameError(_('Name the edge to draw, e.g. {"edge": "a1-b1"}.'))
        rooms.room_play_move(public_id=public_id, viewer=viewer, edge=edge, version=version)

    return _act(request, user, public_id, command)


@token_view(methods=("POST",))
def resign(request: HttpRequest, user: AbstractBaseUser, public_id: str) -> JsonResponse:
    return _act(
        request,
        user,
        public_id,
        lambda viewer, version, _data: rooms.room_resign(
            public_id=public_id, viewer=viewer, version=version
        ),
    )


@token_view(methods=("POST",))
def abort(request: HttpRequest, user: AbstractBaseUser, public_id: str) -> JsonResponse:
    return _act(
        request,
        user,
        public_id,
        lambda viewer, version, _data: rooms.room_abort(
            public_id=public_id, viewer=viewer, version=version
        ),
    )


@token_view(methods=("POST",))
def draw(request: HttpRequest, user: AbstractBaseUser, public_id: str, what: str) -> JsonResponse:
    if what not in ("offer", "accept", "decline"):
        raise NotFound(_("Draws are offered, accepted or declined: nothing else."))

    def command(viewer, version, _data):
        if what == "offer":
            offers.room_offer(public_id=public_id, viewer=viewer, kind="draw", version=version)
        else:
            offers.room_answer(
                public_id=public_id,
                viewer=viewer,
                kind="draw",
                accept=what == "accept",
                version=version,
            )

    return _act(request, user, public_id, command)


@token_view(methods=("POST",), scope="api_challenge")
def challenge_create(request: HttpRequest, user: AbstractBaseUser, username: str) -> JsonResponse:
    target = get_user_model().objects.filter(username=username, is_active=True).first()
    if target is None:
        raise NotFound(_("There is no player with this name."))
    data = body(request)
    challenge = services.challenge_create(
        challenger=user,
        target=target,
        width=whole_number(data, "width", 5),
        height=whole_number(data, "height", 5),
        timer_seconds=whole_number(data, "timer_seconds", 0),
        rated=true_or_false(data, "rated", False),
        side=text(data, "side", "random"),
    )
    return JsonResponse({"challenge": challenge_state(challenge)}, status=201)


@token_view(methods=("POST",))
def challenge_accept(request: HttpRequest, user: AbstractBaseUser, challenge_id: int):
    room = services.challenge_accept(challenge_id=challenge_id, user=user)
    return JsonResponse({"game": game_state(room, user)})


@token_view(methods=("POST",))
def challenge_decline(request: HttpRequest, user: AbstractBaseUser, challenge_id: int):
    challenge = services.challenge_decline(challenge_id=challenge_id, user=user)
    challenge = Challenge.objects.select_related("challenger", "target").get(pk=challenge.pk)
    return JsonResponse({"challenge": challenge_state(challenge)})


def _stream(lines) -> StreamingHttpResponse:
    # The request's pooled connection goes back now: a stream lasts as long as its bot
    # is online, and each poll borrows a connection only while it reads.
    connections.close_all()
    response = StreamingHttpResponse(lines, content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
    return response


@token_view(scope="api_stream")
def event_stream(request: HttpRequest, user: AbstractBaseUser) -> StreamingHttpResponse:
    return _stream(streams.events(user.pk))


@token_view(scope="api_stream")
def game_stream(request: HttpRequest, user: AbstractBaseUser, public_id: str):
    _room_of(public_id, user)
    return _stream(streams.game(public_id, user.pk))

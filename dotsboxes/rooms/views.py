"""Room pages and actions.

Actions are POSTs (CSRF-checked, htmx or plain forms).  An htmx request gets
the room's fragments back at once; the same change reaches everyone else
through the WebSocket push.  Refusals come back with a 4xx status and a plain
message; nothing is stored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from dotsboxes import throttle
from dotsboxes.games.errors import GameError
from dotsboxes.text import control_character_message, first_control_character

from . import offers, services
from .chat import CHAT_PRESETS, room_chat
from .errors import RoomError, StaleVersion, TooFast
from .forms import CreateRoomForm, JoinForm
from .identity import NAME_KEY, Viewer, ensure_token, seat_of, viewer_from_request
from .models import Room
from .presenters import CHAT_PRESET_LABELS, lobby_rooms, room_view
from .push import render_room
from .steps import RoomChange

logger = logging.getLogger(__name__)


def _room(public_id: str) -> Room:
    return get_object_or_404(Room.objects.select_related("game"), game__public_id=public_id)


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    open_rooms, live = lobby_rooms(request.user.pk)
    form = CreateRoomForm(
        signed_in=request.user.is_authenticated,
        default_name=request.session.get(NAME_KEY, ""),
    )
    return render(
        request, "rooms/lobby.html", {"open_rooms": open_rooms, "live": live, "form": form}
    )


@require_POST
@throttle.limit("room_create")
def create(request: HttpRequest) -> HttpResponse:
    form = CreateRoomForm(request.POST, signed_in=request.user.is_authenticated)
    if not form.is_valid():
        open_rooms, live = lobby_rooms(request.user.pk)
        context = {"open_rooms": open_rooms, "live": live, "form": form}
        return render(request, "rooms/lobby.html", context, status=400)
    data = form.cleaned_data
    viewer = ensure_token(request, data.get("name"))
    try:
        room = services.room_create(
            viewer=viewer,
            width=data["width"],
            height=data["height"],
            host_side=data["side"],
            timer_seconds=data["timer"],
            is_public=data["visibility"] == "public",
            rated=data.get("rated", False),
        )
    except GameError as exc:
        return _refused(request, None, exc)
    return redirect(room)


@require_GET
def room(request: HttpRequest, public_id: str) -> HttpResponse:
    room = _room(public_id)
    viewer = viewer_from_request(request)
    view = room_view(room)
    me = seat_of(room.game, viewer)
    join_form = None
    if not me and view.active and not view.started:
        join_form = JoinForm(initial={"name": viewer.name})
    context = {
        "v": view,
        "me": me or "spectator",
        "is_host": me == room.host_side,
        "join_form": join_form,
        "invite_url": request.build_absolute_uri(room.get_absolute_url()),
        "presets": [(p, CHAT_PRESET_LABELS.get(p, p)) for p in CHAT_PRESETS],
    }
    return render(request, "rooms/room.html", context)


@require_GET
def state(request: HttpRequest, public_id: str) -> HttpResponse:
    """The whole room as out-of-band fragments: what a client re-fetches after a gap."""
    return HttpResponse(render_room(_room(public_id)))


@require_POST
def join(request: HttpRequest, public_id: str) -> HttpResponse:
    room = _room(public_id)
    if request.user.is_authenticated:
        viewer = ensure_token(request)
    else:
        form = JoinForm(request.POST)
        if not form.is_valid():
            return _refused(request, room, RoomError(" ".join(form.errors["name"])))
        viewer = ensure_token(request, form.cleaned_data["name"])
    try:
        services.room_join(public_id=public_id, viewer=viewer)
    except GameError as exc:
        return _refused(request, room, exc)
    # The page changes for this viewer (buttons, clickable board): load it again.
    if request.htmx:
        return HttpResponseClientRedirect(room.get_absolute_url())
    return redirect(room)


def _version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _act(
    request: HttpRequest,
    public_id: str,
    action: Callable[[Viewer, int | None], RoomChange | object],
    *,
    limit: str = "",
) -> HttpResponse:
    if limit:
        wait = throttle.hit(limit, *throttle.request_keys(request))
        if wait:
            room = Room.objects.filter(game__public_id=public_id).first()
            return _refused(request, room, TooFast(throttle.message(wait), wait))
    viewer = viewer_from_request(request)
    version = _version(request)
    try:
        result = action(viewer, version)
    except GameError as exc:
        return _refused(request, Room.objects.filter(game__public_id=public_id).first(), exc)
    if isinstance(result, RoomChange) and result.rematch is not None:
        if request.htmx:
            return HttpResponseClientRedirect(result.rematch.get_absolute_url())
        return redirect(result.rematch)
    if request.htmx:
        if isinstance(result, RoomChange):
            return _committed(lambda: _answer(result))
        return _committed(lambda: render_room(_room(public_id)))  # chat: the room as it is now
    return redirect(reverse("rooms:room", args=[public_id]))


#: What a page is told when the change counted but could not be read back: fetch the room.
RESYNC_EVENT = "room-resync"


def _committed(render: Callable[[], str]) -> HttpResponse:
    """The answer to a committed change: never an error, since the change counted.

    Reading the room back can meet a database connection that died after the commit
    (a failover, a restart): try once more on a fresh connection, then answer a plain
    success that makes the page fetch the room itself (rooms.js), so a player never
    sees an error for a move that counted and plays it again.
    """
    for attempt in (1, 2):
        try:
            return HttpResponse(render())
        except DatabaseError:
            logger.warning("room answer after commit: database error (try %d)", attempt)
            connection.close()  # the next query opens a fresh connection
    response = HttpResponse("")
    response["HX-Trigger"] = RESYNC_EVENT
    return response


def _answer(result: RoomChange) -> str:
    """The fragments of the change in the request's language: the push it sent after
    commit; else (no change, the push failed, or a caller's transaction still open)
    the whole room as committed."""
    html = result.pushes.get(translation.get_language())
    return html if html is not None else render_room(result.room)


def _refused(request: HttpRequest, room: Room | None, exc: GameError) -> HttpResponse:
    message = str(exc)
    if request.htmx:
        html = render_to_string("rooms/push.html#error", {"message": message})
        if room is not None and isinstance(exc, StaleVersion):
            html += render_room(room)
        response = HttpResponse(html, status=exc.status)
    else:
        context = {"message": message, "room": room}
        response = render(request, "rooms/refused.html", context, status=exc.status)
    if isinstance(exc, TooFast):
        throttle.retry_after(response, exc.wait)
    return response


@require_POST
def move(request: HttpRequest, public_id: str) -> HttpResponse:
    edge = request.POST.get("edge", "")
    return _act(
        request,
        public_id,
        lambda viewer, version: services.room_play_move(
            public_id=public_id, viewer=viewer, edge=edge, version=version
        ),
        limit="move",
    )


@require_POST
def resign(request: HttpRequest, public_id: str) -> HttpResponse:
    return _act(
        request,
        public_id,
        lambda viewer, version: services.room_resign(
            public_id=public_id, viewer=viewer, version=version
        ),
    )


@require_POST
def abort(request: HttpRequest, public_id: str) -> HttpResponse:
    return _act(
        request,
        public_id,
        lambda viewer, version: services.room_abort(
            public_id=public_id, viewer=viewer, version=version
        ),
    )


@require_POST
def offer(request: HttpRequest, public_id: str, kind: str) -> HttpResponse:
    return _act(
        request,
        public_id,
        lambda viewer, version: offers.room_offer(
            public_id=public_id, viewer=viewer, kind=kind, version=version
        ),
        limit="offer",
    )


@require_POST
def answer(request: HttpRequest, public_id: str, kind: str) -> HttpResponse:
    accept = request.POST.get("answer") == "accept"
    return _act(
        request,
        public_id,
        lambda viewer, version: offers.room_answer(
            public_id=public_id, viewer=viewer, kind=kind, accept=accept, version=version
        ),
        limit="offer",
    )


@require_POST
def swap(request: HttpRequest, public_id: str) -> HttpResponse:
    on = request.POST.get("swap") == "on"
    return _act(
        request,
        public_id,
        lambda viewer, _version: offers.room_set_swap(public_id=public_id, viewer=viewer, swap=on),
    )


@require_POST
def chat(request: HttpRequest, public_id: str) -> HttpResponse:
    text = request.POST.get("preset") or request.POST.get("text", "")
    char = first_control_character(text)
    if char is not None:
        room = Room.objects.filter(game__public_id=public_id).first()
        return _refused(request, room, RoomError(control_character_message(char)))
    return _act(
        request,
        public_id,
        lambda viewer, _version: room_chat(public_id=public_id, viewer=viewer, text=text),
        limit="chat",
    )

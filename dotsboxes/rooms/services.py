"""Room commands: what only an online game has (seats by invitation, offers, the turn
clock, chat), as a layer over the game core (:mod:`dotsboxes.games.services`).

Each command runs in ``transaction.atomic`` with the room and game rows locked
in one statement (``select_for_update``; SQLite serialises writers with
IMMEDIATE transactions instead), checks who is asking, and then uses the core's
own steps for the game: the version check, drawing edges, taking back, ending,
and :func:`~dotsboxes.games.services.commit`, whose one change event the
room's pushes listen to (:mod:`dotsboxes.rooms.push`).  Only chat and presence,
which do not change the game, push by themselves.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from dotsboxes import clock
from dotsboxes.games import services as games
from dotsboxes.games.events import Drawn
from dotsboxes.games.models import Game, Side
from dotsboxes.games.turns import both_have_played, takeback_start

from . import push
from .errors import Conflict, Forbidden, NotFound, RoomError, TooFast
from .identity import Viewer, seat_of
from .models import CHAT_MAX_LENGTH, CORRESPONDENCE_FROM, Message, Room
from .presenters import OFFER_NAMES

OFFER_KINDS = ("draw", "takeback", "rematch")
CHAT_PRESETS = ("Hello!", "Good luck", "Have fun", "Nice move", "Thanks", "Good game", "Oops")


def other(side: str) -> str:
    return Side.RED.value if side == Side.BLUE else Side.BLUE.value


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def away_grace() -> timedelta:
    """How long a seat may stay empty before the computer plays for it."""
    return timedelta(seconds=_setting("ROOMS_AWAY_SECONDS", 60))


def _locked(public_id: str, *, skip_locked: bool = False) -> tuple[Room, Game] | None:
    """The room and its game, both rows locked (one statement, so one lock order)."""
    rooms = Room.objects.select_for_update(skip_locked=skip_locked).select_related("game")
    room = rooms.filter(game__public_id=public_id).first()
    if room is None:
        if skip_locked:
            return None
        raise NotFound(_("There is no room at this address."))
    return room, room.game


def _lock(public_id: str) -> tuple[Room, Game]:
    found = _locked(public_id)
    assert found is not None
    return found


def _seated(game: Game, viewer: Viewer, refusal: str) -> str:
    """The viewer's side; ``refusal`` (a whole sentence) for a spectator."""
    side = seat_of(game, viewer)
    if not side:
        raise Forbidden(refusal)
    return side


def _playing(
    public_id: str, viewer: Viewer, refusal: str, version: int | None, *, alone: str = ""
) -> tuple[Room, Game, str]:
    """Lock room and game for an action in play: the viewer must be seated, the game
    on (and both seats taken, if ``alone`` says why not), the version current."""
    room, game = _lock(public_id)
    side = _seated(game, viewer, refusal)
    games.check_active(game)
    if alone and not _both_seated(game):
        raise Conflict(alone)
    games.check_version(game, version)
    return room, game, side


def _both_seated(game: Game) -> bool:
    return all(
        getattr(game, f"{side}_user_id") or getattr(game, f"{side}_token") for side in Side.values
    )


def log_line(room: Room, text: str, params: dict | None = None, *, ply: int | None = None) -> None:
    """A system line: ``text`` is its English sentence (marked with ``gettext_noop``)
    with named placeholders for ``params``; each reader reads it in their language
    (``rooms.presenters.line_text``: sides and offers go in as keys, names as typed)."""
    Message.objects.create(
        room=room,
        kind=Message.Kind.SYSTEM,
        text=text[:CHAT_MAX_LENGTH],
        params=params or {},
        ply=ply,
    )


def _restart_clock(room: Room, game: Game) -> None:
    if room.timer_seconds and game.status == Game.Status.ACTIVE and _both_seated(game):
        room.turn_deadline = clock.now() + timedelta(seconds=room.timer_seconds)
    else:
        room.turn_deadline = None


def _changed(room: Room, game: Game, event: str, drawn: tuple[Drawn, ...] = ()) -> None:
    """Save the room and hand the game to the core's commit: the version is bumped,
    and the change event (which the room's pushes listen to) goes out after commit."""
    room.save()
    games.commit(game, event, drawn)


def _finish(room: Room, game: Game, result: str, termination: str) -> None:
    games.end_game(game, result=result, termination=termination)
    _game_over(room)


def _game_over(room: Room) -> None:
    room.turn_deadline = None
    room.draw_offer = room.takeback_offer = ""


# -- creating and joining ------------------------------------------------------------


def room_create(
    *,
    viewer: Viewer,
    width: int = 5,
    height: int = 5,
    host_side: str = "random",
    timer_seconds: int = 0,
    is_public: bool = True,
    rated: bool = False,
) -> Room:
    """Open a room with the host seated; the other seat waits for the first visitor."""
    if host_side == "random":
        host_side = random.choice(Side.values)
    if host_side not in Side.values:
        raise RoomError(_("Choose Blue, Red or random for your side."))
    if timer_seconds not in Room.Timer.values:
        raise RoomError(_("Choose no timer, 30 or 60 seconds, or 1, 2, 3, 5 or 7 days a move."))
    correspondence = timer_seconds >= CORRESPONDENCE_FROM
    if correspondence and not viewer.signed_in:
        # A game that lasts weeks needs an account: the "your turn" list and notices.
        raise Forbidden(_("Sign in to play correspondence games."))
    if rated and not viewer.signed_in:
        raise Forbidden(_("Sign in to play rated games."))
    if not viewer.signed_in and not viewer.token:
        raise RoomError(_("Choose a display name first."))
    host = _actor(viewer)
    with transaction.atomic():
        game = games.game_create(
            actor=host,
            mode=Game.Mode.ONLINE,
            width=width,
            height=height,
            rated=rated,
            **{host_side: host, f"{host_side}_name": viewer.name or Side(host_side).label},
        )
        room = Room.objects.create(
            game=game, host_side=host_side, is_public=is_public, timer_seconds=timer_seconds
        )
        log_line(
            room,
            gettext_noop("%(name)s opened the room and sits as %(side)s."),
            {"name": viewer.name, "side": host_side},
        )
    return room


def _actor(viewer: Viewer) -> games.Actor:
    """The seat a viewer takes: their account when signed in, else their browser."""
    if viewer.signed_in:
        return games.Actor(user_id=viewer.user_id)
    return games.Actor(token=viewer.token)


def _seat(game: Game, side: str, viewer: Viewer) -> None:
    seat = _actor(viewer)
    setattr(game, f"{side}_name", viewer.name or Side(side).label)
    setattr(game, f"{side}_user_id", seat.user_id)
    setattr(game, f"{side}_token", seat.token)


def room_join(*, public_id: str, viewer: Viewer) -> tuple[Room, str]:
    """Take the free seat; return the room and the viewer's side ("" if they only watch)."""
    with transaction.atomic():
        room, game = _lock(public_id)
        side = seat_of(game, viewer)
        if side:
            return room, side
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("This game is over: you can watch it, but not sit down."))
        free = [
            s
            for s in Side.values
            if not (getattr(game, f"{s}_user_id") or getattr(game, f"{s}_token"))
        ]
        if not free:
            raise Conflict(_("Both seats are taken: you are watching this game."))
        if game.rated and not viewer.signed_in:
            raise Forbidden(_("This game is rated: sign in to take the seat."))
        if room.is_correspondence and not viewer.signed_in:
            raise Forbidden(_("This is a correspondence game: sign in to take the seat."))
        if not viewer.signed_in and not viewer.token:
            raise RoomError(_("Choose a display name first."))
        side = free[0]
        _seat(game, side, viewer)
        log_line(
            room,
            gettext_noop("%(name)s sits down as %(side)s. The game is on!"),
            {"name": viewer.name or Side(side).label, "side": side},
        )
        _restart_clock(room, game)
        _changed(room, game, "seated")
    return room, side


# -- moves --------------------------------------------------------------------------


def draw_for_side_to_move(
    room: Room, game: Game, edges: list[str], *, by_computer: bool
) -> tuple[Drawn, ...]:
    """Draw ``edges`` through the core (rows locked by the caller), then keep the
    room in step: whose turn, stale offers, the clock.  Nothing changes if an edge
    is not legal."""
    drawn = games.draw_edges(game, edges, by_computer=by_computer)
    board = game.board()
    room.to_move = Side.of(board.turn).value
    # The push of this edge withdraws these offers on the page (and nothing else of the actions).
    room.offers_withdrawn = tuple(k for k in ("draw", "takeback") if getattr(room, f"{k}_offer"))
    room.draw_offer = room.takeback_offer = ""
    if game.status != Game.Status.ACTIVE:
        _game_over(room)
    _restart_clock(room, game)  # no deadline once the game is over
    return drawn


def room_play_move(*, public_id: str, viewer: Viewer, edge: str, version: int | None) -> Room:
    """A seated player draws one edge on their turn.

    The hot path of a live room: one locked read of room and game, one read of
    the moves; the push is rendered from these rows after commit."""
    with transaction.atomic():
        alone = _("Wait for an opponent to take the free seat.")
        refusal = _("Only the two players can draw edges; you are watching this game.")
        room, game, side = _playing(public_id, viewer, refusal, version, alone=alone)
        games.check_turn(game, Side.of(game.board().turn), [Side(side)])
        drawn = draw_for_side_to_move(room, game, [str(edge)[:16]], by_computer=False)
        _changed(room, game, "move", drawn)
    return room


# -- ending a game ----------------------------------------------------------------------


def room_resign(*, public_id: str, viewer: Viewer, version: int | None) -> Room:
    """The player gives up: the opponent wins."""
    with transaction.atomic():
        alone = _("Nobody has taken the other seat yet: abort the game instead.")
        refusal = _("Only the two players can resign; you are watching this game.")
        room, game, side = _playing(public_id, viewer, refusal, version, alone=alone)
        games.resign(game, Side(side))
        _game_over(room)
        log_line(
            room,
            gettext_noop("%(name)s resigned. %(winner)s wins."),
            {"name": game.name_of(Side(side)), "winner": other(side)},
        )
        _changed(room, game, "resign")
    return room


def room_abort(*, public_id: str, viewer: Viewer, version: int | None) -> Room:
    """Call the game off while at least one player has not finished a turn."""
    with transaction.atomic():
        refusal = _("Only the two players can abort the game; you are watching this game.")
        room, game, side = _playing(public_id, viewer, refusal, version)
        if both_have_played(game.board()):
            raise Conflict(_("Both players have moved: you can resign or offer a draw instead."))
        _finish(room, game, Game.Result.NONE, Game.Termination.ABORTED)
        log_line(
            room, gettext_noop("%(name)s aborted the game."), {"name": game.name_of(Side(side))}
        )
        _changed(room, game, "abort")
    return room


# -- offers: draw, take-back, rematch ------------------------------------------------------


def room_offer(*, public_id: str, viewer: Viewer, kind: str, version: int | None) -> Room:
    """Offer a draw, ask for a take-back or propose a rematch; the opponent answers."""
    if kind not in OFFER_KINDS:
        raise RoomError(_("Unknown offer."))
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(
            game, viewer, _("Only the two players can make offers; you are watching this game.")
        )
        games.check_version(game, version)
        if not _both_seated(game):
            raise Conflict(_("Nobody has taken the other seat yet."))
        pending = getattr(room, f"{kind}_offer")
        if pending == side:
            raise Conflict(
                _("You already offered %(offer)s: wait for the answer.")
                % {"offer": OFFER_NAMES[kind]}
            )
        if pending:
            raise Conflict(
                _("Your opponent already offers %(offer)s: answer it instead.")
                % {"offer": OFFER_NAMES[kind]}
            )
        board = game.board()
        if kind == "rematch":
            if game.status == Game.Status.ACTIVE:
                raise Conflict(_("Finish this game before proposing a rematch."))
            if game.rematches.exists():
                raise Conflict(_("The rematch has already started."))
        else:
            games.check_active(game)
            if room.declined.get(f"{kind}:{side}") == len(board.move_stack):
                raise Conflict(
                    _("Your opponent declined %(offer)s: you can ask again after the next move.")
                    % {"offer": OFFER_NAMES[kind]}
                )
            if kind == "takeback" and takeback_start(board, Side(side).player) is None:
                raise Conflict(_("You have not drawn anything to take back yet."))
        setattr(room, f"{kind}_offer", side)
        log_line(
            room,
            gettext_noop("%(name)s offers %(offer)s."),
            {"name": game.name_of(Side(side)), "offer": kind},
        )
        _changed(room, game, "offer")
    return room


def room_answer(
    *, public_id: str, viewer: Viewer, kind: str, accept: bool, version: int | None
) -> Room:
    """Accept or decline the opponent's pending offer; return the room to show next."""
    if kind not in OFFER_KINDS:
        raise RoomError(_("Unknown offer."))
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(
            game, viewer, _("Only the two players can answer offers; you are watching this game.")
        )
        games.check_version(game, version)
        offerer = getattr(room, f"{kind}_offer")
        if not offerer:
            raise Conflict(
                _("There is no offer of %(offer)s to answer.") % {"offer": OFFER_NAMES[kind]}
            )
        if offerer == side:
            raise Conflict(_("You cannot answer your own offer."))
        setattr(room, f"{kind}_offer", "")
        name = game.name_of(Side(side))
        board = game.board()
        if not accept:
            if kind != "rematch":
                room.declined = {**room.declined, f"{kind}:{offerer}": len(board.move_stack)}
            log_line(
                room, gettext_noop("%(name)s declined %(offer)s."), {"name": name, "offer": kind}
            )
            _changed(room, game, "offer")
            return room
        if kind == "draw":
            games.check_active(game)
            _finish(room, game, Game.Result.DRAW, Game.Termination.AGREED)
            log_line(
                room,
                gettext_noop("%(name)s accepted the draw: the game is drawn by agreement."),
                {"name": name},
            )
            _changed(room, game, "draw")
            return room
        if kind == "takeback":
            games.check_active(game)
            _take_back(room, game, offerer)
            _changed(room, game, "takeback")
            return room
        new_room = _rematch(room, game)
        log_line(room, gettext_noop("%(name)s accepted the rematch."), {"name": name})
        _changed(room, game, "rematch")
        return new_room


def _take_back(room: Room, game: Game, requester: str) -> None:
    start = takeback_start(game.board(), Side(requester).player)
    if start is None:
        raise Conflict(_("There is nothing to take back."))
    removed = games.take_back_to(game, start)
    room.to_move = Side.of(game.board().turn).value
    _restart_clock(room, game)
    log_line(
        room,
        gettext_noop("Take-back accepted: %(edges)s undone, %(to_move)s to move."),
        {"edges": removed, "to_move": room.to_move},
    )


def _rematch(room: Room, game: Game) -> Room:
    swap = room.swap_on_rematch
    new = games.start_rematch(game, swap=swap)
    host_side = other(room.host_side) if swap else room.host_side
    new_room = Room(
        game=new,
        host_side=host_side,
        is_public=room.is_public,
        timer_seconds=room.timer_seconds,
        swap_on_rematch=room.swap_on_rematch,
    )
    _restart_clock(new_room, new)
    new_room.save()
    if swap:
        text = gettext_noop("Rematch (sides swapped): %(name)s plays Blue and moves first.")
    else:
        text = gettext_noop("Rematch (same sides): %(name)s plays Blue and moves first.")
    log_line(new_room, text, {"name": new.blue_name})
    return new_room


def room_set_swap(*, public_id: str, viewer: Viewer, swap: bool) -> Room:
    """The host decides whether a rematch swaps who moves first."""
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(
            game,
            viewer,
            _("Only the two players can change the rematch setting; you are watching."),
        )
        if side != room.host_side:
            raise Forbidden(_("Only the host decides who moves first in a rematch."))
        if room.swap_on_rematch != swap:
            room.swap_on_rematch = swap
            _changed(room, game, "offer")
    return room


# -- chat ---------------------------------------------------------------------------


def chat_limits() -> tuple[int, float]:
    """(messages, seconds): at most that many chat lines per player per window."""
    return int(_setting("ROOMS_CHAT_BURST", 5)), _setting("ROOMS_CHAT_WINDOW_SECONDS", 10)


def room_chat(*, public_id: str, viewer: Viewer, text: str) -> Message:
    """A player says something; the text is stored as typed and escaped when shown."""
    text = " ".join(str(text).split())
    if not text:
        raise RoomError(_("Type a message or pick a phrase."))
    if len(text) > CHAT_MAX_LENGTH:
        raise RoomError(_("Keep chat messages under %(n)d characters.") % {"n": CHAT_MAX_LENGTH})
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(
            game, viewer, _("Only the two players can chat; you are watching this game.")
        )
        burst, window = chat_limits()
        since = timezone.now() - timedelta(seconds=window)
        recent = room.messages.filter(author_key=viewer.key, created_at__gte=since).count()
        if recent >= burst:
            raise TooFast(_("You are sending messages too fast: wait a few seconds."))
        message = Message.objects.create(
            room=room,
            kind=Message.Kind.CHAT,
            side=side,
            author_key=viewer.key,
            name=game.name_of(Side(side)),
            text=text,
        )
        push.room_after_commit(room.pk, kind="chat")
    return message

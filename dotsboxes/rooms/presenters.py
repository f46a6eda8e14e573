"""What a room looks like: one context for the page, the pushes and the re-fetch.

Everything here is the same for every viewer, so a change is rendered once and
pushed to players and spectators alike.  What differs by viewer (which buttons
show, whether the board is clickable) is decided in CSS from the page's
``data-me`` attribute, and enforced again by the server on every POST.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timeuntil
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from dotsboxes import clock
from dotsboxes.games.models import Game, Side
from dotsboxes.games.turns import TurnSpan, both_have_played, turn_spans
from dotsboxes.games.wording import player_name
from dotsboxes.moderation.services import apart_ids
from dotsboxes.rules import Board

from .board import board_svg as room_board_svg
from .models import Message, Room

CHAT_SHOWN = 60

# The chat presets are posted and stored in English (services.CHAT_PRESETS); their
# buttons, and the lines they make, read in each reader's language.
CHAT_PRESET_LABELS = {
    "Hello!": gettext_lazy("Hello!"),
    "Good luck": gettext_lazy("Good luck"),
    "Have fun": gettext_lazy("Have fun"),
    "Nice move": gettext_lazy("Nice move"),
    "Thanks": gettext_lazy("Thanks"),
    "Good game": gettext_lazy("Good game"),
    "Oops": gettext_lazy("Oops"),
}
OFFER_NAMES = {
    "draw": gettext_lazy("a draw"),
    "takeback": gettext_lazy("a take-back"),
    "rematch": gettext_lazy("a rematch"),
}


def _param(key: str, value: object) -> object:
    """One stored value of a system line, in the reader's words: sides and offers are
    stored as their keys ("blue", "draw"), ``edges`` as a count; names as typed."""
    if key in ("side", "winner", "to_move") and value in Side.values:
        return player_name(Side(value).player)
    if key == "offer" and value in OFFER_NAMES:
        return OFFER_NAMES[value]
    if key == "edges" and isinstance(value, int):
        return ngettext("%(n)d edge", "%(n)d edges", value) % {"n": value}
    return value


def line_text(message: Message) -> str:
    """A chat or system line as the reader reads it (see ``Message.params``)."""
    if message.kind == Message.Kind.CHAT:
        return str(CHAT_PRESET_LABELS.get(message.text, message.text))
    if not message.params:
        return gettext(message.text) if message.text else ""
    values = {key: _param(key, value) for key, value in message.params.items()}
    try:
        return gettext(message.text) % values
    except (KeyError, TypeError, ValueError):  # a catalogue entry that lost a placeholder
        return message.text % values


@dataclass
class Seat:
    side: str
    label: str
    name: str
    score: int
    taken: bool
    present: bool
    to_move: bool
    is_host: bool
    away_deadline: str = ""
    standin: bool = False


@dataclass
class LogTurn:
    number: int
    side: str
    edges: list[str]
    by_computer: bool


@dataclass
class RoomView:
    room: Room
    game: Game
    board: Board
    seats: list[Seat]
    turns: list[LogTurn]
    spectator_names: list[str]
    spectator_count: int
    messages: list[Message]
    can_abort: bool
    spans: list[TurnSpan] = field(default_factory=list)
    rematch_url: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def spectator_anonymous(self) -> int:
        return self.spectator_count - len(self.spectator_names)

    @property
    def active(self) -> bool:
        return self.game.status == Game.Status.ACTIVE

    @property
    def started(self) -> bool:
        return all(seat.taken for seat in self.seats)

    @property
    def to_move(self) -> str:
        return Side.of(self.board.turn).value

    @property
    def deadline(self) -> str:
        deadline = self.room.turn_deadline
        return deadline.isoformat() if deadline and self.active else ""

    @property
    def correspondence_left(self) -> str:
        """Time left to move in a correspondence game, in words ("" for live timers)."""
        deadline = self.room.turn_deadline
        if not (deadline and self.active and self.room.is_correspondence):
            return ""
        return timeuntil(deadline, clock.now())

    @property
    def board_html(self) -> SafeString:
        board, spans = self.board, self.spans
        owners = {
            board.move_stack[ply]: span.player
            for span in spans
            for ply in range(span.start, span.stop)
        }
        last = spans[-1] if spans else None
        return mark_safe(
            room_board_svg(
                board,
                owners=owners,
                last=board.move_stack[last.start :] if last else [],
                last_player=last.player if last else None,
                playable=self.active and self.started,
            )
        )

    @property
    def status_text(self) -> str:
        game = self.game
        if game.status == Game.Status.ABORTED:
            return gettext("The game was aborted.")
        if game.status == Game.Status.FINISHED:
            blue, red = self.board.scores
            score = {"blue": blue, "red": red}
            if game.result == Game.Result.DRAW:
                return gettext("Drawn by agreement (%(blue)d-%(red)d on boxes).") % score
            if game.result == Game.Result.TIE:
                return gettext("A tie: %(blue)d-%(red)d.") % score
            winner = Side(game.result)
            who = {**score, "player": game.display_of(winner)}
            if game.termination == Game.Termination.RESIGNED:
                return gettext("%(player)s wins by resignation, %(blue)d-%(red)d.") % who
            if game.termination == Game.Termination.TIME:
                return gettext("%(player)s wins on time, %(blue)d-%(red)d.") % who
            return gettext("%(player)s wins, %(blue)d-%(red)d.") % who
        if not self.started:
            return gettext("Waiting for an opponent: send them the invite link.")
        return gettext("%(player)s to move.") % {"player": game.display_of(Side(self.to_move))}

    @property
    def pending(self) -> list[dict[str, str]]:
        """Each pending offer: its kind, what it is called, who made it and who answers."""
        names = {
            "draw": pgettext("offer", "a draw"),
            "takeback": pgettext("offer", "a take-back"),
            "rematch": pgettext("offer", "a rematch"),
        }
        offers = []
        for kind, what in names.items():
            side = getattr(self.room, f"{kind}_offer")
            if side:
                answerer = Side.RED.value if side == Side.BLUE else Side.BLUE.value
                offers.append(
                    {
                        "kind": kind,
                        "what": what,
                        "side": side,
                        "answerer": answerer,
                        "name": self.game.label_of(Side(side)),
                    }
                )
        return offers

    @property
    def pending_kinds(self) -> set[str]:
        return {offer["kind"] for offer in self.pending}


def open_sockets(room: Room) -> list[tuple[str, str, str, str]]:
    """The room's open sockets as (side, viewer key, name, language): one query that a
    push shares between choosing its languages and listing the spectators."""
    return list(room.connections.values_list("side", "viewer_key", "name", "language"))


def room_view(
    room: Room,
    *,
    board: Board | None = None,
    computer: list[bool] | None = None,
    messages: bool = True,
    sockets: list[tuple[str, str, str, str]] | None = None,
) -> RoomView:
    """Gather everything the room's fragments show (a handful of queries).

    The board comes from the game (replayed once per instance and version, so
    the push of a change just made replays nothing); a caller may pass another
    with the computer flag of each move.  ``messages=False`` leaves the chat out;
    ``sockets``: :func:`open_sockets`, when the caller already read them."""
    game = room.game
    if board is None or computer is None:
        board, computer = game.board(), game.computer_flags()
    spans = turn_spans(board)  # once: the log, the last turn and abort all use them
    turns = [
        LogTurn(
            number=n,
            side=Side.of(span.player).value,
            edges=[str(e) for e in board.move_stack[span.start : span.stop]],
            by_computer=any(computer[span.start : span.stop]),
        )
        for n, span in enumerate(spans, start=1)
    ]
    conns = open_sockets(room) if sockets is None else sockets
    present = {side for side, *_ in conns if side}
    watchers: dict[str, str] = {}
    for side, key, name, _language in conns:
        if not side:
            watchers.setdefault(key, name)
    scores = board.scores
    seats = []
    for i, side in enumerate(Side.values):
        taken = bool(getattr(game, f"{side}_user_id") or getattr(game, f"{side}_token"))
        deadline = room.away_deadline(side)
        seats.append(
            Seat(
                side=side,
                label=player_name(Side(side).player),
                name=game.label_of(Side(side)) if taken else gettext("Free seat"),
                score=scores[i],
                taken=taken,
                present=side in present,
                to_move=game.status == Game.Status.ACTIVE and Side.of(board.turn) == side,
                is_host=room.host_side == side,
                away_deadline=deadline.isoformat() if deadline and not room.standin(side) else "",
                standin=room.standin(side),
            )
        )
    rematch = (
        game.rematches.select_related("room").first() if game.status != Game.Status.ACTIVE else None
    )
    shown = room.messages.order_by("-created_at", "-id")[:CHAT_SHOWN] if messages else []
    return RoomView(
        room=room,
        game=game,
        board=board,
        seats=seats,
        turns=turns,
        spectator_names=sorted(name for name in watchers.values() if name),
        spectator_count=len(watchers),
        messages=[_shown(m) for m in reversed(list(shown))],
        can_abort=game.status == Game.Status.ACTIVE and not both_have_played(board, spans),
        spans=spans,
        rematch_url=rematch.get_absolute_url() if rematch else "",
    )


def _shown(message: Message) -> Message:
    message.shown = line_text(message)
    return message


def lobby_rooms(user_id: int | None = None) -> tuple[list[Room], list[Room]]:
    """(open public rooms waiting for an opponent, public games being played), without
    the rooms of anyone with a block between them and ``user_id``."""
    from django.db.models import Count, Q

    rooms = Room.objects.filter(is_public=True, game__status=Game.Status.ACTIVE)
    if apart := apart_ids(user_id):
        rooms = rooms.exclude(Q(game__blue_user__in=apart) | Q(game__red_user__in=apart))
    rooms = (
        rooms.select_related("game")
        .annotate(watching=Count("connections", filter=Q(connections__side="")))
        .order_by("-created_at")[:100]
    )
    open_rooms, live = [], []
    for room in rooms:
        game = room.game
        full = all(
            getattr(game, f"{s}_user_id") or getattr(game, f"{s}_token") for s in Side.values
        )
        (live if full else open_rooms).append(room)
    return open_rooms, live

"""The game core: the only code that changes a ``Game`` or its ``Move`` rows, for every mode.

Every mode (against the computer, on one device, online rooms, and the
computer itself) goes through the same steps, each a small function here:

- :func:`locked` locks the game row (``select_for_update``); the rooms lock the
  room and the game in one statement instead and then use the same steps;
- :func:`check_active`, :func:`check_version` refuse a finished game and a
  stale ``version``; who may act for a side is the mode's policy
  (:class:`Actor` for a browser or account, the computer's own side, a room's
  stand-in);
- :func:`draw_edges` draws one edge or several (the computer's whole turn),
  records the ``Move`` rows and finishes the game when the last box is claimed;
  :func:`take_back_to` undoes whole turns, :func:`end_game` resigns, aborts,
  agrees a draw or (:func:`lose_on_time`) ends a game lost on time;
- :func:`commit` stores the scores, bumps ``version`` and sends the one change
  event (:class:`~dotsboxes.games.events.GameChanged`) after the transaction
  commits.  Nothing else announces a change.

The board is replayed from the moves once per game instance and version
(:meth:`Game.board`) and kept in step by these steps, so a command, its push
and its response share one board.

The commands below (``game_*``, one keyword-only function per action, each in
``transaction.atomic``) serve the play page; ``dotsboxes.rooms.services``
composes the same steps with what only rooms have (offers, clock, chat).
Refusals raise a :class:`GameError` subclass whose message is plain English,
safe to show to the player, and whose ``status`` is the HTTP status to answer
with; the stored game is unchanged.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from dotsboxes.engine import players
from dotsboxes.rules import (
    Board,
    Edge,
    GameRecord,
    InvalidRecordError,
    InvalidSizeError,
    Player,
    RulesError,
    parse_record,
)
from dotsboxes.rules.notation import _parse_turns

from .events import Drawn, GameChanged, announce, game_changed
from .models import Game, Move, Side
from .presenters import edge_error, player_name
from .record_errors import record_error_text
from .turns import turn_spans

__all__ = ["GameChanged", "game_changed"]  # re-exported: listeners may import them from here

MAX_NAME = 40


class GameError(ValueError):
    """An action on a game was refused; ``str(error)`` is a message for the player
    and ``status`` the HTTP status that says why (bad input by default)."""

    status = 400


class GameNotFoundError(GameError):
    status = 404


class NotYourGameError(GameError):
    """The actor may not do this here: a spectator, or not the right player."""

    status = 403


class ConflictError(GameError):
    """Not now: out of turn, a stale version, the game over, an offer pending."""

    status = 409


class StaleVersionError(ConflictError):
    pass


class NotYourTurnError(ConflictError):
    pass


class GameOverError(ConflictError):
    pass


class NothingToUndoError(ConflictError):
    pass


class IllegalEdgeError(GameError):
    pass


class InvalidSetupError(GameError):
    pass


class BadRecordError(GameError):
    """A record that cannot be imported; ``turn`` and ``edge`` say where."""

    def __init__(self, message: str, *, turn: int | None = None, edge: str | None = None):
        super().__init__(message)
        self.turn = turn
        self.edge = edge


@dataclass(frozen=True)
class Actor:
    """Who is asking: a browser (its seat token) and, if signed in, a user.

    The seat policy of the play page and of rooms alike: a seat belongs to its
    user when one is set, else to the browser holding its token."""

    token: str = ""
    user_id: int | None = None

    def holds(self, game: Game, side: Side | Player) -> bool:
        """True if this actor sits in ``side``'s seat of ``game``."""
        blue = side in (Side.BLUE, Player.BLUE)
        token = game.blue_token if blue else game.red_token
        user_id = game.blue_user_id if blue else game.red_user_id
        if user_id is not None and self.user_id == user_id:
            return True
        return bool(token and self.token) and secrets.compare_digest(token, self.token)

    def seats(self, game: Game) -> list[Side]:
        """The sides of ``game`` this actor may play (both on one device)."""
        return [side for side in (Side.BLUE, Side.RED) if self.holds(game, side)]


@dataclass(frozen=True)
class MoveResult:
    """What a move command did: the game after it, its board, and the boxes claimed."""

    game: Game
    board: Board
    edge: Edge
    claimed: tuple[int, ...]


# -- the steps every mode shares --------------------------------------------------


def locked(game: Game | int) -> Game:
    """The game row, locked until the transaction ends.

    Given an instance whose board is already replayed at the version found, the
    locked instance keeps that board (equal versions mean equal moves)."""
    pk = game.pk if isinstance(game, Game) else game
    try:
        found = Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise GameNotFoundError(_("There is no such game.")) from None
    cached = game.__dict__.get("_replayed") if isinstance(game, Game) else None
    if cached is not None and cached[0] == found.version:
        # A copy: the command changes the locked instance's board, not the caller's.
        found.keep_board(cached[1].copy(), list(cached[2]))
    return found


def check_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise GameOverError(_("The game is over: no more moves can be made in it."))


def check_version(game: Game, version: int | str | None) -> None:
    """Refuse an action taken on a version of the game that is no longer current."""
    try:
        seen = int(version)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seen = -1
    if seen != game.version:
        raise StaleVersionError(
            _(
                "The board had changed since that page was loaded, so nothing was done. "
                "It now shows the game as it stands."
            )
        )


def draw_edges(game: Game, edges: Iterable[str | Edge], *, by_computer: bool) -> tuple[Drawn, ...]:
    """Draw ``edges`` in order for whoever is to move (the row is locked by the caller).

    One edge for a player's move, several for the computer's whole turn.  All or
    nothing: an edge that is not on the board or already drawn raises
    :class:`IllegalEdgeError` and leaves the game and its board as they were.
    Records the ``Move`` rows in one insert and finishes the game when the last
    box is claimed; :func:`commit` then bumps the version and announces it.
    """
    board, computer = game.board(), game.computer_flags()
    drawn: list[Drawn] = []
    try:
        for text in edges:
            try:
                edge = board.parse_edge(str(text))
            except RulesError as exc:
                raise IllegalEdgeError(edge_error(str(text), exc)) from None
            if board.is_drawn(edge):
                raise IllegalEdgeError(
                    _("%(edge)s is already drawn: choose an edge that is not.") % {"edge": edge}
                )
            side = Side.of(board.turn)
            drawn.append(Drawn(str(edge), side, board.push(edge), by_computer))
    except IllegalEdgeError:
        for _drawn in drawn:
            board.pop()
        raise
    ply = len(computer)
    Move.objects.bulk_create(
        Move(game=game, ply=ply + n, edge=d.edge, side=d.side, by_computer=by_computer)
        for n, d in enumerate(drawn, start=1)
    )
    computer.extend(by_computer for _drawn in drawn)
    finish_if_over(game, board)
    return tuple(drawn)


def finish_if_over(game: Game, board: Board) -> None:
    """Finish an active game whose every edge is drawn: the boxes decide."""
    outcome = board.outcome()
    if outcome is None or game.status != Game.Status.ACTIVE:
        return
    if outcome.winner is None:
        end_game(game, result=Game.Result.TIE, termination=Game.Termination.COMPLETED)
    else:
        result = Side.of(outcome.winner).value
        end_game(game, result=result, termination=Game.Termination.COMPLETED)


def end_game(game: Game, *, result: str, termination: str) -> None:
    """End the game: all edges drawn, a resignation, an agreed draw, or aborted."""
    aborted = termination == Game.Termination.ABORTED
    game.status = Game.Status.ABORTED if aborted else Game.Status.FINISHED
    game.result = result
    game.termination = termination
    game.finished_at = timezone.now()


def take_back_to(game: Game, keep: int) -> int:
    """Delete the moves after the first ``keep``; reopen a game that ended by drawing
    every edge.  Returns how many edges were taken back."""
    board, computer = game.board(), game.computer_flags()
    removed = len(computer) - keep
    game.moves.filter(ply__gt=keep).delete()
    for _step in range(removed):
        board.pop()
        computer.pop()
    game.status, game.result, game.termination = Game.Status.ACTIVE, "", ""
    game.finished_at = None
    return removed


def commit(game: Game, event: str, drawn: tuple[Drawn, ...] = ()) -> GameChanged:
    """Store the scores, bump the version, save, and announce the change after commit."""
    board, computer = game.board(), game.computer_flags()
    game.blue_score, game.red_score = board.scores
    game.version += 1
    game.save()
    game.keep_board(board, computer)
    change = GameChanged(
        game=game,
        version=game.version,
        event=event,
        drawn=drawn,
        scores=board.scores,
        to_move=Side.of(board.turn),
        status=game.status,
        result=game.result,
        termination=game.termination,
    )
    transaction.on_commit(lambda: announce(change))
    return change


def _clean_name(name: str | None, default: str) -> str:
    name = " ".join((name or "").split())[:MAX_NAME]
    return name or default


def _check_seated(game: Game, actor: Actor) -> list[Side]:
    seats = actor.seats(game)
    if not seats:
        raise NotYourGameError(
            _("This game belongs to another browser: you can watch it, but not play in it.")
        )
    return seats


# -- commands ---------------------------------------------------------------------


@transaction.atomic
def game_create(
    *,
    actor: Actor,
    mode: str = Game.Mode.COMPUTER,
    width: int | None = None,
    height: int | None = None,
    start_key: str = "",
    computer_side: str = Side.RED,
    computer_level: str = players.DEFAULT_LEVEL,
    blue_name: str = "",
    red_name: str = "",
    blue: Actor | None = None,
    red: Actor | None = None,
    moves: Iterable[Edge | str] = (),
    hints_used: int = 0,
    rematch_of: Game | None = None,
    rated: bool = False,
) -> Game:
    """Start a game and return it.

    ``mode`` is ``computer`` (the actor plays the side the computer does not),
    ``local`` (the actor holds both seats) or ``online`` (seats from ``blue``
    and ``red``, either may be empty).  The size comes from ``start_key`` when
    one is given, else from ``width`` x ``height`` (5 x 5 by default).
    ``moves`` replays a record on the start position (imports).
    """
    if mode not in Game.Mode.values:
        raise InvalidSetupError(f"Unknown mode {mode!r}.")
    try:
        if start_key:
            board = Board.from_key(start_key)
            if board.is_over():
                raise InvalidSetupError(_("That position has no edge left to draw."))
            start_key = board.key()
        else:
            board = Board(5 if width is None else width, 5 if height is None else height)
    except RulesError as exc:
        if isinstance(exc, InvalidSizeError):
            raise InvalidSetupError(
                _("That board cannot be set up: a board is 1 to 9 boxes wide and high.")
            ) from None
        raise InvalidSetupError(
            _("That board cannot be set up: it is not a position key.")
        ) from None
    if start_key and (width, height) not in ((None, None), (board.width, board.height)):
        raise InvalidSetupError(_("The size does not match the starting position."))
    game = Game(mode=mode, width=board.width, height=board.height, start_key=start_key, rated=rated)
    game.hints_used = max(0, min(int(hints_used), 32767))
    if mode == Game.Mode.COMPUTER:
        if computer_side not in Side.values:
            raise InvalidSetupError(_("Choose Blue or Red for yourself."))
        if computer_level not in players.LEVELS:
            levels = ", ".join(players.LEVELS)
            raise InvalidSetupError(
                _("Unknown computer level “%(level)s”; choose from %(levels)s.")
                % {"level": computer_level, "levels": levels}
            )
        game.computer_side, game.computer_level = computer_side, computer_level
        computer_name = f"Computer ({computer_level})"
        human = Side.BLUE if computer_side == Side.RED else Side.RED
        names = {human: _clean_name(blue_name if human == Side.BLUE else red_name, "You")}
        names[Side(computer_side)] = computer_name
        game.blue_name, game.red_name = names[Side.BLUE], names[Side.RED]
        seats = {human: actor, Side(computer_side): None}
    else:
        game.blue_name = _clean_name(blue_name, "Blue")
        game.red_name = _clean_name(red_name, "Red")
        if mode == Game.Mode.LOCAL:
            seats = {Side.BLUE: actor, Side.RED: actor}
        else:
            seats = {Side.BLUE: blue, Side.RED: red}
    for side, seat in seats.items():
        if seat is not None:
            setattr(game, f"{side}_token", seat.token)
            setattr(game, f"{side}_user_id", seat.user_id)
    game.rematch_of = rematch_of
    game.save()
    game.keep_board(board, [])
    for edge in moves:
        try:
            draw_edges(game, [edge], by_computer=False)
        except IllegalEdgeError as exc:
            raise InvalidSetupError(
                _("Move %(n)d: %(reason)s") % {"n": len(board.move_stack) + 1, "reason": exc}
            ) from None
    commit(game, "created")
    return game


def _seated_on_current(
    game: Game | int, version: int | str, actor: Actor
) -> tuple[Game, list[Side]]:
    """Lock the game; the actor must hold a seat, the game be on, the version current."""
    game = locked(game)
    seats = _check_seated(game, actor)
    check_active(game)
    check_version(game, version)
    return game, seats


def check_turn(game: Game, side: Side, seats: list[Side]) -> None:
    """The seat policy of a move: the side to move must be one of ``seats``, and
    a side the computer plays is the computer's."""
    if game.is_computer(side):
        raise NotYourTurnError(_("It is the computer's turn: wait for its move."))
    if side not in seats:
        raise NotYourTurnError(
            _("It is %(side)s's turn, not yours.") % {"side": player_name(side.player)}
        )


@transaction.atomic
def game_play_move(
    *, game: Game | int, edge: str | Edge, version: int | str, actor: Actor
) -> MoveResult:
    """Draw ``edge`` for the side to move, if ``actor`` holds that seat."""
    game, seats = _seated_on_current(game, version, actor)
    check_turn(game, Side.of(game.board().turn), seats)
    (drawn,) = draw_edges(game, [edge], by_computer=False)
    commit(game, "move", (drawn,))
    return MoveResult(game, game.board(), Edge.parse(drawn.edge), drawn.claimed)


@transaction.atomic
def game_apply_computer_move(
    *, game_id: int | Game, version: int, edge: str | Edge, side: str | None = None
) -> MoveResult | None:
    """Draw the computer's ``edge`` if the game is still at ``version``.

    The computer thought about the position at ``version``; if anything
    changed since (a move, an undo, a resignation) its answer is dropped and
    ``None`` returned.  ``side`` is the seat it plays (default: the game's
    computer side); it is only applied when that side is to move.  Passing the
    game instance the computer thought about reuses its board.
    """
    try:
        game = locked(game_id)
    except GameNotFoundError:
        return None
    if game.status != Game.Status.ACTIVE or game.version != version:
        return None
    side = side or game.computer_side
    if not side or Side.of(game.board().turn) != side:
        return None
    try:
        (drawn,) = draw_edges(game, [edge], by_computer=True)
    except IllegalEdgeError:
        return None
    commit(game, "move", (drawn,))
    return MoveResult(game, game.board(), Edge.parse(drawn.edge), drawn.claimed)


def _undo_point(game: Game, board: Board) -> int:
    """How many moves to keep: drop the computer's last turn, if it was the last,
    then the player's last turn.  A turn is a run of edges by one side."""
    spans = turn_spans(board)
    if spans and game.is_computer(spans[-1].player):
        spans.pop()
    if not spans or game.is_computer(spans[-1].player):
        raise NothingToUndoError(_("There is no move of yours to take back."))
    return spans[-1].start


@transaction.atomic
def game_undo(*, game: Game | int, version: int | str, actor: Actor) -> Game:
    """Take back whole turns: the last turn on one device; against the computer the
    player's last turn and the computer's reply to it.  A game that ended by
    drawing every edge is reopened; a resigned one cannot be taken back."""
    game = locked(game)
    _check_seated(game, actor)
    if game.mode == Game.Mode.ONLINE:
        raise GameError(_("Online games take moves back only when both players agree."))
    if game.termination not in ("", Game.Termination.COMPLETED):
        raise GameOverError(_("The game was resigned: it cannot be taken back."))
    check_version(game, version)
    take_back_to(game, _undo_point(game, game.board()))
    commit(game, "undo")
    return game


@transaction.atomic
def game_resign(
    *, game: Game | int, version: int | str, actor: Actor, side: str | None = None
) -> Game:
    """Resign ``side`` (default: the actor's only seat, or the side to move on one device)."""
    game, seats = _seated_on_current(game, version, actor)
    if side is None:
        side = seats[0] if len(seats) == 1 else Side.of(game.board().turn)
    if side not in seats:
        raise NotYourGameError(_("You can only resign for your own side."))
    resign(game, Side(side))
    commit(game, "resign")
    return game


def resign(game: Game, side: Side) -> None:
    """``side`` gives up: the other side wins."""
    winner = Game.Result.RED if side == Side.BLUE else Game.Result.BLUE
    end_game(game, result=winner, termination=Game.Termination.RESIGNED)


def lose_on_time(game: Game) -> Side:
    """The side to move let its time run out: the other side wins.  Returns the loser.

    Which deadline ran out, and when, is the mode's clock's business (rooms'
    ``ticker``); the core only ends the game, like a resignation."""
    loser = Side.of(game.board().turn)
    winner = Game.Result.RED if loser == Side.BLUE else Game.Result.BLUE
    end_game(game, result=winner, termination=Game.Termination.TIME)
    return loser


@transaction.atomic
def game_lose_on_time(*, game: Game | int, version: int | str) -> Game:
    """End ``game`` as lost on time by the side to move, if it is still at ``version``
    (the version the caller saw when it found the deadline passed)."""
    game = locked(game)
    check_active(game)
    check_version(game, version)
    lose_on_time(game)
    commit(game, "timeout")
    return game


@transaction.atomic
def game_count_hint(*, game: Game | int, version: int | str, actor: Actor) -> Game:
    """Count a hint shown to the player (kept in the game and its record)."""
    game, seats = _seated_on_current(game, version, actor)
    side = Side.of(game.board().turn)
    if game.is_computer(side) or side not in seats:
        raise NotYourTurnError(_("A hint is for your own turn: wait for it."))
    game.hints_used += 1
    commit(game, "hint")
    return game


def game_rematch(*, game: Game, actor: Actor, swap: bool = True) -> Game:
    """The play page's rematch: a new game like ``game``; by default the other
    player draws first.  Online rematches are offered and accepted in the room."""
    _check_seated(game, actor)
    if game.mode == Game.Mode.ONLINE:
        raise GameError(_("Online rematches are offered in the room."))
    with transaction.atomic():
        # A game has one rematch: the same post sent twice (a double click, two
        # tabs) leads to the game the first one started.  The lock makes a second
        # post at the same moment wait here and then find it.
        locked(game)
        existing = game.rematches.order_by("pk").first()
        if existing is not None:
            return existing
        return start_rematch(game, actor=actor, swap=swap)


def _seat_of(game: Game, side: Side) -> Actor:
    return Actor(token=getattr(game, f"{side}_token"), user_id=getattr(game, f"{side}_user_id"))


def start_rematch(game: Game, *, actor: Actor | None = None, swap: bool = True) -> Game:
    """Create the rematch of ``game`` (the caller decided it may start).

    Swapping gives the other side the first edge: against the computer the
    player takes the other side; on one device the two names change colours;
    online the two seats (name, account, browser) change colours.  ``swap=False``
    keeps everything as it was."""
    actor = actor or Actor()
    size = {
        "start_key": game.start_key,
        "width": None if game.start_key else game.width,
        "height": None if game.start_key else game.height,
    }
    if game.mode == Game.Mode.COMPUTER:
        human = Side.BLUE if game.computer_side == Side.RED else Side.RED
        return game_create(
            actor=actor,
            mode=game.mode,
            **size,
            computer_side=human if swap else game.computer_side,
            computer_level=game.computer_level,
            blue_name=game.name_of(human),
            red_name=game.name_of(human),
            rematch_of=game,
        )
    # The sides of ``game`` whose players sit as Blue and as Red in the rematch.
    blue, red = (Side.RED, Side.BLUE) if swap else (Side.BLUE, Side.RED)
    seats = {}
    if game.mode == Game.Mode.ONLINE:
        seats = {"blue": _seat_of(game, blue), "red": _seat_of(game, red), "rated": game.rated}
    return game_create(
        actor=actor,
        mode=game.mode,
        **size,
        blue_name=game.name_of(blue),
        red_name=game.name_of(red),
        rematch_of=game,
        **seats,
    )


_TURN_PREFIX = re.compile(r"^turn \d+:\s*", re.I)
_POSITION_RE = re.compile(r"^\s*position\s*:\s*(\S+)\s*$", re.I | re.M)
_BODY_RE = re.compile(r"^\s*\d+\.", re.M)


def _read_record(text: str) -> tuple[GameRecord, str]:
    """Parse a record; one with a ``Position:`` header (a game from a set position,
    as the Record link writes it) is replayed from that position instead of the
    empty board.  Returns the record and the start key ('' for the empty board)."""
    found = _POSITION_RE.search(text)
    if not found:
        return parse_record(text), ""
    try:
        start = Board.from_key(found.group(1))
    except RulesError as exc:
        raise InvalidRecordError(
            f"the Position header is not a position key: {exc}", code="position_key"
        ) from None
    body = _BODY_RE.search(text)
    head, moves = (text[: body.start()], text[body.start() :]) if body else (text, "")
    record = parse_record(head)  # the headers alone: size and the rest
    if (record.width, record.height) != (start.width, start.height):
        raise InvalidRecordError(
            "the Position header does not match the Size line", code="position_size"
        )
    # The rules core's turn reader, run on the set position (it is not public yet).
    record.turns = _parse_turns(moves, start.copy()) if moves.strip() else []
    return record, start.key()


def game_import(
    *,
    text: str,
    actor: Actor,
    mode: str = Game.Mode.LOCAL,
    computer_side: str = Side.RED,
    computer_level: str = players.DEFAULT_LEVEL,
) -> Game:
    """Create a game from a record (the rules core's notation); nothing is saved if
    the record is bad, and the :class:`BadRecordError` names the turn and edge."""
    try:
        record, start_key = _read_record(text or "")
    except RulesError as exc:
        turn, edge = getattr(exc, "turn", None), getattr(exc, "edge", None)
        detail = _TURN_PREFIX.sub("", str(exc))
        # The rules name the whole position after "already drawn"; the turn says enough.
        detail = re.sub(r" is already drawn \(.*\)$", " is already drawn", detail)
        where = ""
        if turn is not None:
            where = f"Turn {turn}" + (f", edge {edge}" if edge else "") + ": "
            if detail.lower().startswith(f"turn {turn} ") and not edge:
                where, detail = "", detail[0].upper() + detail[1:]
        else:
            detail = detail[0].upper() + detail[1:]
        message = record_error_text(exc, f"{where}{detail}.")
        raise BadRecordError(message, turn=turn, edge=edge) from None
    headers = {k.lower(): v for k, v in record.headers.items()}
    try:
        hints = int(headers.get("hints", "0"))
    except ValueError:
        hints = 0
    if mode not in (Game.Mode.LOCAL, Game.Mode.COMPUTER):
        raise InvalidSetupError(_("Imported games continue on one device or against the computer."))
    names: dict[str, str] = {}
    if mode == Game.Mode.LOCAL:
        names = {"blue_name": headers.get("blue", ""), "red_name": headers.get("red", "")}
    return game_create(
        actor=actor,
        mode=mode,
        width=None if start_key else record.width,
        height=None if start_key else record.height,
        start_key=start_key,
        computer_side=computer_side,
        computer_level=computer_level,
        moves=record.edges,
        hints_used=hints,
        **names,
    )

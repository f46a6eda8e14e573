"""The steps every mode shares: the only code that changes a ``Game`` or its ``Move`` rows.

Every mode (against the computer, on one device, online rooms, and the
computer itself) composes the same steps inside its own transaction:

- :func:`locked` locks the game row (``select_for_update``); the rooms lock the
  room and the game in one statement instead and then use the same steps;
- :func:`check_active`, :func:`check_version` refuse a finished game and a
  stale ``version``; who may act for a side is the mode's policy
  (:mod:`dotsboxes.games.seats` for a browser or account, the computer's own
  side, a room's stand-in);
- :func:`draw_edges` draws one edge or several (the computer's whole turn),
  records the ``Move`` rows and finishes the game when the last box is claimed;
  :func:`take_back_to` undoes whole turns, :func:`end_game` resigns, aborts,
  agrees a draw or (:func:`lose_on_time`) ends a game lost on time;
- :func:`commit` stores the scores, bumps ``version`` and sends the one change
  event (:class:`~dotsboxes.games.events.GameChanged`) after the transaction
  commits.  Nothing else announces a change.

The board is replayed from the moves once per game instance and version
(:meth:`Game.board`) and kept in step by these steps, so a command, its push
and its response share one board.  The commands that compose them for the play
page are in :mod:`dotsboxes.games.services`; ``dotsboxes.rooms`` composes them
with what only rooms have (offers, clock, chat).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from dotsboxes.rules import Board, Edge, RulesError

from .errors import GameNotFoundError, GameOverError, IllegalEdgeError, StaleVersionError
from .events import Drawn, GameChanged, announce
from .models import Game, Move, Side
from .wording import edge_error


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

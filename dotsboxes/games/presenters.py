"""What the game templates show: one :class:`Panel` per rendered game.

Build it with :func:`build_panel` and render the partials of
``templates/games/_board.html`` with ``panel`` in the context::

    {% include "games/_board.html#board" %}       the SVG board in its move form
    {% include "games/_board.html#scoreboard" %}  names, totals, whose move it is
    {% include "games/_board.html#turnlog" %}     the turns in dot-pair notation
    {% include "games/_board.html#status" %}      the one-sentence status (aria-live)
    {% include "games/_board.html#panel" %}       all of the above plus the controls

``move_url`` (and the other ``*_url`` fields) say where the forms post, so a
room can render the same board and post to its own views.
"""

# ruff: noqa: RUF001 - titles use the multiplication sign.

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from dotsboxes.rules import Board, Edge, Player

from .hints import Hint, reason_text
from .history import Step, Turn, history, status_sentence, turns
from .models import Game, Side
from .seats import Actor
from .svg import board_svg, edge_sample
from .wording import boxes_text, level_name, player_name, size_text


@dataclass
class Panel:
    game: Game
    board: Board
    steps: list[Step]
    turns: list[Turn]
    seats: list[Side]
    svg: str
    status: str
    can_move: bool
    thinking: bool
    hint: Hint | None = None
    error: str = ""
    fresh: list[Edge] = field(default_factory=list)
    move_url: str = ""

    # -- derived values for templates ----------------------------------------

    @property
    def ply(self) -> int:
        return len(self.steps)

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def to_move(self) -> str:
        return Side.of(self.board.turn).value

    @property
    def blue_score(self) -> int:
        return self.board.scores[0]

    @property
    def red_score(self) -> int:
        return self.board.scores[1]

    @property
    def watching(self) -> bool:
        return not self.seats

    @property
    def finished(self) -> bool:
        return self.game.status != Game.Status.ACTIVE

    @property
    def legal_moves(self) -> list[Edge]:
        return self.board.legal_moves if self.can_move else []

    @property
    def legal_html(self) -> str:
        """The legal edges as submit buttons (built here: a template loop is slow)."""
        return format_html_join(
            "",
            '<li><button type="submit" name="edge" value="{}" class="secondary small">'
            "{}</button></li>",
            ((str(e), str(e)) for e in self.legal_moves),
        )

    @property
    def log_html(self) -> str:
        """The turn log's list items, newest last."""
        last = len(self.turns)
        names = {side: player_name(side) for side in Player}  # once, not once a line
        return format_html_join(
            "\n",
            '<li class="log-turn log-{0}{1}" value="{2}"><span class="swatch swatch-{0}" '
            'aria-hidden="true">{3}</span><span class="visually-hidden">{4}:</span> '
            '<span class="log-edges">{5}</span>{6}</li>',
            (
                (
                    t.player.name.lower(),
                    " log-last" if t.number == last else "",
                    t.number,
                    t.player.name[0],
                    names[t.player],
                    t.html,  # each edge name kept on one line
                    format_html(' <span class="log-claims">+{}</span>', t.claimed)
                    if t.claimed
                    else "",
                )
                for t in self.turns
            ),
        )

    @property
    def legend_html(self) -> str:
        return legend_html(self.game)

    @property
    def hint_reason(self) -> str:
        """The hint's reason in the reader's language (the engine writes English)."""
        return reason_text(self.hint.reason) if self.hint else ""

    @property
    def can_undo(self) -> bool:
        return (
            bool(self.seats)
            and self.game.mode != Game.Mode.ONLINE
            and self.game.termination in ("", Game.Termination.COMPLETED)
            and any(not self.game.is_computer(s.player) for s in self.steps)
        )

    def display_name(self, side: Side) -> str:
        return display_name(self.game, side)

    @property
    def blue_display(self) -> str:
        return self.display_name(Side.BLUE)

    @property
    def red_display(self) -> str:
        return self.display_name(Side.RED)

    @property
    def result_text(self) -> str:
        """The result banner's sentence, empty while the game goes on."""
        game = self.game
        if game.status == Game.Status.ACTIVE:
            return ""
        blue, red = self.board.scores
        names = {side: self.display_name(side) for side in (Side.BLUE, Side.RED)}
        if game.termination == Game.Termination.RESIGNED:
            winner = Side(game.result)
            loser = Side.RED if winner == Side.BLUE else Side.BLUE
            return gettext(
                "%(loser)s resigned, so %(winner)s wins (boxes %(blue)d to %(red)d)."
            ) % {"loser": names[loser], "winner": names[winner], "blue": blue, "red": red}
        if game.result == Game.Result.TIE:
            return gettext("A tie: %(boxes)s each.") % {"boxes": boxes_text(blue)}
        if game.result in (Game.Result.BLUE, Game.Result.RED):
            winner = Side(game.result)
            hi, lo = max(blue, red), min(blue, red)
            return gettext("%(winner)s wins %(high)d to %(low)d.") % {
                "winner": names[winner],
                "high": hi,
                "low": lo,
            }
        return str(game.get_result_display())

    @property
    def title(self) -> str:
        game = self.game
        size = {"w": game.width, "h": game.height}
        if game.mode == Game.Mode.COMPUTER:
            return gettext("%(w)d × %(h)d boxes against the computer (%(level)s)") % {
                **size,
                "level": level_name(game.computer_level),
            }
        if game.mode == Game.Mode.LOCAL:
            return gettext("%(w)d × %(h)d boxes on one device") % size
        return gettext("%(w)d × %(h)d boxes online") % size


def display_name(game: Game, side: Side) -> str:
    """A player's name with their colour, e.g. "Ada (Blue)"; just "Blue" if unnamed."""
    return game.display_of(side)


def legend_html(game: Game) -> str:
    """Which lines are whose beside a board: Blue's solid, Red's striped (never colour alone)."""
    return format_html_join(
        " ",
        '<span class="legend-item">{} {}</span>',
        (
            # The sample is our own markup, built from constants: no user text in it.
            (mark_safe(edge_sample(side.player)), display_name(game, side))
            for side in (Side.BLUE, Side.RED)
        ),
    )


def _last_turn(all_turns: list[Turn]) -> list[Edge]:
    return all_turns[-1].edges if all_turns else []


def build_panel(
    game: Game,
    *,
    viewer: Actor,
    board: Board | None = None,
    since_ply: int | None = None,
    hint: Hint | None = None,
    error: str = "",
    move_url: str | None = None,
) -> Panel:
    """Everything the game partials need for ``viewer``.

    ``since_ply``: the number of edges the viewer's page already shows; later
    edges are drawn as fresh (animated one after the other).
    """
    board = game.board() if board is None else board
    steps = history(board)
    all_turns = turns(board, steps)
    seats = viewer.seats(game)
    active = game.status == Game.Status.ACTIVE
    thinking = active and game.is_computer(board.turn)
    can_move = active and not thinking and Side.of(board.turn) in seats
    fresh = [s.edge for s in steps[since_ply:]] if since_ply is not None else []
    computer = Side(game.computer_side).player if game.computer_side else None
    svg = board_svg(
        board,
        interactive=can_move,
        guides=True,
        last_turn=_last_turn(all_turns),
        highlight=[hint.edge] if hint else (),
        fresh=fresh,
        steps=steps,
        title=gettext("Board, %(size)s; %(player)s to move")
        % {"size": size_text(board.width, board.height), "player": player_name(board.turn)}
        if active
        else gettext("Board, %(size)s; game over") % {"size": size_text(board.width, board.height)},
    )
    if active:
        status = status_sentence(board, computer=computer, steps=steps)
    else:
        status = status_sentence(board, steps=steps) if not board.legal_moves else ""
    panel = Panel(
        game=game,
        board=board,
        steps=steps,
        turns=all_turns,
        seats=seats,
        svg=svg,
        status=status,
        can_move=can_move,
        thinking=thinking,
        hint=hint,
        error=error,
        fresh=fresh,
        move_url=move_url or reverse("games:move", args=[game.public_id]),
    )
    if not panel.status:  # resigned: say the result instead
        panel.status = panel.result_text
    return panel

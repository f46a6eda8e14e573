"""The trainer's commands: choose a puzzle, check a move, rate the attempt.

A puzzle in progress lives in the session (``STATE_KEY``): which puzzle, the
index of the next step of its line, whether a wrong move was made.  Every
submitted move names the step it answers, so a stale tab or a forged post is
refused with a message and nothing changes.  The proved answers and every
wrong move's refutation are stored with the puzzle: no request runs the solver.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Abs
from django.utils.translation import gettext

from dotsboxes.accounts.glicko2 import Glicko2, update
from dotsboxes.rules import Board, Edge, RulesError

from .models import Puzzle, PuzzleAttempt, PuzzleRating

STATE_KEY = "puzzle_state"
RATING_KEY = "puzzle_rating"  # an anonymous player's rating: [rating, deviation, volatility]
STREAK_KEY = "puzzle_streak"
#: Streak mode picks among puzzles within this many points of the lowest one left.
STREAK_STEP = 40.0
#: A streak's first puzzle is drawn from the lowest band: within this of the lowest rating
#: (32 of the 500 shipped puzzles; within STREAK_STEP there were 3, and fresh sessions kept
#: meeting the same first puzzle).
STREAK_FIRST_BAND = 100.0
#: Puzzles served are drawn at random among this many nearest the player's rating.
NEAREST = 12


@dataclass
class Who:
    """The player: a signed-in user, or an anonymous session."""

    user: object | None
    session: object

    @property
    def session_key(self) -> str:
        if not self.session.session_key:
            self.session.save()
        return self.session.session_key

    def attempts(self):
        if self.user is not None:
            return PuzzleAttempt.objects.filter(user=self.user)
        return PuzzleAttempt.objects.filter(user=None, session_key=self.session_key)


def who_of(request) -> Who:
    user = request.user if request.user.is_authenticated else None
    return Who(user, request.session)


def player_rating(who: Who) -> Glicko2:
    if who.user is not None:
        row = PuzzleRating.objects.filter(user=who.user).first()
        return row.glicko2 if row else Glicko2()
    stored = who.session.get(RATING_KEY)
    return Glicko2(*stored) if stored else Glicko2()


def puzzle_near(rating: float, *, exclude: set[int] = frozenset()) -> Puzzle | None:
    """A visible puzzle near ``rating`` (random among the nearest), not in ``exclude``.

    ``None`` if none is left.
    """
    qs = Puzzle.objects.filter(hidden=False).exclude(pk__in=exclude)
    ordered = qs.annotate(gap=Abs(F("rating") - rating)).order_by("gap", "pk")
    nearest = list(ordered.values_list("pk", flat=True)[:NEAREST])
    if not nearest:
        return None
    return Puzzle.objects.get(pk=random.choice(nearest))


def next_puzzle(who: Who) -> Puzzle | None:
    """A puzzle near the player's rating that they have not tried (any, once all are)."""
    rating = player_rating(who).rating
    tried = set(who.attempts().values_list("puzzle_id", flat=True))
    return puzzle_near(rating, exclude=tried) or puzzle_near(rating)


def daily_puzzle(day: datetime.date) -> Puzzle | None:
    """The same visible puzzle for everyone all day, a different one the next day."""
    ids = list(Puzzle.objects.filter(hidden=False).order_by("pk").values_list("pk", flat=True))
    if not ids:
        return None
    # A fixed shuffle by the date, so neighbouring days are not neighbouring puzzles.
    return Puzzle.objects.get(pk=random.Random(day.toordinal()).choice(ids))


# -- one puzzle in progress -------------------------------------------------------


def start(session, puzzle: Puzzle, *, streak: bool = False) -> dict:
    """Begin ``puzzle`` (or keep the state of it if it is already the one in progress)."""
    state = session.get(STATE_KEY)
    if state and state.get("id") == puzzle.pk and state.get("streak", False) == streak:
        return state
    state = {"id": puzzle.pk, "step": 0, "failed": False, "done": False, "streak": streak}
    session[STATE_KEY] = state
    return state


def board_at(puzzle: Puzzle, step: int) -> Board:
    """The puzzle's board after ``step`` edges of its line."""
    board = Board(puzzle.width, puzzle.height)
    for edge in puzzle.moves:
        board.push(Edge.parse(edge))
    for s in puzzle.line[:step]:
        board.push(Edge.parse(s["edge"]))
    return board


def _player_step(puzzle: Puzzle, step: int) -> int:
    return sum(1 for s in puzzle.line[:step] if s["player"])


@dataclass
class Outcome:
    """What a submitted move did: ``error`` (nothing changed) or a verdict."""

    error: str = ""
    correct: bool = False
    solved: bool = False
    edge: str = ""
    lost: int = 0
    refutation: list[str] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)  # the solver's replies to a right move
    rating_change: int | None = None


def puzzle_move(*, who: Who, puzzle: Puzzle, step_text: str, edge_text: str) -> Outcome:
    """Check one move of the puzzle in progress (see the module docstring)."""
    session = who.session
    state = session.get(STATE_KEY)
    if not state or state.get("id") != puzzle.pk:
        return Outcome(error=gettext("This puzzle is not the one in progress: it is shown again."))
    if state["done"]:
        return Outcome(error=gettext("This puzzle is already solved."))
    if step_text != str(state["step"]):
        return Outcome(error=gettext("This board was out of date: here it is as it is now."))
    text = edge_text.strip()
    if not text:
        return Outcome(error=gettext("Click an edge on the board, or type one like a1-b1."))
    board = board_at(puzzle, state["step"])
    try:
        edge = board.parse_edge(text)
    except RulesError:
        return Outcome(error=gettext("%(edge)s is not an edge of this board.") % {"edge": text})
    if board.is_drawn(edge):
        return Outcome(
            error=gettext("%(edge)s is already drawn: pick an edge that is still missing.")
            % {"edge": edge}
        )
    current = puzzle.line[state["step"]]
    if str(edge) in current["accepted"]:
        step = state["step"] + 1
        replies = []
        while step < len(puzzle.line) and not puzzle.line[step]["player"]:
            replies.append(puzzle.line[step]["edge"])
            step += 1
        outcome = Outcome(correct=True, edge=str(edge), replies=replies)
        state = {**state, "step": step}
        if step >= len(puzzle.line):
            state["done"] = True
            outcome.solved = True
            if not state["failed"] and not state["streak"]:
                outcome.rating_change = _rate(who, puzzle, solved=True)
            if state["streak"] and not state["failed"]:
                # A miss ended the streak: finishing the puzzle afterwards is practice.
                _streak_solved(session, puzzle)
        session[STATE_KEY] = state
        return outcome
    wrong = puzzle.wrong[_player_step(puzzle, state["step"])].get(str(edge), {})
    outcome = Outcome(edge=str(edge), lost=wrong.get("lost", 0), refutation=wrong.get("line", []))
    if not state["failed"]:
        if state["streak"]:
            _streak_over(who)
        else:
            outcome.rating_change = _rate(who, puzzle, solved=False)
    session[STATE_KEY] = {**state, "failed": True}
    return outcome


def puzzle_retry(session, puzzle: Puzzle) -> None:
    """Back to the puzzle's first position (a failed puzzle stays failed: no second rating)."""
    state = session.get(STATE_KEY)
    if state and state.get("id") == puzzle.pk:
        session[STATE_KEY] = {**state, "step": 0, "done": False}


def _rate(who: Who, puzzle: Puzzle, *, solved: bool) -> int | None:
    """Glicko-2 for both sides, once per player and puzzle; the player's rating change."""
    with transaction.atomic():
        locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        if who.attempts().filter(puzzle=locked).exists():
            return None  # tried before: retries and second visits are not rated
        row = None
        if who.user is not None:
            row, _ = PuzzleRating.objects.select_for_update().get_or_create(user=who.user)
            mine = row.glicko2
        else:
            mine = player_rating(who)
        theirs = locked.glicko2
        score = 1.0 if solved else 0.0
        new_mine = update(mine, [(theirs, score)])
        new_theirs = update(theirs, [(mine, 1.0 - score)])
        if row is not None:
            row.glicko2 = new_mine
            row.save()
        else:
            who.session[RATING_KEY] = [new_mine.rating, new_mine.deviation, new_mine.volatility]
        locked.glicko2 = new_theirs
        locked.attempts = F("attempts") + 1
        locked.solved = F("solved") + (1 if solved else 0)
        locked.save(update_fields=["rating", "deviation", "volatility", "attempts", "solved"])
        PuzzleAttempt.objects.create(
            puzzle=locked,
            user=who.user,
            session_key="" if who.user is not None else who.session_key,
            solved=solved,
            rating_before=mine.rating,
            rating_after=new_mine.rating,
            puzzle_rating_before=theirs.rating,
            puzzle_rating_after=new_theirs.rating,
        )
    return round(new_mine.rating) - round(mine.rating)


# -- streak mode ------------------------------------------------------------------


def streak_state(session) -> dict:
    return session.get(STREAK_KEY) or {"count": 0, "above": None, "over": False, "seen": []}


def streak_next(session) -> Puzzle | None:
    """The streak's next puzzle: among the lowest rated above the last one solved.

    A random one of those within :data:`STREAK_STEP` of the lowest, so streaks
    differ but climb; the first one within :data:`STREAK_FIRST_BAND`, so fresh
    streaks start in different places.  Streak puzzles are not rated.  ``None``
    when none is left.
    """
    streak = streak_state(session)
    qs = Puzzle.objects.filter(hidden=False).exclude(pk__in=streak["seen"])
    if streak["above"] is not None:
        qs = qs.filter(rating__gt=streak["above"])
    lowest = qs.order_by("rating").values_list("rating", flat=True).first()
    if lowest is None:
        return None
    band = STREAK_FIRST_BAND if streak["above"] is None else STREAK_STEP
    ids = list(qs.filter(rating__lte=lowest + band).values_list("pk", flat=True))
    puzzle = Puzzle.objects.get(pk=random.choice(ids))
    session[STREAK_KEY] = {**streak, "seen": [*streak["seen"], puzzle.pk][-500:]}
    return puzzle


def streak_restart(session) -> None:
    session[STREAK_KEY] = {"count": 0, "above": None, "over": False, "seen": []}
    session.pop(STATE_KEY, None)


def _streak_solved(session, puzzle: Puzzle) -> None:
    streak = streak_state(session)
    session[STREAK_KEY] = {**streak, "count": streak["count"] + 1, "above": puzzle.rating}


def _streak_over(who: Who) -> None:
    streak = streak_state(who.session)
    who.session[STREAK_KEY] = {**streak, "over": True}
    if who.user is not None:
        with transaction.atomic():
            row, _ = PuzzleRating.objects.select_for_update().get_or_create(user=who.user)
            if streak["count"] > row.best_streak:
                row.best_streak = streak["count"]
                row.save(update_fields=["best_streak"])

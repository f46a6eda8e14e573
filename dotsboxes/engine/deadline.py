"""When a move must stop thinking so that its answer is in on time, quiet or loaded.

A search looks at the clock every few hundred microseconds of its own work,
but on a loaded machine the scheduler can keep the process off the CPU for
tens of milliseconds between two looks.  A fixed stop (say at 90 % of the
budget) is then either too late (the next look comes long after the budget)
or needlessly early on a quiet machine.  A :class:`Deadline` measures instead:
it keeps the longest gap it has seen between two looks at the clock, and says
stop while two such gaps and a little slack still fit before the answer is
due (one gap until the next look, one for unwinding and answering).

Gaps are only learned where the clock is read often (the search's regular
looks, :meth:`Deadline.passed`) or where a stop came late (:meth:`Deadline.late`):
a stage that reads the clock once, before and after a long piece of work, says
nothing about the scheduler.  The process remembers the longest gap it has
seen, halved for every :data:`HALF_LIFE` seconds since, so a loaded machine is
known from a move's first look (by time, not by move: the quick moves between
two long ones learn nothing and must not make it forget).
"""

from __future__ import annotations

import time

#: Seconds kept back for answering once thinking has stopped (building the answer).
SLACK = 0.002
#: Seconds after which a gap seen counts half.
HALF_LIFE = 10.0

# The longest gap seen lately and when (perf_counter), for the next Deadline.
_remembered = (0.0, 0.0)


def forget() -> None:
    """Forget the gaps seen so far (tests and benchmarks that start afresh)."""
    global _remembered
    _remembered = (0.0, 0.0)


def _recent_gap(now: float) -> float:
    gap, seen = _remembered
    return gap * 0.5 ** ((now - seen) / HALF_LIFE) if gap else 0.0


class Deadline:
    """The time (:func:`time.perf_counter`) an answer is ``due``, and when to stop."""

    __slots__ = ("due", "gap", "last")

    def __init__(self, due: float) -> None:
        self.due = due
        self.last = time.perf_counter()
        self.gap = _recent_gap(self.last)

    def look(self) -> float:
        """Read the clock without learning from it (a stage starts looking often)."""
        self.last = time.perf_counter()
        return self.last

    def passed(self) -> bool:
        """Whether to stop now: read often, it learns how far apart its looks come."""
        now = time.perf_counter()
        gap = now - self.last
        self.last = now
        if gap > self.gap:
            self._learn(gap)
        return now + 2 * self.gap + SLACK >= self.due

    def late(self, by: float) -> None:
        """A stop came ``by`` seconds after it was asked for: a gap at least that long."""
        if by > self.gap:
            self._learn(by)

    def stop_at(self) -> float:
        """The time to stop thinking at, from what is known now."""
        return self.due - 2 * self.gap - SLACK

    def left(self) -> float:
        """Seconds to :meth:`stop_at` (0 once it is passed); reads the clock."""
        return max(0.0, self.stop_at() - self.look())

    def _learn(self, gap: float) -> None:
        global _remembered
        self.gap = gap
        now = time.perf_counter()
        if gap > _recent_gap(now):
            _remembered = (gap, now)

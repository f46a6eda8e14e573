"""Exact solver: the value of a position and every best move.

Values
------
The **value** of a position is the final margin, in boxes, of the side to move
over its opponent on the boxes still unclaimed, when both sides play best from
here.  Boxes already claimed do not count (they cannot change hands), so the
value depends only on which edges are drawn.  It has the parity of the number
of unclaimed boxes.  Example: on an empty 2 x 2 board the value is +2 (the
first player ends 3-1); on an empty 3 x 3 board it is -3 (the second player
wins 6-3).

The value of a **move** ``m`` (see :func:`move_values`) is the mover's final
margin over the boxes unclaimed *before* ``m``: the boxes ``m`` claims count
for the mover, then best play follows.  ``max(move_values(b).values()) ==
solve(b).value``.

How it searches
---------------
MTD(f): null-window negamax alpha-beta over the drawn-edge bitmask, with a
transposition table of value bounds shared by every call in the process, plus
the theory of the game, each shortcut checked against a plain brute force in
``tests/engine/test_solver.py``:

* A capturable box whose capture hands nothing over is taken at once.
* When boxes are offered in a chain, only two lines matter: take them all, or
  take all but the last two (four in a loop) and decline with the
  double-dealing move.  With several offers at once, one is taken first (and
  which one is searched).
* A chain or loop is sacrificed at one spot only: wherever it is opened, the
  same edges end up drawn, and opening it at its end (a two-chain in its
  middle) leaves the opponent no more choice than anywhere else.
* Opening a long chain of n boxes gives the opener at most 2 - n (a loop:
  4 - n), whatever the rest is worth, so it is not searched once another move
  does as well.
* A position where every remaining box has exactly two sides drawn is a
  simple loony endgame of independent chains and loops: valued by the
  chain-and-loop recursion of Berlekamp's theory, without search.
* The table knows a position by its strings-and-coins shape, as far as that
  is cheap: the board's symmetries (4, or 8 on a square), a corner's two outer
  sides as one, and every chain or loop reduced to its length and the boxes
  its ends meet.

Move order decides how much alpha-beta cuts: the table's move, then the last
move that cut off at the same depth (a killer), the cheapest sacrifice, the
safe moves that give a box its second side, the other safe moves (each group
by history), the other sacrifices.  Before searching, every safe move whose
position the table already bounds is looked up (enhanced transposition
cutoff).  A position's state (drawn edges, two- and three-sided boxes,
unclaimed boxes) is passed down the recursion as ints, never undone; the
expensive part of a new position, its chains and key, is worked out once per
drawn-edge set and cached.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from dotsboxes.rules import Board, Edge

from . import _backend
from ._bits import Geometry, geometry

__all__ = [
    "Solution",
    "Table",
    "clear_cache",
    "close_moves",
    "move_bounds",
    "move_values",
    "solve",
    "table_limit",
    "value",
]

#: Memory a transposition table may use, in megabytes: the setting
#: ``DOTSBOXES_ENGINE_TABLE_MB`` (default 512, what one engine worker can
#: spare on a small server).  The process-wide tables of :func:`solve` and each
#: :class:`Table` made without a limit get this much.
TABLE_MB = int(os.environ.get("DOTSBOXES_ENGINE_TABLE_MB") or 512)
#: Bytes per pair of entries (one bound, one quiet-position key), measured
#: with ``tests/bench/solver.py`` on 4 x 3 and 5 x 5 positions; both dicts of
#: both generations counted.
ENTRY_BYTES = 800
#: Entries per generation of each dict, when set (benchmarks of the bare
#: solver); ``None``: from :data:`TABLE_MB`.
TABLE_LIMIT: int | None = None
#: Bytes per bound in the native core's table: a 32-byte entry, plus its share of
#: the key cache the enhanced transposition cutoff reads (at most 13 MB).
NATIVE_ENTRY_BYTES = 34

# The clock is read every 64 nodes (nodes & _CLOCK_MASK == 0): a few milliseconds of work.
_CLOCK_MASK = 63
_INF = 1000
_NO_CAPS: dict[int, int] = {}


def table_limit(megabytes: float | None = None) -> int:
    """Entries per generation of a table that may use ``megabytes`` (default :data:`TABLE_MB`)."""
    if megabytes is None and TABLE_LIMIT is not None:
        return TABLE_LIMIT
    mb = TABLE_MB if megabytes is None else megabytes
    # Two generations of two dicts: a pair of entries per generation costs ENTRY_BYTES.
    return max(1_000, int(mb * 1_000_000 / (2 * ENTRY_BYTES)))


class Table:
    """A transposition table for one board size, bounded, keeping hot entries.

    Two dicts: ``bounds`` (key -> lower bound, upper bound, best move) and a
    cache of quiet positions' keys (drawn edges -> key, symmetry, ...), since
    working out the key of a quiet position (chains, symmetries) costs more
    than a lookup.  Each is kept in two generations: new entries go to the
    current one; when it holds ``limit`` entries it becomes the old one and
    the previous old one is dropped.  An entry found only in the old
    generation is copied into the current one, so whatever the search still
    uses survives every turnover: an approximate LRU at the price of one
    extra lookup on a miss.  (The earlier table was emptied when full, and a
    search larger than the table lost everything it had proved, over and
    over: the empty 4 x 3 board never finished with the product's table.)

    The entries are facts about positions (proved bounds), not about a game,
    so a table may serve any number of searches of the same board size; a
    warm table only makes them finish sooner.
    """

    __slots__ = ("_native", "bounds", "keys", "limit", "native_entries", "old_bounds", "old_keys")

    def __init__(self, limit: int | None = None, *, megabytes: float | None = None) -> None:
        self.limit = limit if limit is not None else table_limit(megabytes)
        self.bounds: dict = {}
        self.old_bounds: dict = {}
        self.keys: dict = {}
        self.old_keys: dict = {}
        # The native core's fixed-size table, made on its first search: as many bounds as
        # the two generations of dicts hold, or what ``megabytes`` pays for.
        if limit is not None or (megabytes is None and TABLE_LIMIT is not None):
            self.native_entries = 2 * self.limit
        else:
            mb = TABLE_MB if megabytes is None else megabytes
            self.native_entries = max(1_000, int(mb * 1_000_000 / NATIVE_ENTRY_BYTES))
        self._native = None

    def native(self):  # a _native.Table
        """The native core's table (this table's half for boards the C solver takes)."""
        if self._native is None:
            self._native = _backend.native.Table(self.native_entries)
        return self._native

    def __len__(self) -> int:
        held = 0 if self._native is None else len(self._native)
        return len(self.bounds) + len(self.old_bounds) + held

    def turn_bounds(self) -> None:
        self.old_bounds = self.bounds
        self.bounds = {}

    def turn_keys(self) -> None:
        self.old_keys = self.keys
        self.keys = {}

    def clear(self) -> None:
        self.bounds, self.old_bounds, self.keys, self.old_keys = {}, {}, {}, {}
        if self._native is not None:
            self._native.clear()


# The process-wide tables of solve(), value() and move_values() without a table, per
# board size.
_tables: dict[tuple[int, int], Table] = {}


@dataclass(frozen=True)
class Solution:
    """An exactly solved position.

    ``value``: the final margin of the side to move over the boxes still
    unclaimed, with best play by both.  ``best``: every move that achieves it,
    in board index order.  ``nodes``: search nodes used.
    """

    value: int
    best: tuple[Edge, ...]
    nodes: int


class _OutOfBudget(Exception):
    pass


# What a search raises when out of budget, in either core.
_BUDGET = (
    (_OutOfBudget,) if _backend.native is None else (_OutOfBudget, _backend.native.OutOfBudget)
)


def clear_cache() -> None:
    """Forget every transposition table (they are shared by all calls)."""
    _tables.clear()


def _table_for(geo: Geometry) -> Table:
    table = _tables.get((geo.width, geo.height))
    if table is None or table.limit != table_limit():
        table = _tables[geo.width, geo.height] = Table()
    return table


@cache
def loony_value(components: tuple[tuple[int, int], ...]) -> int:
    """Value for the side to move of a simple loony endgame.

    ``components`` is a sorted tuple of ``(kind, boxes)`` with kind 0 for a
    chain and 1 for a loop; every box has two sides drawn, so the side to move
    must open one.  Its opponent then takes all, or all but two (four in a
    loop) and keeps control; chains of one or two boxes cannot be declined
    (a two-chain is opened in its middle).

    >>> loony_value(((0, 3), (0, 3)))  # two 3-chains: the controller gets 4 of 6
    -2
    """
    if not components:
        return 0
    best = -_INF
    for i, (kind, n) in enumerate(components):
        if i and components[i - 1] == (kind, n):
            continue  # opening an equal component again gives the same value
        rest = loony_value(components[:i] + components[i + 1 :])
        if kind == 1:
            ctrl = max(n + rest, n - 8 - rest)
        elif n <= 2:
            ctrl = n + rest
        else:
            ctrl = max(n + rest, n - 4 - rest)
        best = max(best, -ctrl)
    return best


class _Search:
    """One search over a position.

    The state of a position is passed down the recursion as plain ints, not
    kept in mutable fields: ``drawn`` (edge mask), ``two`` and ``three`` (masks
    of the boxes with two and three sides drawn) and ``left`` (unclaimed
    boxes).  A child's state is its parent's with one edge's one or two boxes
    updated, so nothing needs undoing and no object is made per node.
    """

    def __init__(
        self,
        geo: Geometry,
        drawn: int,
        deadline: float | None,
        max_nodes: int | None,
        table: Table | None = None,
    ):
        self.geo = geo
        self.tables = _table_for(geo) if table is None else table
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.history = [0] * geo.n_edges
        # Per edge: (bit, four sides) of the one or two boxes beside it.
        self.links = tuple(
            tuple((1 << b, geo.box_mask[b]) for b in boxes) for boxes in geo.edge_boxes
        )
        # Per edge: the other sides of the one or two boxes beside it.
        self.around = tuple(
            (geo.box_mask[boxes[0]] | geo.box_mask[boxes[-1]]) & ~(1 << e)
            for e, boxes in enumerate(geo.edge_boxes)
        )
        # Packing of a lifted chain in a quiet position's key (see _quiet_key).
        self.chain_bits = geo.n_boxes.bit_length()
        self.chain_shift = 2 * self.chain_bits + geo.n_boxes.bit_length() + 1
        self.key_bits = geo.n_edges + len(geo.pair_edges)
        sides = [(drawn & m).bit_count() for m in geo.box_mask]
        self.root = (
            drawn,
            sum(1 << b for b, s in enumerate(sides) if s == 2),
            sum(1 << b for b, s in enumerate(sides) if s == 3),
            sum(1 for s in sides if s < 4),
        )
        self.search = self._searcher()

    # -- moves ----------------------------------------------------------------

    def play(self, drawn: int, two: int, three: int, e: int) -> tuple[int, int, int, int]:
        """Draw edge ``e``: the new ``(drawn, two, three, claimed)``."""
        drawn |= 1 << e
        claimed = 0
        for bit, sides in self.links[e]:
            c = (drawn & sides).bit_count()
            if c == 2:
                two |= bit
            elif c == 3:
                two ^= bit
                three |= bit
            elif c == 4:
                three ^= bit
                claimed += 1
        return drawn, two, three, claimed

    # -- captures -------------------------------------------------------------

    def capture_plan(self, drawn: int, two: int, three: int) -> tuple[list[int], list[int], int]:
        """What to do about capturable boxes: ``(forced, takes, decline)`` edges.

        ``forced``, if not empty: edges to draw now, each taking a box; taking
        them is optimal and nothing else need be searched.  Otherwise one take
        and a decline: a single loony offer, where only taking and the
        double-dealing edge ``decline`` are worth searching.  Several takes (and
        no decline): several offers; one of them is taken first, and which one
        matters, since only the last can still be declined.
        """
        box_mask, edge_sum = self.geo.box_mask, self.geo.edge_sum
        t = three
        takes: list[int] = []
        decline = -1
        while t:
            low = t & -t
            t ^= low
            b = low.bit_length() - 1
            e = (box_mask[b] & ~drawn).bit_length() - 1
            c = edge_sum[e] - b
            if c < 0 or not two >> c & 1:
                return [e], takes, -1  # a lone box (or two with one edge): free to take
            # Walk the chain of two-sided boxes behind b, keeping the edges that
            # take each box in turn.
            path, length, prev, cur = [e], 2, e, c
            while True:
                f = (box_mask[cur] & ~drawn & ~(1 << prev)).bit_length() - 1
                path.append(f)
                d = edge_sum[f] - cur
                if d < 0 or not (two | three) >> d & 1:
                    closed = False  # ends on the ground or at a junction
                    break
                length += 1
                if three >> d & 1:
                    closed = True  # the far end is capturable too (an opened loop)
                    t &= ~(1 << d)
                    break
                prev, cur = f, d
            # All but the last two boxes (four in an opened loop) are taken at once.
            if closed:
                if length != 4:
                    return path[: 2 if length == 3 else length - 4], takes, -1
            elif length != 2:
                return path[: length - 2], takes, -1
            takes.append(e)
            decline = path[1]
        if len(takes) > 1:
            decline = -1
        return [], takes, decline

    # -- search ---------------------------------------------------------------

    def _quiet_key(self, drawn: int, two: int, left: int) -> tuple:
        """Table key, symmetry, sacrifices and safe moves of a quiet position.

        Quiet: no box is capturable.  The sacrifices are one opening per chain
        or loop, shortest first; the safe moves are the edges that give no box a
        third side, one of each corner's two outer sides.  ``(value, -1, (), ())``
        instead for a simple loony endgame, valued by formula.
        """
        geo = self.geo
        box_mask, edge_sum = geo.box_mask, geo.edge_sum
        undrawn = geo.full & ~drawn
        # Every edge of a two-sided box is unsafe (it gives a third side); the others
        # are safe.
        unsafe = 0
        t = two
        while t:
            low = t & -t
            t ^= low
            unsafe |= box_mask[low.bit_length() - 1]
        safe = undrawn & ~unsafe
        # The chains and loops of two-sided boxes, each as (boxes, kind, opening,
        # end, end): kind 0 for a chain, 1 for a loop; the ends are the boxes (or
        # -1, the ground) a chain's two ends meet.  Every edge that is not safe
        # opens one of them.  Wherever it is opened, the opponent ends up taking
        # all of it or all but the last two (four), leaving the same edges drawn,
        # so one opening per chain or loop is enough: its end (a two-chain in its
        # middle, which leaves the opponent no decline).
        found = []
        seen = 0
        t = two
        while t:
            low = t & -t
            t ^= low
            if seen & low:
                continue
            b = low.bit_length() - 1
            members = low
            ways = box_mask[b] & undrawn
            e1 = ways & -ways
            e2 = ways ^ e1
            e1 = e1.bit_length() - 1
            e2 = e2.bit_length() - 1
            # One way out of b, then the other.
            prev, cur, steps1 = e1, edge_sum[e1] - b, 0
            while cur >= 0 and two >> cur & 1 and cur != b:
                members |= 1 << cur
                steps1 += 1
                prev = ((box_mask[cur] & undrawn) ^ (1 << prev)).bit_length() - 1
                cur = edge_sum[prev] - cur
            if cur == b:
                seen |= members
                found.append((members.bit_count(), 1, e1, -1, -1))
                continue
            end1, meet1 = prev, cur
            prev, cur, steps2 = e2, edge_sum[e2] - b, 0
            while cur >= 0 and two >> cur & 1:
                members |= 1 << cur
                steps2 += 1
                prev = ((box_mask[cur] & undrawn) ^ (1 << prev)).bit_length() - 1
                cur = edge_sum[prev] - cur
            seen |= members
            size = steps1 + steps2 + 1
            if size == 2:
                found.append((2, 0, e1 if steps1 else e2, meet1, cur))
            else:
                found.append((size, 0, end1, meet1, cur))
        if not safe and two.bit_count() == left:
            return (
                loony_value(tuple(sorted((c[1], c[0]) for c in found))),
                -1,
                (),
                ((), ()),
                _NO_CAPS,
            )
        for low, high in geo.pair_edges:
            if safe & low and safe & high:
                safe ^= high  # two ground strings of one box: the same move
        # Safe moves that give a box its second side (that make or lengthen a chain)
        # first: they cut more often (a third fewer nodes on 3 x 3, measured).
        # The boxes beside a safe edge have at most one side drawn, so the edge gives
        # one its second side exactly when any other side of them is drawn.
        moves = []
        later = []
        around = self.around
        while safe:
            low = safe & -safe
            safe ^= low
            e = low.bit_length() - 1
            if drawn & around[e]:
                moves.append(e)
            else:
                later.append(e)
        moves = (tuple(moves), tuple(later))
        if not found:
            key, sym = geo.canonical(drawn)
            return key, sym, (), moves, _NO_CAPS
        found.sort()
        openings = tuple(c[2] for c in found)  # shortest first
        # Opening a long chain (n boxes, n >= 3) is a loony move: the opponent
        # chooses between taking all n and moving on (n + v) and taking n - 2 and
        # declining the last two (n - 4 - v), where v is the value of the same rest
        # for the side then to move, so gets at least n - 2 whatever v is.  The
        # opener gets at most 2 - n, and 4 - n for a loop (the decline costs four).
        # The search skips such a move when that cannot beat what it has.
        caps = {c[2]: (2 if c[1] == 0 else 4) - c[0] for c in found if c[0] >= 3} or _NO_CAPS
        # In strings-and-coins terms a chain is a path of coins: its shape and place
        # on the board do not matter, only its length and the boxes (or ground) its
        # ends meet.  So the table knows a position by the rest of the board, with
        # every chain and loop lifted out as if drawn, plus the list of chains, packed
        # above the bits of the rest.
        key, sym = geo.canonical(drawn | (undrawn & unsafe))
        image = geo.box_perms[sym]
        width = self.chain_bits
        lifted = []
        for n, kind, _, a, b in found:
            a = image[a] + 1 if a >= 0 else 0
            b = image[b] + 1 if b >= 0 else 0
            if a > b:
                a, b = b, a
            lifted.append((((n << 1 | kind) << width | a) << width) | b)
        lifted.sort()
        packed = 0
        for c in lifted:
            packed = packed << self.chain_shift | c
        return packed << self.key_bits | key, sym, openings, moves, caps

    def _searcher(self) -> Callable[[int, int, int, int, int, int], int]:
        """The search function, a closure over this search's tables.

        ``search(drawn, two, three, left, alpha, beta)``: the value of the
        position for the side to move, fail-soft within (alpha, beta).  A closure
        because it runs at every node: its tables are cell variables, not
        attribute lookups (a fifth faster, measured).
        """
        geo = self.geo
        canonical, inverses, symmetries = geo.canonical, geo.inverses, geo.symmetries
        tables = self.tables
        limit = tables.limit
        keys, table = tables.keys, tables.bounds
        keys_get, table_get = keys.get, table.get
        old_keys_get, old_get = tables.old_keys.get, tables.old_bounds.get
        links, history = self.links, self.history
        capture_plan, quiet_key, play = self.capture_plan, self._quiet_key, self.play
        deadline, max_nodes = self.deadline, self.max_nodes
        clock = time.perf_counter
        nodes = 0
        killers = [-1] * (geo.n_edges + 1)

        def count() -> int:
            return nodes

        self.count = count

        def search(drawn: int, two: int, three: int, left: int, alpha: int, beta: int) -> int:
            nonlocal nodes, keys, keys_get, old_keys_get, table, table_get, old_get
            nodes += 1
            if not nodes & _CLOCK_MASK:
                if deadline is not None and clock() > deadline:
                    raise _OutOfBudget
                if max_nodes is not None and nodes > max_nodes:
                    raise _OutOfBudget
            gain = 0
            takes: list[int] = []
            decline = -1
            while three:
                forced, takes, decline = capture_plan(drawn, two, three)
                if not forced:
                    break
                for e in forced:
                    # _Search.play written out, not called: this is the search's innermost
                    # loop, and a method call per forced edge shows in its time.
                    drawn |= 1 << e
                    for bit, sides in links[e]:
                        c = (drawn & sides).bit_count()
                        if c == 2:
                            two |= bit
                        elif c == 3:
                            two ^= bit
                            three |= bit
                        elif c == 4:
                            three ^= bit
                            gain += 1
            else:
                takes = []
            left -= gain
            # Either no box is capturable, or loony offers wait: ``takes`` and
            # ``decline`` as capture_plan gives them.
            if not left:
                return gain
            alpha -= gain
            beta -= gain
            if alpha >= left:
                return gain + left
            if beta <= -left:
                return gain - left
            if takes:
                key, sym = canonical(drawn)
            else:
                known = keys_get(drawn)
                if known is None:
                    known = old_keys_get(drawn)
                    if known is None:
                        if len(keys) >= limit:
                            tables.turn_keys()
                            keys, keys_get = tables.keys, tables.keys.get
                            old_keys_get = tables.old_keys.get
                        known = quiet_key(drawn, two, left)
                    keys[drawn] = known
                key, sym, openings, safe, caps = known
                if sym < 0:
                    return gain + key  # a simple loony endgame: ``key`` is its value
            entry = table_get(key)
            if entry is None:
                entry = old_get(key)
                if entry is None:
                    if len(table) >= limit:
                        # The current generation is full: it becomes the old one, and
                        # what the search still reaches is copied back on use.
                        tables.turn_bounds()
                        table, table_get = tables.bounds, tables.bounds.get
                        old_get = tables.old_bounds.get
                else:
                    table[key] = entry  # still in use: keep it
            alpha0, beta0 = alpha, beta
            hint = -1
            if entry is not None:
                lo, hi, hint = entry
                if lo >= beta or lo == hi:
                    return gain + lo
                if hi <= alpha:
                    return gain + hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                if hint >= 0:
                    hint = inverses[sym][hint]
            best, move = -_INF, -1
            if takes:
                # Offers: take one (which one matters: only the last can be
                # declined), or decline a single one with the double-dealing move.
                for e in takes:
                    d, t2, t3, k = play(drawn, two, three, e)
                    v = k + search(d, t2, t3, left - k, max(alpha, best) - k, beta - k)
                    if v > best:
                        best = v
                        if best >= beta:
                            break
                else:
                    if decline >= 0:
                        d, t2, t3, k = play(drawn, two, three, decline)
                        v = -search(d, t2, t3, left, -beta, -max(alpha, best))
                        if v > best:
                            best = v
            else:
                # Quiet: no move claims anything and every move passes the turn.
                first, later = safe
                # Enhanced transposition cutoff: a safe move whose position the
                # table already knows to be bad enough for the opponent.
                for group in safe:
                    for e in group:
                        known = keys_get(drawn | 1 << e)
                        if known is None:
                            continue
                        if known[1] < 0:
                            v = -known[0]
                        else:
                            child = table_get(known[0])
                            if child is None:
                                continue
                            v = -child[1]
                        if v >= beta:
                            best, move = v, e
                            break
                    else:
                        continue
                    break
                else:
                    moves = sorted(first, key=history.__getitem__, reverse=True)
                    if later:
                        moves += sorted(later, key=history.__getitem__, reverse=True)
                    if openings:
                        # The cheapest sacrifice first, then the safe moves, then the
                        # other sacrifices: giving a box or two away to pass the turn
                        # is so often the refutation that trying it first halves the
                        # nodes on 3 x 3 (measured).
                        moves.insert(0, openings[0])
                        moves.extend(openings[1:])
                    # The last move that cut off at this depth (a killer) next:
                    # 9 % fewer nodes on 4 x 3, 17 % on 4 x 2, but 15 % more on
                    # 3 x 3 and 6 % more on 5 x 2 (measured); 4 x 3 decided.
                    killer = killers[drawn.bit_count()]
                    if killer >= 0 and killer != moves[0] and killer in moves:
                        moves.remove(killer)
                        moves.insert(0, killer)
                    if hint >= 0 and hint != moves[0] and hint in moves:
                        # The move that was best (or cut off) here before goes first.
                        moves.remove(hint)
                        moves.insert(0, hint)
                    for e in moves:
                        if caps:
                            cap = caps.get(e)
                            if cap is not None and cap <= best:
                                continue
                        d = drawn | 1 << e
                        t2, t3 = two, three
                        for bit, sides in links[e]:
                            c = (d & sides).bit_count()
                            if c == 2:
                                t2 |= bit
                            elif c == 3:
                                t2 ^= bit
                                t3 |= bit
                        v = -search(d, t2, t3, left, -beta, -(alpha if alpha > best else best))
                        if v > best:
                            best, move = v, e
                            if best >= beta:
                                history[e] += left * left
                                killers[drawn.bit_count()] = e
                                break
            # The best move is kept in canonical coordinates, like the key.
            if move >= 0:
                move = symmetries[sym][move]
            if best <= alpha0:
                table[key] = (-left if entry is None else entry[0], best, move)
            elif best >= beta0:
                table[key] = (best, left if entry is None else entry[1], move)
            else:
                table[key] = (best, best, move)
            return gain + best

        return search

    @property
    def nodes(self) -> int:
        return self.count()

    def value(self, guess: int = 0) -> int:
        """Exact value of the root by MTD(f): null-window searches converging on it.

        Narrow windows cut far more than one wide one, and every probe leaves
        bounds in the table that the next probe reuses.
        """
        lo, hi, g = -_INF, _INF, guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self.search(*self.root, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return g

    def after(self, e: int) -> tuple[int, tuple[int, int, int, int]]:
        """Boxes that drawing ``e`` at the root claims, and the position after."""
        drawn, two, three, left = self.root
        drawn, two, three, k = self.play(drawn, two, three, e)
        return k, (drawn, two, three, left - k)

    def move_value(self, e: int, guess: int = 0) -> int:
        """Exact value of drawing edge ``e`` at the root for the mover."""
        k, child = self.after(e)
        lo, hi, g = -_INF, _INF, guess - k if k else -guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self.search(*child, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return k + g if k else -g

    def move_reaches(self, e: int, target: int) -> bool:
        """Whether drawing ``e`` at the root is worth at least ``target`` for the mover."""
        k, child = self.after(e)
        if k:
            return k + self.search(*child, target - 1 - k, target - k) >= target
        return -self.search(*child, -target, -target + 1) >= target

    def bounds(self, drawn: int, two: int, three: int, left: int) -> tuple[int, int]:
        """What the table has proved about a position: ``(lower, upper)`` on its value.

        The search's own first steps (forced captures, then the key), without
        searching: ``(-left, left)`` when the table knows nothing.
        """
        gain = 0
        takes: list[int] = []
        while three:
            forced, takes, _ = self.capture_plan(drawn, two, three)
            if not forced:
                break
            for e in forced:
                drawn, two, three, k = self.play(drawn, two, three, e)
                gain += k
        left -= gain
        if not left:
            return gain, gain
        t = self.tables
        if takes:
            key = self.geo.canonical(drawn)[0]
        else:
            known = t.keys.get(drawn) or t.old_keys.get(drawn)
            if known is None:
                known = self._quiet_key(drawn, two, left)
            if known[1] < 0:
                return gain + known[0], gain + known[0]
            key = known[0]
        entry = t.bounds.get(key) or t.old_bounds.get(key)
        if entry is None:
            return gain - left, gain + left
        return gain + entry[0], gain + entry[1]

    def move_bounds(self, e: int) -> tuple[int, int]:
        """Proved bounds on the value of drawing ``e`` at the root, for the mover."""
        k, child = self.after(e)
        lo, hi = self.bounds(*child)
        return (k + lo, k + hi) if k else (-hi, -lo)


def _bits_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


# -- public API -----------------------------------------------------------------


def _start(
    board: Board, budget: float | None, max_nodes: int | None, table: Table | None = None
) -> _Search:
    """A search of ``board`` by the backend in use (both have the same methods)."""
    geo = geometry(board.width, board.height)
    if _backend.use_native(geo):
        tables = _table_for(geo) if table is None else table
        return _backend.native.Search(  # type: ignore[return-value]
            tables.native(),
            _backend.native_geometry(geo),
            board.edge_bits,
            budget,
            max_nodes,
        )
    deadline = None if budget is None else time.perf_counter() + budget
    return _Search(geo, board.edge_bits, deadline, max_nodes, table)


def solve(
    board: Board,
    *,
    budget: float | None = None,
    max_nodes: int | None = None,
    table: Table | None = None,
    stats: dict[str, int] | None = None,
) -> Solution | None:
    """Solve the position exactly: its value and every move that keeps it.

    ``value`` is the final margin of the side to move over the boxes still
    unclaimed with best play by both (see the module docstring).  Returns
    ``None`` if the search does not finish within ``budget`` seconds or
    ``max_nodes`` nodes; work done still fills the transposition table
    (``table``, else the process-wide one for the board size), so asking
    again later is cheaper.  ``stats``, if given, receives ``nodes``, finished
    or not.

    >>> s = solve(Board(2, 2))
    >>> s.value, len(s.best)
    (2, 8)
    """
    s = _start(board, budget, max_nodes, table)
    moves = [board.index(e) for e in board.legal_moves]
    if not moves:
        return Solution(0, (), 0)
    try:
        best_value = s.value()
        # A move is best when its value reaches best_value: a null-window test each.
        best = tuple(board.edges[e] for e in moves if s.move_reaches(e, best_value))
    except _BUDGET:
        return None
    finally:
        if stats is not None:
            stats["nodes"] = s.nodes
    return Solution(best_value, best, s.nodes)


def close_moves(
    board: Board,
    *,
    boxes: int = 2,
    max_nodes: int | None = None,
    table: Table | None = None,
) -> tuple[Solution, tuple[Edge, ...]] | None:
    """Solve, and name every other move that loses fewer than ``boxes`` boxes.

    The puzzles ask for positions whose best move stands out: every other move
    must lose ``boxes`` or more.  That is one null-window test per move (does
    it reach ``value - 2 * boxes + 2``?), far cheaper than every move's exact
    value.  ``None`` if out of ``max_nodes``.

    >>> solution, close = close_moves(Board(2, 2), boxes=1)
    >>> len(solution.best), close
    (8, ())
    """
    s = _start(board, None, max_nodes, table)
    moves = [board.index(e) for e in board.legal_moves]
    if not moves:
        return Solution(0, (), 0), ()
    try:
        best_value = s.value()
        best, close = [], []
        for e in moves:
            if s.move_reaches(e, best_value):
                best.append(board.edges[e])
            elif boxes > 1 and s.move_reaches(e, best_value - 2 * boxes + 2):
                close.append(board.edges[e])
    except _BUDGET:
        return None
    return Solution(best_value, tuple(best), s.nodes), tuple(close)


def move_bounds(
    board: Board, table: Table | None = None, *, deadline: float | None = None
) -> dict[Edge, tuple[int, int]]:
    """What ``table`` has proved about each legal move: ``(lower, upper)`` on its value.

    No search: only lookups, so it costs a few milliseconds (tens on a 9 x 9
    board in Python).  A move's value as in :func:`move_values`; ``(-n, n)``
    for a move the table knows nothing of, ``n`` the boxes unclaimed, and for
    the moves not looked up by ``deadline`` (a :func:`time.perf_counter`
    value).  After an unfinished :func:`solve` this says which moves are
    already proved worse than another.
    """
    s = _start(board, None, None, table)
    n = board.unclaimed
    bounds = {}
    for e in board.legal_moves:
        if deadline is not None and time.perf_counter() >= deadline:
            bounds[e] = (-n, n)
        else:
            bounds[e] = s.move_bounds(board.index(e))
    return bounds


def move_values(
    board: Board, *, budget: float | None = None, max_nodes: int | None = None
) -> dict[Edge, int] | None:
    """The exact value of every legal move, or ``None`` if out of ``budget`` seconds or
    ``max_nodes`` nodes.

    A move's value is the mover's final margin over the boxes unclaimed
    *before* the move, when they draw it and both sides then play best: the
    boxes the move claims count for the mover; if it claims none, the rest is
    the opponent's value negated.  The largest value equals
    ``solve(board).value``.

    >>> values = move_values(Board(2, 2))
    >>> sorted(set(values.values()))
    [0, 2]
    """
    s = _start(board, budget, max_nodes)
    values: dict[Edge, int] = {}
    guess = 0
    try:
        for edge in board.legal_moves:
            guess = values[edge] = s.move_value(board.index(edge), guess)
    except _BUDGET:
        return None
    return values


def value(board: Board, *, budget: float | None = None, max_nodes: int | None = None) -> int | None:
    """The value of the position for the side to move, or ``None`` if out of ``budget``
    seconds or ``max_nodes`` nodes.

    >>> value(Board(3, 2))
    -2
    """
    s = _start(board, budget, max_nodes)
    try:
        return s.value()
    except _BUDGET:
        return None

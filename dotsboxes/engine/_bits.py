"""Bitboard geometry for the solver: edges as bits of an int, symmetry tables.

A position is the set of drawn edges as an ``int`` (bit ``i`` for edge index
``i`` in the order of :mod:`dotsboxes.rules.board`).  Everything here depends
only on the board size, so one :class:`Geometry` per size is built once and
cached.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from dotsboxes.rules import Board

# Symmetry images are computed a byte of the position at a time through lookup
# tables: eight table lookups per symmetry beat sixty single-bit moves.
_CHUNK = 8


@dataclass(frozen=True, eq=False)
class Geometry:
    """Fixed tables for one board size."""

    width: int
    height: int
    n_edges: int
    n_boxes: int
    full: int  # every edge drawn
    edge_boxes: tuple[tuple[int, ...], ...]  # the one or two boxes beside each edge
    box_mask: tuple[int, ...]  # the four sides of each box as an edge mask
    # across[box][edge]: the box on the other side of ``edge`` seen from ``box``, -1 for
    # the outside of the board ("ground" in strings-and-coins terms).
    across: tuple[dict[int, int], ...]
    # edge_sum[e] - box is the box across edge ``e`` from ``box``, or -1 (the ground):
    # the sum of its two boxes, or its one box minus one.  Cheaper than a lookup.
    edge_sum: tuple[int, ...]
    # exits[box]: its four sides as (edge bit, edge index, box across or -1).
    exits: tuple[tuple[tuple[int, int, int], ...], ...]
    # Edge permutations, the identity first; ``canonical(drawn)`` returns the smallest
    # image of a position and the index of the symmetry that gives it.
    symmetries: tuple[tuple[int, ...], ...]
    inverses: tuple[tuple[int, ...], ...]
    box_perms: tuple[tuple[int, ...], ...]  # where each symmetry sends each box
    canonical: Callable[[int], tuple[int, int]]
    # For each box with two sides on the board's edge, those two sides as single-bit
    # masks: drawing one or the other is the same move.
    pair_edges: tuple[tuple[int, int], ...]
    # What ``canonical`` is compiled from (the native solver builds its own from them):
    # each corner's two outer sides with its flag bit, and the symmetries over the
    # edges and the flags.
    pairs: tuple[tuple[int, int], ...]
    extended: tuple[tuple[int, ...], ...]


def _dot_maps(width: int, height: int) -> list[Callable[[int, int], tuple[int, int]]]:
    """The board's symmetries as maps on dots: 4 for rectangles, 8 for squares."""
    w, h = width, height
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda x, y: (w - x, y),
        lambda x, y: (x, h - y),
        lambda x, y: (w - x, h - y),
    ]
    if w == h:
        maps += [
            lambda x, y: (y, x),
            lambda x, y: (w - y, x),
            lambda x, y: (y, w - x),
            lambda x, y: (w - y, w - x),
        ]
    return maps


def _edge_permutation(board: Board, dot_map: Callable[[int, int], tuple[int, int]]) -> tuple:
    index = {frozenset(edge.dots): i for i, edge in enumerate(board.edges)}
    return tuple(index[frozenset(dot_map(*dot) for dot in edge.dots)] for edge in board.edges)


def _compile_canonical(
    n_edges: int,
    perms: tuple[tuple[int, ...], ...],
    pairs: tuple[tuple[int, int], ...],
) -> Callable[[int], tuple[int, int]]:
    # Generated straight-line code: this runs at almost every search node, and
    # a loop over symmetries and chunks costs twice as much in CPython.
    #
    # ``pairs`` are boxes with exactly two sides on the board's edge (corners).
    # In strings-and-coins terms those two sides are both strings to the ground,
    # so which one is drawn does not matter: a position with one of them drawn is
    # first rewritten with neither drawn and a flag bit for the box set, and the
    # flag bits move with the symmetries like the box does.
    namespace: dict[str, object] = {}
    n_bits = n_edges + len(pairs)
    lines = ["def canonical(s):"]
    for k, (pair_mask, flag) in enumerate(pairs):
        namespace[f"p{k}"], namespace[f"f{k}"] = pair_mask, flag
        lines.append(f"    x = s & p{k}")
        lines.append(f"    if x and x != p{k}:")
        lines.append(f"        s ^= x | f{k}")
    lines += ["    m = s", "    g = 0"]
    for k, perm in enumerate(perms):
        if not k:
            continue  # the identity
        terms = []
        for j in range(0, n_bits, _CHUNK):
            # Doubling, one bit at a time: the images of the values with that bit
            # set are those without it, plus its image (a tenth of the time of
            # bit-by-bit images: a 9 x 9 board's first move was 40 ms dearer).
            table = [0]
            for bit in range(_CHUNK):
                image = 1 << perm[j + bit] if j + bit < n_bits else 0
                table += [x | image for x in table]
            name = f"t{k}_{j}"
            namespace[name] = tuple(table)
            terms.append(f"{name}[s >> {j} & {(1 << _CHUNK) - 1}]")
        lines.append(f"    x = {' | '.join(terms)}")
        lines.append("    if x < m:")
        lines.append("        m = x")
        lines.append(f"        g = {k}")
    lines.append("    return m, g")
    exec("\n".join(lines), namespace)
    return namespace["canonical"]  # type: ignore[return-value]


@cache
def geometry(width: int, height: int) -> Geometry:
    """The solver tables for a board of ``width`` x ``height`` boxes."""
    board = Board(width, height)
    n_edges, n_boxes = len(board.edges), board.num_boxes
    edge_boxes = tuple(board.edge_boxes(e) for e in board.edges)
    box_mask = []
    across = []
    for box in range(n_boxes):
        sides = [board.index(e) for e in board.box_edges(box)]
        box_mask.append(sum(1 << i for i in sides))
        across.append({i: next((b for b in edge_boxes[i] if b != box), -1) for i in sides})
    perms = (
        tuple(range(n_edges)),
        *(_edge_permutation(board, m) for m in _dot_maps(width, height)),
    )
    inverses = tuple(tuple(sorted(range(n_edges), key=p.__getitem__)) for p in perms)
    # Boxes with two sides on the board's edge, and where each symmetry sends them.
    paired = [b for b in range(n_boxes) if sum(len(edge_boxes[e]) == 1 for e in across[b]) == 2]
    pairs = tuple(
        (sum(1 << e for e in across[b] if len(edge_boxes[e]) == 1), 1 << (n_edges + k))
        for k, b in enumerate(paired)
    )
    box_perms = tuple(
        tuple(box_mask.index(sum(1 << perm[e] for e in across[b])) for b in range(n_boxes))
        for perm in perms
    )
    extended = [
        perm + tuple(n_edges + paired.index(box_perm[b]) for b in paired)
        for perm, box_perm in zip(perms, box_perms, strict=True)
    ]
    pair_edges = []
    for pair_mask, _ in pairs:
        low = pair_mask & -pair_mask
        pair_edges.append((low, pair_mask ^ low))
    return Geometry(
        width=width,
        height=height,
        n_edges=n_edges,
        n_boxes=n_boxes,
        full=(1 << n_edges) - 1,
        edge_boxes=edge_boxes,
        box_mask=tuple(box_mask),
        across=tuple(across),
        edge_sum=tuple(sum(bs) if len(bs) == 2 else bs[0] - 1 for bs in edge_boxes),
        exits=tuple(tuple((1 << e, e, c) for e, c in a.items()) for a in across),
        symmetries=perms,
        inverses=inverses,
        box_perms=box_perms,
        canonical=_compile_canonical(n_edges, tuple(extended), pairs),
        pair_edges=tuple(pair_edges),
        pairs=pairs,
        extended=tuple(extended),
    )

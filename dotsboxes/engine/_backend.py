"""Which engine core runs: the C extensions (``_native``, ``_native_search``) or Python.

``DOTSBOXES_ENGINE_BACKEND``: ``auto`` (the default: native when the extensions
were built at install, else Python), ``native`` (the extensions or an error at
import: for CI and for operators who want to know), or ``python`` (the
reference).  The choice covers the exact solver (``_native``) and the heuristic
search (``_native_search``).  Boards too large for the native solver (more than
128 edge bits or 63 boxes: larger than 7 x 7, 9 x 5, 8 x 6...) always use
Python; the native search takes boards up to 128 edges and 64 boxes.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from types import ModuleType

from ._bits import Geometry

CHOICES = ("auto", "native", "python")


def _load(name: str) -> ModuleType | None:
    # By name, not ``from . import _native``: the package's __init__ imports this module.
    try:
        return importlib.import_module(f"{__package__}.{name}")
    except ImportError:
        return None


native: ModuleType | None = _load("_native")
native_search: ModuleType | None = _load("_native_search")

_asked = (os.environ.get("DOTSBOXES_ENGINE_BACKEND") or "auto").strip().lower()
if _asked not in CHOICES:
    raise ValueError(f"DOTSBOXES_ENGINE_BACKEND={_asked!r}: choose one of {', '.join(CHOICES)}")
for _name, _module in (("_native", native), ("_native_search", native_search)):
    if _asked == "native" and _module is None:
        raise ImportError(
            f"DOTSBOXES_ENGINE_BACKEND=native but the C extension dotsboxes.engine.{_name} "
            "was not built: reinstall with a C compiler and Python headers (pip install -e .)"
        )

#: The backend in use: ``"native"`` or ``"python"``.  Tests switch it for a while.
BACKEND = "python" if _asked == "python" or native is None else "native"


def backend_name() -> str:
    """``"native"`` (the C solver core) or ``"python"``: what the solver runs on."""
    return BACKEND


def fits(geo: Geometry) -> bool:
    """Whether the native core takes boards of this size."""
    return (
        native is not None
        and geo.n_edges + len(geo.pairs) <= native.MAX_EDGE_BITS
        and geo.n_boxes <= native.MAX_BOXES
    )


def use_native(geo: Geometry) -> bool:
    return BACKEND == "native" and fits(geo)


def search_backend_name() -> str:
    """``"native"`` (the C search) or ``"python"``: what the heuristic search runs on."""
    return "native" if BACKEND == "native" and native_search is not None else "python"


def use_native_search(width: int, height: int) -> bool:
    """Whether the heuristic search runs in C for boards of this size."""
    if BACKEND != "native" or native_search is None:
        return False
    edges = width * (height + 1) + height * (width + 1)
    return edges <= native_search.MAX_EDGES and width * height <= native_search.MAX_BOXES


@cache
def native_geometry(geo: Geometry) -> object:
    """The native core's copy of ``geo``'s tables (built once per size)."""
    assert native is not None
    return native.Geometry(
        geo.width,
        geo.height,
        geo.n_edges,
        geo.n_boxes,
        geo.box_mask,
        geo.edge_sum,
        geo.edge_boxes,
        geo.symmetries,
        geo.inverses,
        geo.box_perms,
        geo.extended,
        geo.pairs,
        geo.pair_edges,
    )

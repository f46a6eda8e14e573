"""Which solver core runs: the C extension (``_native``) or the pure-Python search.

``DOTSBOXES_ENGINE_BACKEND``: ``auto`` (the default: native when the extension
was built at install, else Python), ``native`` (the extension or an error at
import: for CI and for operators who want to know), or ``python`` (the
reference).  Boards too large for the native core (more than 128 edge bits or
63 boxes: larger than 7 x 7, 9 x 5, 8 x 6...) always use Python.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from types import ModuleType

from ._bits import Geometry

CHOICES = ("auto", "native", "python")


def _load() -> ModuleType | None:
    # By name, not ``from . import _native``: the package's __init__ imports this module.
    try:
        return importlib.import_module(f"{__package__}._native")
    except ImportError:
        return None


native: ModuleType | None = _load()

_asked = (os.environ.get("DOTSBOXES_ENGINE_BACKEND") or "auto").strip().lower()
if _asked not in CHOICES:
    raise ValueError(f"DOTSBOXES_ENGINE_BACKEND={_asked!r}: choose one of {', '.join(CHOICES)}")
if _asked == "native" and native is None:
    raise ImportError(
        "DOTSBOXES_ENGINE_BACKEND=native but the C extension dotsboxes.engine._native "
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

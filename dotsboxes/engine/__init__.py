"""The computer opponent, in pure Python (no Django).

``players.choose(board, level=..., budget=..., seed=...)`` picks an edge;
``solver`` values positions exactly; ``analysis`` explains them.
``backend_name()`` says which solver core runs: ``"native"`` (C) or ``"python"``.
"""

from ._backend import backend_name

__all__ = ["backend_name"]

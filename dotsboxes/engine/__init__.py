"""The computer opponent, in pure Python (no Django).

``players.choose(board, level=..., budget=..., seed=...)`` picks an edge;
``solver`` values positions exactly; ``analysis`` explains them.
"""

"""The optional C extension: the exact solver's core (dotsboxes/engine/native/solver.c).

Everything else is in pyproject.toml.  ``optional=True``: where no C compiler or
no Python headers exist, ``pip install`` warns and goes on, and the engine uses
its pure-Python solver (see docs/ENGINE.md).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "dotsboxes.engine._native",
            sources=["dotsboxes/engine/native/solver.c"],
            extra_compile_args=["-std=c11", "-O2"],
            optional=True,
        )
    ]
)

"""The optional C extensions, and the site files a built wheel carries.

Everything else is in pyproject.toml.

* The C extensions: the exact solver's core (dotsboxes/engine/native/solver.c)
  and the heuristic search (dotsboxes/engine/native/search.c).  ``optional=True``:
  where no C compiler or no Python headers exist, ``pip install`` warns and goes
  on, and the engine uses its pure-Python solver and search (see docs/ENGINE.md).
* The site's ``templates/``, ``static/`` and ``docs/API.md`` stay at the top of the
  repository, beside the package, where package data cannot reach them.  ``build_py``
  copies them into the built package as ``dotsboxes/_site/``, which ``SITE_DIR`` in
  dotsboxes/settings.py reads when there is no checkout (docs/DEPLOY.md).  An
  editable install builds nothing and reads the checkout.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: Site-level folders and files (relative to the repository) and where a wheel keeps them.
SITE_FILES = ("templates", "static", "docs/API.md")
PACKED = Path("dotsboxes", "_site")


def site_files() -> list[Path]:
    """Every file of SITE_FILES, relative to the repository; none is optional."""
    found = []
    for name in SITE_FILES:
        path = HERE / name
        if not path.exists():
            raise FileNotFoundError(f"{name} is missing: a wheel of the site needs it")
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        found += [p.relative_to(HERE) for p in files if "__pycache__" not in p.parts]
    return found


class BuildPyWithSite(build_py):
    """``build_py`` that also copies the site files into ``dotsboxes/_site/``."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for relative in site_files():
            target = Path(self.build_lib, PACKED, relative)
            self.mkpath(str(target.parent))
            self.copy_file(str(HERE / relative), str(target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        return outputs + [str(Path(self.build_lib, PACKED, p)) for p in site_files()]

    def get_source_files(self) -> list[str]:
        """The sdist takes these too, so a wheel built from it has the site files."""
        return super().get_source_files() + [str(p) for p in site_files()]


setup(
    cmdclass={"build_py": BuildPyWithSite},
    ext_modules=[
        Extension(
            "dotsboxes.engine._native",
            sources=["dotsboxes/engine/native/solver.c"],
            extra_compile_args=["-std=c11", "-O2"],
            optional=True,
        ),
        Extension(
            "dotsboxes.engine._native_search",
            sources=["dotsboxes/engine/native/search.c"],
            extra_compile_args=["-std=c11", "-O2"],
            optional=True,
        ),
    ],
)

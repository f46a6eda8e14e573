"""A wheel built from the repository carries the files the package and the site read.

An editable install (how the suite runs) reads them from the checkout and hides
a wheel that forgot them; this builds the wheel from a copy of the sources,
installs it with ``--no-deps`` into a fresh virtual environment, and reads the
data and the catalogue from there, and, with the settings loaded, finds a
template, a static file and the API's documentation (the site files setup.py
packs into ``dotsboxes/_site/``).  The fresh environment borrows the suite's
installed libraries (Django) through a path file, after its own site-packages,
so ``dotsboxes`` itself can only come from the wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIP = (sys.executable, "-m", "pip")

READ = textwrap.dedent(
    """
    import gettext, json
    from importlib.resources import files

    import dotsboxes
    from dotsboxes.guide import answers, exercises, studies
    from dotsboxes.puzzles import build

    print(json.dumps({
        "package": dotsboxes.__file__,
        "answers": len(answers._stored()),
        "studies": len(studies.STUDIES),
        "exercises": len(exercises.EXERCISES),
        "puzzles": len(json.loads(build.DATA.read_text())),
        "zh": gettext.translation(
            "django", localedir=str(files("dotsboxes") / "locale"), languages=["zh_Hans"]
        ).gettext("Play"),
    }))
    """
)

# With the settings: the site files, found the way the site finds them.
SITE = textwrap.dedent(
    """
    import json

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.staticfiles import finders
    from django.template.loader import get_template

    from dotsboxes.api import web

    print(json.dumps({
        "site_dir": str(settings.SITE_DIR),
        "template": get_template("base.html").origin.name,
        "static": finders.find("css/site.css"),
        "favicon": str(settings.WHITENOISE_ROOT / "favicon.ico"),
        "api_doc": str(web.API_DOC),
        "api_html": web._api_docs_html(),
    }))
    """
)


def test_a_built_wheel_carries_the_data_and_the_catalogue(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)  # setup.py: the C extension, the site files
    for name in ("dotsboxes", "templates", "static"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    (source / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "API.md", source / "docs" / "API.md")
    built = subprocess.run(
        [
            *PIP,
            "wheel",
            str(source),
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(tmp_path / "dist"),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("dotsboxes-*.whl")
    packed = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "dotsboxes/_site/templates/base.html",
        "dotsboxes/_site/static/css/site.css",
        "dotsboxes/_site/static/root/favicon.ico",
        "dotsboxes/_site/docs/API.md",
    } <= packed
    assert not any(name.startswith(("templates/", "static/", "docs/")) for name in packed)

    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    installed = subprocess.run(
        [*PIP, "install", "--no-deps", "--quiet", "--target", str(purelib), str(wheel)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert installed.returncode == 0, installed.stderr
    # The suite's libraries (Django for the guide's wording), after the wheel's own files.
    (purelib / "zz_suite_libraries.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    read = subprocess.run(
        [python, "-c", READ], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert read.returncode == 0, read.stderr
    found = json.loads(read.stdout)
    assert found["package"].startswith(str(purelib))  # the wheel's copy, not the checkout
    assert found["answers"] > 0 and found["puzzles"] >= 100
    assert found["studies"] >= 12  # guide/data/*.json, read from the wheel
    assert found["exercises"] >= 18
    assert found["zh"] == "对弈"  # the compiled .mo, read from the wheel

    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "dotsboxes.settings"}
    site = subprocess.run(
        [python, "-c", SITE],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert site.returncode == 0, site.stderr
    found = json.loads(site.stdout)
    packed_site = purelib / "dotsboxes" / "_site"
    assert found["site_dir"] == str(packed_site)  # no checkout here: the wheel's copies
    assert found["template"] == str(packed_site / "templates" / "base.html")
    assert found["static"] == str(packed_site / "static" / "css" / "site.css")
    assert Path(found["favicon"]).is_file()
    assert found["api_doc"] == str(packed_site / "docs" / "API.md")
    assert "<table>" in found["api_html"] and "/api/" in found["api_html"]

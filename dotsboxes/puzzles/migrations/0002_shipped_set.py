"""Load the shipped puzzle set (dotsboxes/puzzles/data/puzzles.json), so a fresh checkout has it.

Idempotent like ``build_puzzles``: puzzles already there keep their ratings and
statistics.  Later rebuilds of the file are loaded by ``manage.py build_puzzles``.
"""

from django.db import migrations


def load_shipped(apps, schema_editor):
    from dotsboxes.puzzles import build

    build.load(build.read(), apps.get_model("puzzles", "Puzzle"))


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]

    operations = [migrations.RunPython(load_shipped, migrations.RunPython.noop)]

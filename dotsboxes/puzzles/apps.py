from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "dotsboxes.puzzles"
    default_auto_field = "django.db.models.BigAutoField"

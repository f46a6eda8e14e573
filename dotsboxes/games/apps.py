from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "dotsboxes.games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Connects the computer to game_changed: it moves whenever a commit leaves it to move.
        from . import computer  # noqa: F401

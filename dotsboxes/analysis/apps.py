from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "dotsboxes.analysis"

    def ready(self) -> None:
        from dotsboxes.games import views as game_views

        from . import services  # noqa: F401  (connects the automatic analysis of finished games)
        from .views import replay_extras

        # The replay shows the game's analysis; games never imports this app (it is below it).
        if replay_extras not in game_views.REPLAY_EXTRAS:
            game_views.REPLAY_EXTRAS.append(replay_extras)

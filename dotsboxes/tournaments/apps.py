from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "dotsboxes.tournaments"

    def ready(self) -> None:
        # Listens to the core's change event (results) and the room clock (start, pair, finish).
        from . import services  # noqa: F401

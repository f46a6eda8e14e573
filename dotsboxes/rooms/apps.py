from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "dotsboxes.rooms"

    def ready(self) -> None:
        # Connects the room pushes to the game core's change event.
        from . import push  # noqa: F401

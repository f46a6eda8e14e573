from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "dotsboxes.notifications"

    def ready(self) -> None:
        # Listens to the core's change event (turn notices) and the room clock (mail, warnings).
        from . import services  # noqa: F401

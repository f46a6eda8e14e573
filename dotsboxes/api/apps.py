from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "dotsboxes.api"
    label = "api"
    verbose_name = "Bot accounts and the bot API"

    def ready(self) -> None:
        from . import wake  # noqa: F401  (connects the streams' wake-ups to the change event)

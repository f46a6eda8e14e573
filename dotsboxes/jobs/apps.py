from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "dotsboxes.jobs"
    verbose_name = "Engine jobs"

    def ready(self) -> None:
        from . import discover

        discover()

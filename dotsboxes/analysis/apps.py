from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "dotsboxes.analysis"

    def ready(self) -> None:
        from . import services  # noqa: F401  (connects the automatic analysis of finished games)

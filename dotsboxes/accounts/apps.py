from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "dotsboxes.accounts"
    verbose_name = "Accounts and ratings"

    def ready(self) -> None:
        from . import language, signals  # noqa: F401  (connects the receivers)

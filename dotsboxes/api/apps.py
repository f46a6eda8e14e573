from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "dotsboxes.api"
    label = "api"
    verbose_name = "Bot accounts and the bot API"

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "dotsboxes.games"

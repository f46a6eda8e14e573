from django.apps import AppConfig


class ProfilesConfig(AppConfig):
    """The parts of a player's profile that gather from several apps (no models)."""

    name = "dotsboxes.profiles"

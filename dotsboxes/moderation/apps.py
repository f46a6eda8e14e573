from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Blocks between players, chat mutes, and the fair-play evidence and decisions."""

    name = "dotsboxes.moderation"

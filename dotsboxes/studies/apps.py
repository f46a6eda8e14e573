from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "dotsboxes.studies"
    default_auto_field = "django.db.models.BigAutoField"

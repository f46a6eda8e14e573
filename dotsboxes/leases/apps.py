from django.apps import AppConfig


class LeasesConfig(AppConfig):
    name = "dotsboxes.leases"
    default_auto_field = "django.db.models.BigAutoField"

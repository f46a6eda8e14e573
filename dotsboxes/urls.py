"""Top-level URLs: each app owns its own ``urls.py``."""

from django.contrib import admin
from django.urls import include, path

from . import views
from .accounts.language import switch_language

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("healthz/workers", views.healthz_workers, name="healthz_workers"),
    path("language/", switch_language, name="set_language"),
    path("play/", include("dotsboxes.games.urls")),
    path("rooms/", include("dotsboxes.rooms.urls")),
    path("learn/", include("dotsboxes.guide.urls")),
    path("accounts/settings/", include("dotsboxes.privacy.urls")),
    path("accounts/", include("dotsboxes.accounts.urls")),
    path("reports/", include("dotsboxes.reports.urls")),
    path("moderation/", include("dotsboxes.moderation.urls")),
    path("notifications/", include("dotsboxes.notifications.urls")),
    path("analysis/", include("dotsboxes.analysis.urls")),
    path("puzzles/", include("dotsboxes.puzzles.urls")),
    path("api/", include("dotsboxes.api.urls")),
    path("bots/", include("dotsboxes.api.web_urls")),
    path("tournaments/", include("dotsboxes.tournaments.urls")),
    path("studies/", include("dotsboxes.studies.urls")),
    path("admin/", admin.site.urls),
]

handler500 = "dotsboxes.views.server_error"

from django.urls import path

from dotsboxes.views import coming

app_name = "reports"
urlpatterns = [
    path(
        "new/",
        coming,
        {"title": "Report a problem", "blurb": "Tell us what went wrong in a game."},
        name="new",
    ),
]

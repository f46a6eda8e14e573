from django.urls import path

from dotsboxes.views import coming

app_name = "games"
urlpatterns = [
    path(
        "",
        coming,
        {"title": "Play", "blurb": "Play the computer or a friend on this device."},
        name="new",
    ),
]

from django.urls import path

from dotsboxes.views import coming

app_name = "rooms"
urlpatterns = [
    path(
        "",
        coming,
        {"title": "Online rooms", "blurb": "Play people online, or watch their games live."},
        name="lobby",
    ),
]

from django.urls import path

from dotsboxes.views import coming

app_name = "guide"
urlpatterns = [
    path(
        "",
        coming,
        {"title": "Learn", "blurb": "A strategy guide, position studies and practice."},
        name="index",
    ),
    path(
        "rules/",
        coming,
        {"title": "Rules", "blurb": "The exact rules of Dots and Boxes."},
        name="rules",
    ),
    path(
        "from-game/<str:public_id>/",
        coming,
        {"title": "Learn from this game", "blurb": "Retry the moves that lost boxes."},
        name="from_game",
    ),
]

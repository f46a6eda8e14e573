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
]

from django.urls import path

from dotsboxes.views import coming

app_name = "accounts"
urlpatterns = [
    path(
        "login/",
        coming,
        {"title": "Sign in", "blurb": "Accounts keep your games and your rating."},
        name="login",
    ),
    path(
        "signup/",
        coming,
        {"title": "Create an account", "blurb": "Accounts keep your games and your rating."},
        name="signup",
    ),
]

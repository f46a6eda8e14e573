from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .forms import SigninForm

app_name = "accounts"
urlpatterns = [
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="accounts/login.html",
            authentication_form=SigninForm,
            redirect_authenticated_user=True,
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("ratings/", views.ratings, name="ratings"),
    # Last: any other single path segment is a player's name.
    path("<str:username>/", views.profile, name="profile"),
]

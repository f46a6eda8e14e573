from django.contrib.auth import views as auth_views
from django.urls import path

from . import settings_views, views
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
    path("settings/", settings_views.settings_page, name="settings"),
    path("settings/password", settings_views.password_change, name="password_change"),
    path("settings/email", settings_views.email_change, name="email_change"),
    path("settings/email/resend", settings_views.email_resend, name="email_resend"),
    path("email/confirm/<str:token>/", settings_views.email_confirm, name="email_confirm"),
    path("password/reset/", settings_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_sent.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        settings_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    # Last: any other single path segment is a player's name.
    path("<str:username>/", views.profile, name="profile"),
]

from django.urls import path

from . import views

app_name = "notifications"
urlpatterns = [
    path("", views.notifications, name="list"),
    path("read", views.mark_read, name="read"),
    path("header", views.header, name="header"),
    path("vacation", views.vacation_choice, name="vacation"),
]

from django.urls import path

from . import views

app_name = "moderation"
urlpatterns = [
    path("blocked/", views.blocked, name="blocked"),
    path("block/<str:username>", views.block, name="block"),
    path("unblock/<str:username>", views.unblock, name="unblock"),
]

from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("create", views.create, name="create"),
    path("<int:tournament_id>/", views.detail, name="detail"),
    path("<int:tournament_id>/join", views.join, name="join"),
    path("<int:tournament_id>/leave", views.leave, name="leave"),
    path("<int:tournament_id>/start", views.start, name="start"),
    path("<int:tournament_id>/feature", views.feature, name="feature"),
]

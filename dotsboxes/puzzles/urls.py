from django.urls import path

from . import views

app_name = "puzzles"
urlpatterns = [
    path("", views.index, name="index"),
    path("next/", views.next_one, name="next"),
    path("history/", views.history, name="history"),
    path("streak/", views.streak, name="streak"),
    path("<int:pk>/", views.puzzle, name="puzzle"),
]

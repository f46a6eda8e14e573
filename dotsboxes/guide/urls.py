from django.urls import path

from . import fromgame, views

app_name = "guide"
urlpatterns = [
    path("", views.index, name="index"),
    path("rules/", views.rules, name="rules"),
    path("strategy/", views.strategy, name="strategy"),
    path("studies/", views.studies, name="studies"),
    path("studies/as-text", views.studies_text, name="studies_text"),
    path("studies/<slug:slug>/", views.study, name="study"),
    path("practice/", views.practice, name="practice"),
    path("practice/<slug:slug>/", views.exercise, name="exercise"),
    path("from-game/<str:public_id>/", fromgame.from_game, name="from_game"),
    path("from-game/<str:public_id>/<int:ply>/", fromgame.retry, name="from_game_retry"),
]

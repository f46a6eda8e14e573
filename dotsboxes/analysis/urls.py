from django.urls import path

from . import views

app_name = "analysis"
urlpatterns = [
    path("", views.analysis_board, name="board"),
    path("game/<str:public_id>/", views.game, name="game"),
    path("game/<str:public_id>/request", views.request_analysis, name="request"),
]

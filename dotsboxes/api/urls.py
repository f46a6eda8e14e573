from django.urls import path

from . import views

app_name = "api"
urlpatterns = [
    path("account", views.account, name="account"),
    path("stream/event", views.event_stream, name="event_stream"),
    path("challenge/<int:challenge_id>/accept", views.challenge_accept, name="challenge_accept"),
    path("challenge/<int:challenge_id>/decline", views.challenge_decline, name="challenge_decline"),
    path("challenge/<str:username>", views.challenge_create, name="challenge_create"),
    path("game/<slug:public_id>", views.game, name="game"),
    path("game/<slug:public_id>/stream", views.game_stream, name="game_stream"),
    path("game/<slug:public_id>/move", views.move, name="move"),
    path("game/<slug:public_id>/resign", views.resign, name="resign"),
    path("game/<slug:public_id>/abort", views.abort, name="abort"),
    path(
        "game/<slug:public_id>/draw/<str:what>",
        views.draw,
        name="draw",
    ),
]

from django.urls import path

from . import views

app_name = "rooms"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new", views.create, name="create"),
    path("<slug:public_id>/", views.room, name="room"),
    path("<slug:public_id>/state", views.state, name="state"),
    path("<slug:public_id>/join", views.join, name="join"),
    path("<slug:public_id>/move", views.move, name="move"),
    path("<slug:public_id>/resign", views.resign, name="resign"),
    path("<slug:public_id>/abort", views.abort, name="abort"),
    path("<slug:public_id>/offer/<str:kind>", views.offer, name="offer"),
    path("<slug:public_id>/answer/<str:kind>", views.answer, name="answer"),
    path("<slug:public_id>/swap", views.swap, name="swap"),
    path("<slug:public_id>/chat", views.chat, name="chat"),
]

from django.urls import path

from . import chat, fairplay, views

app_name = "reports"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("new/", views.new, name="new"),
    path("sent/", views.thanks, name="thanks"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/resolve/", views.resolve, name="resolve"),
    path("<int:pk>/reopen/", views.reopen, name="reopen"),
    path("chat/line/<int:message_id>/", chat.new, name="chat"),
    path("chat/<int:pk>/", chat.detail, name="chat_detail"),
    path("chat/<int:pk>/resolve/", chat.resolve, name="chat_resolve"),
    path("fairplay/", fairplay.flagged, name="fairplay"),
    path("fairplay/<str:username>/", fairplay.player, name="fairplay_player"),
    path("fairplay/<str:username>/decide", fairplay.decide, name="fairplay_decide"),
    path("mute/<str:username>", chat.mute, name="mute"),
    path("unmute/<str:username>", chat.unmute, name="unmute"),
]

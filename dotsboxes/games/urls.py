from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("", views.new, name="new"),
    path("mine/", views.mine, name="mine"),
    path("import/", views.import_record, name="import"),
    path("<str:public_id>/", views.game, name="game"),
    path("<str:public_id>/wait", views.wait, name="wait"),
    path("<str:public_id>/move", views.move, name="move"),
    path("<str:public_id>/hint", views.hint, name="hint"),
    path("<str:public_id>/undo", views.undo, name="undo"),
    path("<str:public_id>/resign", views.resign, name="resign"),
    path("<str:public_id>/rematch", views.rematch, name="rematch"),
    path("<str:public_id>/replay/", views.replay, name="replay"),
    path("<str:public_id>/record.txt", views.record, name="record"),
]

from django.urls import path

from . import views

app_name = "studies"

urlpatterns = [
    path("", views.index, name="index"),
    path("new", views.new, name="new"),
    path("<str:slug>/", views.study, name="study"),
    path("<str:slug>/edit", views.edit, name="edit"),
    path("<str:slug>/export.txt", views.export, name="export"),
    path("<str:slug>/copy", views.copy, name="copy"),
    path("<str:slug>/staff", views.staff, name="staff"),
    path("<str:slug>/<int:number>/", views.chapter, name="chapter"),
    path("<str:slug>/<int:number>/answer", views.answer, name="answer"),
    path("<str:slug>/<int:number>/edit", views.chapter_edit, name="chapter_edit"),
    path("<str:slug>/<int:number>.svg", views.chapter_svg, name="chapter_svg"),
]

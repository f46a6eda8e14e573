from django.urls import path

from . import views

app_name = "privacy"
urlpatterns = [
    path("data", views.export, name="export"),
    path("close", views.close, name="close"),
]

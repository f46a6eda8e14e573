from django.urls import path

from . import views

app_name = "reports"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("new/", views.new, name="new"),
    path("sent/", views.thanks, name="thanks"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/resolve/", views.resolve, name="resolve"),
    path("<int:pk>/reopen/", views.reopen, name="reopen"),
]

"""A URL configuration whose view and error page both fail, as an error page under DEBUG did."""

from django.db import connection
from django.urls import path


def broken(request):
    with connection.cursor() as cursor:  # takes a (pooled) connection for this request
        cursor.execute("SELECT 1")
    raise RuntimeError("the view fails")


def handler500(request):
    raise RuntimeError("and so does the error page")


urlpatterns = [path("broken", broken)]

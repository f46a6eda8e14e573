"""WSGI entry point (HTTP only; the ASGI app in asgi.py also serves WebSockets)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
application = get_wsgi_application()

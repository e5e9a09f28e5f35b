"""The WSGI application gunicorn serves (`gunicorn djsite.wsgi`)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "djsite.settings")
application = get_wsgi_application()

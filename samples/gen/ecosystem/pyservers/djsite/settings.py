"""Django settings of the pyservers group's django-mcp-server site: no database, sessions in the local-memory cache
(django-mcp-server keeps its MCP sessions as Django sessions: the Mcp-Session-Id is the session key), 127.0.0.1 only,
django-mcp-server's defaults otherwise (endpoint /mcp, no authentication classes)."""

SECRET_KEY = "mcptap-pyservers-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "mcp_server",
    "djsite",                      # its mcp.py (the toolset) is autodiscovered by mcp_server's AppConfig.ready
]
MIDDLEWARE = []
ROOT_URLCONF = "djsite.urls"
WSGI_APPLICATION = "djsite.wsgi.application"
DATABASES = {}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SESSION_ENGINE = "django.contrib.sessions.backends.cache"
USE_TZ = True
DJANGO_MCP_GLOBAL_SERVER_CONFIG = {"name": "pyservers-django", "instructions": "Tools of the mcptap pyservers group."}
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "root": {"handlers": ["console"], "level": "WARNING"}}

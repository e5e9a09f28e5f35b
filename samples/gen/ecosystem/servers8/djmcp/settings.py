"""Django 5.2.19 settings for mcp-django-server 0.4.2 (its README: INSTALLED_APPS + the app's urls); servers8."""
SECRET_KEY = "servers8-not-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "mcp_server", "djmcp"]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
ROOT_URLCONF = "djmcp.urls"
DATABASES = {}
USE_TZ = True
MCP_SERVER_NAME = "servers8-django"
MCP_SERVER_VERSION = "1.0.0"

"""Django 6.1.3 settings for django-bolt 0.13.0 + bolt-mcp 0.2.3 (their READMEs' minimum: django_bolt installed); servers8."""
SECRET_KEY = "servers8-not-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "django_bolt", "boltmcp"]
ROOT_URLCONF = "boltmcp.urls"
DATABASES = {}
USE_TZ = True

"""Django's manage.py for the servers8 apps: DJANGO_SETTINGS_MODULE=djmcp.settings or boltmcp.settings."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from django.core.management import execute_from_command_line  # noqa: E402

execute_from_command_line(sys.argv)

"""The Django project of the pyservers group's django-mcp-server scenarios (settings, URLconf, WSGI app and the
MCP toolset in one package; see ../../pyservers.sh)."""

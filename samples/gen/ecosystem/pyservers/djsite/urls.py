"""django-mcp-server's URLconf at the root: its MCPServerStreamableHttpView on /mcp (GET, POST, DELETE)."""
from django.urls import include, path

urlpatterns = [path("", include("mcp_server.urls"))]

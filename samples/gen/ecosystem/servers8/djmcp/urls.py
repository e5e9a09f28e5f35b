from django.urls import include, path

urlpatterns = [path("", include("mcp_server.urls"))]

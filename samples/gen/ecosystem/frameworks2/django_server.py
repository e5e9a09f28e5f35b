"""django-stateless-mcp 0.1.11 (Django 5.2, ASGI, under uvicorn): `mcp_view(server)` on /mcp/, a Django async view
that runs one stateless, JSON-reply exchange of the Python SDK's transport per request, buffered into a Django
HttpResponse (GET and DELETE: Django's HttpResponseNotAllowed). Settings are in this file (no project).

    python django_server.py PORT

Tools (an mcp 2.3.0 MCPServer): add(a,b), echo(text), slow_count(n) (n progress notifications, 0.1 s apart; the
view answers JSON, so where do they go?), fail(why) (raises: the SDK's isError result).
"""

import asyncio
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="frameworks2-capture-only-not-secret",
    ALLOWED_HOSTS=["127.0.0.1"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=[],
    MIDDLEWARE=["django.middleware.common.CommonMiddleware"],
    DATABASES={},
    USE_TZ=True,
)
django.setup()

from django.core.asgi import get_asgi_application  # noqa: E402
from django.urls import path  # noqa: E402
from django_stateless_mcp import mcp_view  # noqa: E402
from mcp.server.mcpserver import Context, MCPServer  # noqa: E402

server = MCPServer("frameworks2-django", version="1.0.0")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@server.tool()
async def slow_count(n: int, ctx: Context) -> str:
    """Count to n, one progress notification per step."""
    for i in range(1, n + 1):
        await ctx.report_progress(i, n, f"step {i}")
        await asyncio.sleep(0.1)
    return f"counted to {n}"


@server.tool()
def fail(why: str) -> str:
    """Always fails."""
    raise ValueError(f"refused: {why}")


urlpatterns = [path("mcp/", mcp_view(server))]

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(get_asgi_application(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", lifespan="off")

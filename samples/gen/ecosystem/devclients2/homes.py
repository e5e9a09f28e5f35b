"""Write one agent CLI's configuration into a fresh HOME (the devclients2 group, samples/gen/ecosystem/devclients2.sh):
one remote MCP server named `py` at MCP-URL, the loopback stand-in model (../devclients/mock_model.py) at MODEL-URL,
and the documented switches against non-essential traffic. Nothing of this machine's own configuration is read: the
script runs every CLI with HOME (and the XDG folders) pointing here, seen by the client as /home/dev.

    python3 homes.py CLIENT HOME MCP-URL TRANSPORT MODEL-URL

CLIENT: fastagent, cline, grok, llm. TRANSPORT: http (Streamable HTTP) or sse (HTTP+SSE).
"""

import json
import os
import sys


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def js(obj):
    return json.dumps(obj, indent=2) + "\n"


def main():
    client, home, mcp, transport, model = sys.argv[1:6]
    if client == "fastagent":
        # fast-agent's fastagent.config.yaml (found in the working directory, /home/dev): the `generic` provider
        # (OpenAI Chat Completions at base_url) for the stand-in model, one MCP server with transport http|sse,
        # OpenTelemetry off (its default; said explicitly), the event log to a file in HOME, no progress display
        write(f"{home}/fastagent.config.yaml", f'''default_model: generic.mock
generic:
  api_key: mock
  base_url: {model}/v1
otel:
  enabled: false
logger:
  type: file
  level: debug
  path: /home/dev/fastagent.jsonl
  progress_display: false
mcp:
  servers:
    py:
      transport: {transport}
      url: {mcp}
''')
    elif client == "cline":
        # exactly what `cline auth -p openai -k mock -m mock -b MODEL-URL/v1` and
        # `cline mcp add py MCP-URL --transport http|sse --yes` write (Cline CLI 3.0.65, checked)
        write(f"{home}/.cline/data/settings/providers.json", js({
            "version": 1, "lastUsedProvider": "openai-compatible", "modes": {},
            "providers": {"openai-compatible": {"settings": {"provider": "openai-compatible", "apiKey": "mock",
                                                             "model": "mock", "baseUrl": f"{model}/v1"},
                                                "updatedAt": "2026-12-05T23:57:53.133Z", "tokenSource": "manual"}}}))
        write(f"{home}/.cline/data/settings/cline_mcp_settings.json", js({
            "mcpServers": {"py": {"transport": {"type": "streamableHttp" if transport == "http" else "sse",
                                                "url": mcp}}}}))
    elif client == "grok":
        # Grok CLI reads its key, base URL and model from ~/.grok/user-settings.json, and its MCP servers from the
        # PROJECT settings .grok/settings.json in the working directory (what `grok mcp add py -t http -u URL` writes)
        write(f"{home}/.grok/user-settings.json", js({"apiKey": "mock", "baseURL": f"{model}/v1",
                                                      "defaultModel": "mock", "models": ["mock"]}))
        write(f"{home}/.grok/settings.json", js({"mcpServers": {"py": {"name": "py",
                                                                       "transport": {"type": transport, "url": mcp}}}}))
    elif client == "llm":
        # Simon Willison's `llm` (LLM_USER_PATH=/home/dev/.llm): the stand-in model as an extra OpenAI-compatible model
        # (extra-openai-models.yaml, tools on); the llm-tools-mcp plugin reads ~/.llm-tools-mcp/mcp.json (a Claude-style
        # mcpServers map, type http|sse)
        write(f"{home}/.llm/extra-openai-models.yaml", f'''- model_id: mock
  model_name: mock
  api_base: {model}/v1
  supports_tools: true
''')
        write(f"{home}/.llm-tools-mcp/mcp.json", js({"mcpServers": {"py": {"type": transport, "url": mcp}}}))
    else:
        sys.exit(f"unknown client {client}")


if __name__ == "__main__":
    main()

"""Write one coding-agent CLI's configuration into a fresh HOME (the devclients group,
samples/gen/ecosystem/devclients.sh): one remote MCP server named `py` at MCP-URL, the loopback stand-in model
(mock_model.py) at MODEL-URL where the CLI is configured by file, and the CLI's documented switches against
non-essential traffic (telemetry, usage statistics, update checks, sharing). Nothing of this machine's own
configuration is read: the script runs every CLI with HOME and the XDG folders pointing here.

    python3 homes.py CLIENT HOME MCP-URL TRANSPORT MODEL-URL

CLIENT: claude, gemini, codex, qwen, opencode, kilo, copilot, continue. TRANSPORT: http (Streamable HTTP) or sse
(HTTP+SSE; for opencode/kilo `remote`, which tries Streamable HTTP first and falls back to SSE by itself).
The CLIs that take the model from the environment (Claude Code, Gemini CLI, Qwen Code, Copilot CLI) get it there
(devclients.sh); the others (Codex, opencode, Kilo, Continue) from the files written here.
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
    if client == "claude":
        # what `claude mcp add --transport http|sse -s user py URL` writes, plus the first-run flags a person would
        # have after onboarding (no theme dialog in -p mode anyway)
        write(f"{home}/.claude.json", js({"hasCompletedOnboarding": True, "autoUpdates": False,
                                          "mcpServers": {"py": {"type": transport, "url": mcp}}}))
    elif client in ("gemini", "qwen"):
        # what `gemini|qwen mcp add -s user -t http|sse py URL` writes (Qwen Code: httpUrl for http, url for sse),
        # with the documented privacy/telemetry/update settings, folder trust off (an untrusted folder disables
        # every MCP server), the API-key auth the stand-in model needs, and (Qwen Code) its ToolSearch off: with it,
        # MCP tools are deferred behind a search tool the stand-in model cannot drive
        entry = {"url": mcp, "type": transport} if client == "gemini" else (
            {"httpUrl": mcp} if transport == "http" else {"url": mcp})
        settings = {"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                    "security": {"folderTrust": {"enabled": False},
                                 "auth": {"selectedType": "gemini-api-key" if client == "gemini" else "openai"}},
                    "mcpServers": {"py": entry}}
        if client == "gemini":
            settings["general"] = {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}
        else:
            settings["general"] = {"disableAutoUpdate": True}
            settings["tools"] = {"toolSearch": {"enabled": False}}
            settings["model"] = {"name": "mock"}
        write(f"{home}/.{client}/settings.json", js(settings))
    elif client == "codex":
        # what `codex mcp add py --url URL` writes, a custom model provider (Responses API) for the stand-in model,
        # and the documented analytics/feedback/update switches
        write(f"{home}/.codex/config.toml", f'''model = "mock"
model_provider = "mock"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

[model_providers.mock]
name = "mock"
base_url = "{model}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[mcp_servers.py]
url = "{mcp}"
''')
    elif client in ("opencode", "kilo"):
        # a `remote` MCP server (the only remote type: Streamable HTTP, then SSE if that fails), an
        # OpenAI-compatible provider for the stand-in model (@ai-sdk/openai-compatible is bundled), edits and shell
        # denied, no autoupdate, no sharing
        write(f"{home}/.config/{client}/{client}.json", js({
            "autoupdate": False, "share": "disabled", "model": "mock/mock",
            "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "mock",
                                  "options": {"baseURL": f"{model}/v1", "apiKey": "mock"},
                                  "models": {"mock": {"name": "mock", "tool_call": True}}}},
            "permission": {"edit": "deny", "bash": "deny"},
            "mcp": {"py": {"type": "remote", "url": mcp, "enabled": True}}}))
    elif client == "copilot":
        # what `copilot mcp add` writes to ~/.copilot/mcp-config.json
        write(f"{home}/.copilot/mcp-config.json", js({"mcpServers": {"py": {"type": transport, "url": mcp,
                                                                            "tools": ["*"]}}}))
    elif client == "continue":
        # a local config.yaml (no hub): the stand-in model as an OpenAI provider, one streamable-http MCP server
        write(f"{home}/config.yaml", f'''name: devclients
version: 0.0.1
schema: v1
models:
  - name: mock
    provider: openai
    model: mock
    apiBase: {model}/v1
    apiKey: mock
    roles: [chat]
mcpServers:
  - name: py
    type: {"streamable-http" if transport == "http" else "sse"}
    url: {mcp}
''')
    else:
        sys.exit(f"unknown client {client}")


if __name__ == "__main__":
    main()

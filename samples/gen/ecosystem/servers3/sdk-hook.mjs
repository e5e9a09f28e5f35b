// Loaded with `node --import ./sdk-hook.mjs ../servers2/ts_client.mjs ...`: resolves the TS SDK client's bare imports
// (@modelcontextprotocol/sdk/...) from servers3/node_modules (the SDK 1.32.2 pinned in servers3/package.json), so the
// servers2 group's generic client runs by path, unchanged, without a node_modules of its own.
import { register } from 'node:module';

register('./sdk-resolve.mjs', import.meta.url);

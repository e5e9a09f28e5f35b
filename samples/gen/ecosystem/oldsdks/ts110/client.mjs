// The oldsdks TS SDK client of this folder's pinned SDK (package.json): see ../common.mjs.  node client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runClient } from '../common.mjs';

const sdk = JSON.parse(await (await import('node:fs/promises')).readFile(new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url))).version;
await runClient({ Client, StreamableHTTPClientTransport }, process.argv[2], `oldsdks-ts-${sdk}-client`);

// The tools every compress-group server offers (TS SDK 1.x McpServer, zod 3 shapes): add(a,b), echo(text),
// report(rows) and slow_count(n), as ../ts_common.mjs defines them, with this folder's zod.
import { z } from 'zod';
import { registerTools as register } from '../ts_common.mjs';

export const registerTools = (server) => register(server, z);

// The oldsdks TS SDK server of this folder's pinned SDK (package.json): see ../common.mjs.  node server.mjs PORT
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import express from 'express';
import { serve } from '../common.mjs';

const sdk = JSON.parse(await (await import('node:fs/promises')).readFile(new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url))).version;
serve({ express, McpServer, StreamableHTTPServerTransport, isInitializeRequest, z }, Number(process.argv[2]), `oldsdks-ts-${sdk}-server`);

// The npm packages of the restartjs group come from other groups' node_modules, loaded by path, not installed again:
// agentsjs/node_modules (TS SDK 1.32.2, express 5.3.0, zod 4.6.7, Mastra, the OpenAI Agents SDK, Genkit),
// agents/node_modules (LangChain.js MCP adapters) and indie/node_modules (the Vercel AI SDK's @ai-sdk/mcp). Node
// resolves an ESM bare specifier from the importing file's folder and ignores NODE_PATH, so `need(GROUP, SPEC)` is
// `require(SPEC)` resolved from GROUP/package.json (the packages' CommonJS builds, every module of one client from
// the same tree).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ECO = fileURLToPath(new URL('..', import.meta.url));   // samples/gen/ecosystem/
export const need = (group, spec) => createRequire(`${ECO}${group}/package.json`)(spec);

// An A2A server made with the official JS SDK (@a2a-js/sdk 1.3.0, its Express adapter; express 5.1.0), 127.0.0.1
// only, for samples/gen/ecosystem/nonmcp2.sh. NOT MCP.
//
//   node a2a_server.mjs PORT
//
// JSON-RPC on POST / (jsonRpcHandler, v1.0 methods, and the v0.3 ones through legacyCompat), the agent card at
// /.well-known/agent-card.json (agentCardHandler, legacyCompat too), advertising a v1.0 and a v0.3 JSON-RPC interface.
// The agent is the same echo executor as ../a2a_server.py: Task (submitted), working, 3 status updates 0.2 s apart
// (15, 0.3 s apart, when the text starts with "slow"), an artifact in two chunks, completed; cancelTask publishes
// canceled and stops the loop.
import express from 'express';
import { randomUUID } from 'node:crypto';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const HOST = '127.0.0.1';
const port = Number(process.argv[2]);
const url = `http://${HOST}:${port}/`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t, taskId, contextId) => ({
  messageId: randomUUID(), contextId, taskId, role: 2, parts: [{ content: { $case: 'text', value: t } }],
  metadata: undefined, extensions: [], referenceTaskIds: [],
});

const card = {
  name: 'nonmcp2-echo-agent-js', description: 'Echoes the user\'s text, streaming a few status updates.',
  supportedInterfaces: [
    { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
  ],
  provider: undefined, version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
  securitySchemes: {}, securityRequirements: [], defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'echo', description: 'echo the text', tags: ['echo'], examples: [], inputModes: [],
    outputModes: [], securityRequirements: [] }],
  signatures: [],
};

const canceled = new Set();
const executor = {
  async execute(ctx, bus) {
    const taskId = ctx.taskId, contextId = ctx.contextId;
    const input = ctx.userMessage.parts.map((p) => p.content?.value ?? '').join('');
    const status = (state, t) => AgentEvent.statusUpdate({ taskId, contextId, metadata: undefined,
      status: { state, message: t === undefined ? undefined : text(t, taskId, contextId), timestamp: new Date().toISOString() } });
    if (!ctx.task) {
      bus.publish(AgentEvent.task({ id: taskId, contextId, status: { state: 1, message: undefined, timestamp: undefined },
        artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    }
    const [steps, pause] = input.startsWith('slow') ? [15, 300] : [3, 200];
    bus.publish(status(2, 'working on it'));
    for (let i = 1; i <= steps; i++) {
      await sleep(pause);
      if (canceled.has(taskId)) return;
      bus.publish(status(2, `step ${i}/${steps}`));
    }
    const chunk = (t, append, lastChunk) => AgentEvent.artifactUpdate({ taskId, contextId, append, lastChunk, metadata: undefined,
      artifact: { artifactId: 'echo', name: 'echo', description: '', parts: [{ content: { $case: 'text', value: t } }],
        metadata: undefined, extensions: [] } });
    bus.publish(chunk('echo: ', false, false));
    bus.publish(chunk(input, true, true));
    bus.publish(status(3));
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    canceled.add(taskId);
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: '', metadata: undefined,
      status: { state: 5, message: undefined, timestamp: new Date().toISOString() } }));
    bus.finished();
  },
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
const app = express();
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }));
app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
app.listen(port, HOST);

// mcptap ecosystem group "tasks": the TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, Client +
// StreamableHTTPClientTransport, defaults) using the SDK's experimental tasks API the way its docs show it.
// usage: node client.mjs MODE URL [args]
//   short URL              tools/list, then three task calls delay(300) through callToolStream (the SDK polls
//                          tasks/get every pollInterval, then tasks/result), then tasks/list
//   poll URL MS            one task call delay(MS) through callToolStream (tasks/get polling until it completes)
//   longpoll URL MS [TO]   tools/call with params.task (client.request + CreateTaskResultSchema), then at once
//                          tasks/result, which the server holds until the task ends (TO: that request's timeout in
//                          ms, the RequestOptions.timeout users raise above the SDK's 60000 default for long tasks)
//   cancel URL MS          a task delay(MS), tasks/get, 3 s later tasks/cancel, tasks/get, tasks/list
//   start URL MS           initialize, a task delay(MS); prints "SESSION TASK" and exits (transport closed, no DELETE)
//   fetch URL SESSION TASK a new process (new TCP connection) on that session, no initialize: tasks/get, then
//                          tasks/result (held until the task ends), then DELETE of the session
//   progress URL SECS      a plain tools/call slow(SECS) with onprogress (progress notifications on its SSE reply)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';

const [mode, url, a1, a2] = process.argv.slice(2);
const sleep = ms => new Promise(r => setTimeout(r, ms));
const log = (...x) => console.log(new Date().toISOString(), ...x);

const client = new Client({ name: 'tasks-client', version: '1.0.0' });
const opts = mode === 'fetch' ? { sessionId: a1 } : {};
const transport = new StreamableHTTPClientTransport(new URL(url), opts);
await client.connect(transport);
log('connected, session', transport.sessionId);

async function stream(name, args) {
    for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args })) {
        if (m.type === 'taskCreated') log('taskCreated', m.task.taskId, m.task.status);
        else if (m.type === 'taskStatus') log('taskStatus', m.task.taskId, m.task.status);
        else if (m.type === 'result') log('result', JSON.stringify(m.result.content));
        else if (m.type === 'error') log('error', m.error.message);
    }
}
async function create(ms) {
    const r = await client.request({ method: 'tools/call', params: { name: 'delay', arguments: { ms } } },
        CreateTaskResultSchema, { task: { ttl: 120000 } });
    log('created', r.task.taskId, r.task.status, 'pollInterval', r.task.pollInterval);
    return r.task.taskId;
}

switch (mode) {
case 'short':
    await client.listTools();
    for (let i = 0; i < 3; i++) await stream('delay', { ms: 300 });
    log('tasks/list', JSON.stringify((await client.experimental.tasks.listTasks()).tasks.map(t => [t.taskId, t.status])));
    break;
case 'poll':
    await client.listTools();
    await stream('delay', { ms: Number(a1) });
    break;
case 'longpoll': {
    await client.listTools();
    const id = await create(Number(a1));
    try {
        const r = await client.experimental.tasks.getTaskResult(id, CallToolResultSchema, a2 ? { timeout: Number(a2) } : undefined);
        log('tasks/result', JSON.stringify(r.content));
    } catch (e) {
        log('tasks/result failed:', e.message);   // the application reports it and closes
    }
    break;
}
case 'cancel': {
    await client.listTools();
    const id = await create(Number(a1));
    log('tasks/get', (await client.experimental.tasks.getTask(id)).status);
    await sleep(3000);
    log('tasks/cancel', (await client.experimental.tasks.cancelTask(id)).status);
    log('tasks/get', (await client.experimental.tasks.getTask(id)).status);
    log('tasks/list', JSON.stringify((await client.experimental.tasks.listTasks()).tasks.map(t => [t.taskId, t.status])));
    break;
}
case 'start': {
    await client.listTools();
    const id = await create(Number(a1));
    console.log(`SESSION ${transport.sessionId} TASK ${id}`);
    break;
}
case 'fetch': {
    log('tasks/get', (await client.experimental.tasks.getTask(a2)).status);
    const r = await client.experimental.tasks.getTaskResult(a2, CallToolResultSchema);
    log('tasks/result', JSON.stringify(r.content));
    await transport.terminateSession();
    break;
}
case 'progress': {
    await client.listTools();
    const r = await client.callTool({ name: 'slow', arguments: { secs: Number(a1) } }, undefined,
        { onprogress: p => log('progress', p.progress, '/', p.total) });
    log('result', JSON.stringify(r.content));
    break;
}
default:
    throw new Error(`unknown mode ${mode}`);
}
await client.close();
log('closed');

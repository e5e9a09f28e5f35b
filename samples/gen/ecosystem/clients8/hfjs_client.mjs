// clients8 driver for @huggingface/mcp-client 0.2.3's Agent (tiny-agents in JS, over the TS SDK 1.32.2 Client and
// StreamableHTTPClientTransport), the model a scripted OpenAI-compatible stub (llm_stub.py) given as endpointUrl:
// new Agent({endpointUrl, model, servers: [{type: "http", config: {url}}]}), loadTools() (initialize, tools/list),
// run(prompt) (the stub asks for tool calls, the Agent runs them over MCP, the stub answers "done"), cleanup().
//   node hfjs_client.mjs URL STUB-URL calls|restart
//     calls    one run: the stub asks for add(2,3) and slow_count(30)
//     restart  a run asking for add only, PAUSE and 6 s (the harness restarts the server), a second run
import { Agent } from '@huggingface/mcp-client';

const [url, stub, mode] = process.argv.slice(2);
const agent = new Agent({ endpointUrl: stub, model: 'stub-model', apiKey: 'none', servers: [{ type: 'http', config: { url } }] });

async function turn(prompt) {
    try {
        for await (const item of agent.run(prompt)) {
            if (item && item.role === 'tool') console.log(`${item.name} -> ${String(item.content).slice(0, 160)}`);
            else if (item?.choices?.[0]?.delta?.content) console.log('model:', item.choices[0].delta.content);
        }
    } catch (e) {
        console.log(`run failed: ${e?.name}: ${String(e?.message).slice(0, 200)}`);
    }
}

await agent.loadTools();
console.log('tools:', agent.availableTools.map((t) => t.function.name).join(', '));
if (mode === 'restart') {
    await turn('add only: 2 + 3');
    console.log('PAUSE');
    await new Promise((r) => setTimeout(r, 6000));
    await turn('add only: again');
} else {
    await turn('add 2 and 3, then count to 30');
}
await agent.cleanup();
console.log('closed');

// clients4 driver of Inngest's AgentKit MCP layer (@inngest/agent-kit createAgent with mcpServers; no model, no
// agent run): agent.initMCP() (what Agent.run does first) connects and lists the tools into the agent's tool map,
// each tool's handler is called as the agent loop would call it: add(1, 2), slow_count(3), fail("boom"). AgentKit
// keeps its MCP clients private and has no close: the program ends with process.exit(0), as a script would.
//   node agentkit_client.mjs TYPE URL        TYPE: streamable-http or sse
import { createAgent } from '@inngest/agent-kit';

const [type, url] = process.argv.slice(2);
const agent = createAgent({
    name: 'clients4-agentkit', system: 'You add numbers.',
    mcpServers: [{ name: 'c4', transport: { type, url } }],
});
await agent.initMCP();
console.log('tools:', [...agent.tools.keys()].join(', '));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['slow_count', { n: 3 }], ['fail', { reason: 'boom' }]]) {
    try {
        const r = await agent.tools.get(`c4-${name}`).handler(args, {});
        console.log(name, '->', JSON.stringify(r).slice(0, 200));
    } catch (e) {
        console.log(name, 'raised', String(e).slice(0, 200));
    }
}
console.log('exiting');
process.exit(0);

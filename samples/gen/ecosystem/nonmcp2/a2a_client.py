"""An A2A client made with the official Python SDK (a2a-sdk 1.3.0, its httpx transport), for
samples/gen/ecosystem/nonmcp2.sh. NOT MCP.

    python a2a_client.py BASE_URL [--v03] [--card-path PATH]

Fetches the agent card (BASE_URL + /.well-known/agent-card.json, the SDK's resolver), builds its clients with
ClientFactory (JSON-RPC binding; with --v03 the card's v0.3 interface is taken, so the SDK's v0.3 compat transport
speaks message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe; without, the v1.0 methods
SendMessage, SendStreamingMessage, GetTask, CancelTask, SubscribeToTask), then, 0.2 s apart:
  1. a blocking non-streaming send "hello" (the reply is the completed Task), and GetTask of it;
  2. a streaming send "hi, streaming" read to its end (status updates, artifact chunks, completed);
  3. a streaming send "slow task" whose stream the client leaves after 3 events (closes its connection), then a
     resubscribe to that task, read for 3 events, then a CancelTask from the other client while the resubscribed
     stream is open; that stream is read to its end (canceled);
  4. GetTask of the canceled task, and GetTask of an unknown id (a JSON-RPC error).
The whole run is bounded to 40 s; each HTTP request to 10 s.
"""

import argparse
import asyncio
import uuid

import httpx
from a2a.client import ClientConfig, ClientFactory
from a2a.client.card_resolver import A2ACardResolver
from a2a.helpers.proto_helpers import new_text_message
from a2a.types import CancelTaskRequest, GetTaskRequest, Role, SendMessageRequest, SubscribeToTaskRequest


def log(*a):
    print(*a, flush=True)


def what(ev) -> str:
    kind = ev.WhichOneof("payload")
    if kind == "task":
        return f"task {ev.task.id[:8]} {ev.task.status.state}"
    if kind == "status_update":
        return f"status {ev.status_update.status.state} {ev.status_update.status.message.parts[0].text if ev.status_update.status.message.parts else ''}"
    if kind == "artifact_update":
        return f"artifact {ev.artifact_update.artifact.parts[0].text!r}"
    return kind or "?"


def msg(text: str) -> SendMessageRequest:
    m = new_text_message(text, role=Role.ROLE_USER)
    m.message_id = str(uuid.uuid4())
    return SendMessageRequest(message=m)


async def main(base: str, v03: bool) -> None:
    http = httpx.AsyncClient(timeout=10)
    card = await A2ACardResolver(http, base).get_agent_card()
    log("card:", card.name, [(i.url, i.protocol_version) for i in card.supported_interfaces])
    want = "0.3" if v03 else "1.0"
    keep = [i for i in card.supported_interfaces if i.protocol_version == want]
    del card.supported_interfaces[:]
    card.supported_interfaces.extend(keep)
    plain = ClientFactory(ClientConfig(streaming=False, httpx_client=http)).create(card)
    streaming = ClientFactory(ClientConfig(streaming=True, httpx_client=http)).create(card)

    task_id = None
    async for ev in plain.send_message(msg("hello")):
        log("send:", what(ev))
        task_id = ev.task.id
    await asyncio.sleep(0.2)
    t = await plain.get_task(GetTaskRequest(id=task_id))
    log("get:", t.status.state, len(t.artifacts), "artifacts")
    await asyncio.sleep(0.2)

    async for ev in streaming.send_message(msg("hi, streaming")):
        log("stream:", what(ev))
    await asyncio.sleep(0.2)

    slow_id, n = None, 0
    stream = streaming.send_message(msg("slow task"))
    async for ev in stream:
        log("slow:", what(ev))
        if ev.WhichOneof("payload") == "task":
            slow_id = ev.task.id
        n += 1
        if n == 3:
            break
    await stream.aclose()
    log("left the slow stream")
    await asyncio.sleep(0.2)
    sub, n = streaming.subscribe(SubscribeToTaskRequest(id=slow_id)), 0
    async for ev in sub:
        log("resubscribed:", what(ev))
        n += 1
        if n == 3:
            c = await plain.cancel_task(CancelTaskRequest(id=slow_id))
            log("cancel:", c.status.state)
    await asyncio.sleep(0.2)
    t = await plain.get_task(GetTaskRequest(id=slow_id))
    log("get:", t.status.state)
    try:
        await plain.get_task(GetTaskRequest(id="00000000-0000-0000-0000-000000000000"))
    except Exception as e:  # the SDK raises the JSON-RPC error
        log("get unknown:", type(e).__name__, str(e)[:100])
    await http.aclose()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("base")
    p.add_argument("--v03", action="store_true")
    a = p.parse_args()
    asyncio.run(asyncio.wait_for(main(a.base, a.v03), 40))

"""An A2A (Agent2Agent) server made with the official Python SDK (a2a-sdk 1.3.0) under uvicorn, 127.0.0.1 only,
HTTP/1.1, for samples/gen/ecosystem/nonmcp2.sh. NOT MCP: this is the neighbour protocol mcptap must not take for MCP.

    python a2a_server.py PORT                 A2A JSON-RPC on POST / (v1.0 methods, and the v0.3 ones through the
                                              SDK's enable_v0_3_compat), agent card at /.well-known/agent-card.json
    python a2a_server.py PORT --with-mcp      the same A2A routes (JSON-RPC on POST /a2a) added to the app of the
                                              official Python SDK's MCP server (../pysdk_tools.py streamable_app:
                                              mcp 2.3.0, Streamable HTTP on /mcp, stateful, SSE replies without ids):
                                              one port, one process, both protocols, as agents often serve them

The agent is a trivial echo executor: every message becomes a Task (submitted), then working, then `--steps` status
updates ("step i/N", 0.2 s apart; a message whose text starts with "slow" gets 15 steps 0.3 s apart, for cancel and
resubscribe), an artifact in two chunks (the echoed text), completed. cancel() publishes the canceled state.
"""

import argparse
import asyncio
import os
import sys

import uvicorn
from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, TaskState

HOST = "127.0.0.1"


class EchoExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue) -> None:
        text = context.get_user_input()
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        up = TaskUpdater(event_queue, task.id, task.context_id)
        slow = text.startswith("slow")
        steps, pause = (15, 0.3) if slow else (3, 0.2)
        await up.start_work(new_text_message("working on it", context_id=task.context_id, task_id=task.id))
        for i in range(1, steps + 1):
            await asyncio.sleep(pause)
            await up.update_status(TaskState.TASK_STATE_WORKING,
                                   new_text_message(f"step {i}/{steps}", context_id=task.context_id, task_id=task.id))
        await up.add_artifact([new_text_part("echo: ")], artifact_id="echo", name="echo", last_chunk=False)
        await up.add_artifact([new_text_part(text)], artifact_id="echo", name="echo", append=True, last_chunk=True)
        await up.complete()

    async def cancel(self, context: RequestContext, event_queue) -> None:
        up = TaskUpdater(event_queue, context.task_id, context.context_id)
        await up.cancel(new_text_message("canceled", context_id=context.context_id, task_id=context.task_id))


def card(port: int, rpc: str) -> AgentCard:
    url = f"http://{HOST}:{port}{rpc}"
    return AgentCard(
        name="nonmcp2-echo-agent", description="Echoes the user's text, streaming a few status updates.",
        version="1.0.0",
        supported_interfaces=[AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0"),
                              AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="0.3")],
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=["text/plain"], default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="echo", description="echo the text", tags=["echo"])])


def a2a_routes(port: int, rpc: str):
    c = card(port, rpc)
    handler = DefaultRequestHandler(agent_executor=EchoExecutor(), task_store=InMemoryTaskStore(), agent_card=c)
    return create_agent_card_routes(c) + create_jsonrpc_routes(handler, rpc, enable_v0_3_compat=True)


def app_for(port: int, with_mcp: bool):
    from starlette.applications import Starlette

    if not with_mcp:
        return Starlette(routes=a2a_routes(port, "/"))
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from pysdk_tools import streamable_app  # ../pysdk_tools.py: the MCP server (add, echo, slow_count)

    app = streamable_app("nonmcp2-a2a-and-mcp")
    app.router.routes.extend(a2a_routes(port, "/a2a"))  # keeps the MCP app's lifespan (its session manager)
    return app


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", type=int)
    p.add_argument("--with-mcp", action="store_true")
    a = p.parse_args()
    uvicorn.run(app_for(a.port, a.with_mcp), host=HOST, port=a.port, log_level="warning", lifespan="on")

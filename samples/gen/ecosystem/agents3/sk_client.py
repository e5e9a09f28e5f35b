"""Semantic Kernel (PyPI `semantic-kernel[mcp]` 1.45.0, on mcp 1.30.0) as an MCP client without an LLM: a Kernel whose
only chat completion service is an offline echo service of ours (a ChatCompletionClientBase subclass that answers the
last message back: what SK's MCP sampling support hands the server's sampling/createMessage to), and the MCP plugin
MCPStreamableHttpPlugin(url) or MCPSsePlugin(url) with `sampling_consent_callback` of ours that approves (SK denies
sampling without one), added to the kernel. The plugin's own logger `semantic_kernel.connectors.mcp` is set to INFO,
so SK sends `logging/setLevel info` at connect (it does so whenever that logger has a level). SK loads tools and
prompts at connect (tools/list, prompts/list). Then, as an LLM's function calls would, kernel.invoke of the plugin's
functions: add(1,2), slow_count(3), log_steps(3), ask_llm(question) (sampling, answered by the echo service),
client_roots() (roots/list: SK sets no list_roots callback, so the SDK's ClientSession answers with its default
error), ask_user() (elicitation/create: same, SDK default), then the prompt function review(code), 0.1 s apart.

    python sk_client.py streamable-http|sse URL

Bounded: asyncio.timeout(40). SK's telemetry: SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS unset (off),
no API key, no AI connector but ours.
"""

import asyncio
import logging
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


CALLS = [("add", {"a": 1, "b": 2}), ("slow_count", {"n": 3}), ("log_steps", {"n": 3}),
         ("ask_llm", {"question": "What is 6 times 7?"}), ("client_roots", {}), ("ask_user", {})]


def echo_service():
    from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
    from semantic_kernel.contents import AuthorRole, ChatMessageContent

    class EchoChat(ChatCompletionClientBase):
        """An offline chat completion service: the answer is the last message's text."""

        async def _inner_get_chat_message_contents(self, chat_history, settings):
            return [ChatMessageContent(role=AuthorRole.ASSISTANT, content=f"echo: {chat_history.messages[-1].content}",
                                       ai_model_id=self.ai_model_id)]

        async def _inner_get_streaming_chat_message_contents(self, chat_history, settings, function_invoke_attempt=0):
            raise NotImplementedError
            yield  # noqa

    return EchoChat(service_id="default", ai_model_id="agents3-echo")


async def approve(plugin_name, params):
    log("sampling asked by", plugin_name)
    return True


async def main(transport, url):
    from semantic_kernel import Kernel
    from semantic_kernel.connectors.mcp import MCPSsePlugin, MCPStreamableHttpPlugin

    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("semantic_kernel.connectors.mcp").setLevel(logging.INFO)
    kernel = Kernel()
    kernel.add_service(echo_service())
    cls = MCPSsePlugin if transport == "sse" else MCPStreamableHttpPlugin
    async with asyncio.timeout(40):
        async with cls(name="agents3", url=url, request_timeout=20, sampling_consent_callback=approve) as plugin:
            kernel.add_plugin(plugin)
            log("functions", sorted(kernel.get_plugin("agents3").functions))
            for name, args in CALLS:
                try:
                    r = await kernel.invoke(plugin_name="agents3", function_name=name, **args)
                    log(name, args, "->", str(r)[:160])
                except Exception as e:  # noqa: BLE001 - what SK raised is the record
                    log(name, args, "raised", type(e).__name__, str(e)[:160], repr(e.__cause__)[:160])
                await asyncio.sleep(0.1)
            r = await kernel.invoke(plugin_name="agents3", function_name="review", code="print(1)")
            log("prompt review ->", str(r)[:80].replace("\n", " "))
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

"""Two trivial LangGraph graphs of plain Python functions (no LLM), served by `langgraph dev` (pyservers2.sh):
each graph is an assistant, and langgraph-api's /mcp endpoint offers each assistant as an MCP tool whose input
schema is the graph's input state."""
from typing_extensions import TypedDict  # typing.TypedDict: no input schema on Python < 3.12, no MCP tool

from langgraph.graph import END, START, StateGraph


class AddState(TypedDict, total=False):
    a: int
    b: int
    sum: int


def add_node(state: AddState) -> AddState:
    return {"sum": state["a"] + state["b"]}


add = StateGraph(AddState)
add.add_node("add", add_node)
add.add_edge(START, "add")
add.add_edge("add", END)
adder = add.compile()


class EchoState(TypedDict, total=False):
    text: str
    echoed: str


def echo_node(state: EchoState) -> EchoState:
    return {"echoed": state["text"]}


ech = StateGraph(EchoState)
ech.add_node("echo", echo_node)
ech.add_edge(START, "echo")
ech.add_edge("echo", END)
echo = ech.compile()

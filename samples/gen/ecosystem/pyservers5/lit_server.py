"""LitServe (litserve 0.2.19, ./requirements-litserve.txt) serving two LitAPI endpoints that litserve also exposes
as MCP tools (`mcp=MCP(...)`): litserve mounts its own stateless, JSON-answering Streamable HTTP app
(mcp 1.30.0 StreamableHTTPSessionManager behind litserve's `_MCPRequestHandler`) at /mcp/ of its FastAPI app, and a
tools/call runs the endpoint's handler, i.e. the request goes through litserve's inference worker process.
Tools: add(a, b) -> {"sum": a+b}; divide(a, b) (b == 0 raises in predict: litserve answers its HTTP 500 path).
One API server process, one worker, no client.py written.

    python lit_server.py PORT
"""

import sys

import litserve as ls
from litserve.mcp import MCP
from pydantic import BaseModel


class Pair(BaseModel):
    a: int
    b: int


class AddAPI(ls.LitAPI):
    def setup(self, device):
        pass

    def decode_request(self, request: Pair):
        return request

    def predict(self, x):
        return x.a + x.b

    def encode_response(self, output):
        return {"sum": output}


class DivideAPI(ls.LitAPI):
    def setup(self, device):
        pass

    def decode_request(self, request: Pair):
        return request

    def predict(self, x):
        return x.a / x.b

    def encode_response(self, output):
        return {"quotient": output}


if __name__ == "__main__":
    port = int(sys.argv[1])
    apis = [
        AddAPI(api_path="/add", mcp=MCP(name="add", description="Add two integers.")),
        DivideAPI(api_path="/divide", mcp=MCP(name="divide", description="Divide a by b.")),
    ]
    server = ls.LitServer(apis, accelerator="cpu", workers_per_device=1)
    server.run(host="127.0.0.1", port=port, num_api_servers=1, generate_client_file=False)

"""fastapi-jsonrpc server, the README's example1 (an Entrypoint at /api/v1/jsonrpc, `echo` with a declared error
MyError 5000) plus `ping` (a health check; our choice, the README has none) and `divide` (a pydantic-validated method:
wrong params give -32602).   python fastapi_jsonrpc_server.py PORT
"""

import sys

import fastapi_jsonrpc as jsonrpc
import uvicorn
from fastapi import Body
from pydantic import BaseModel

app = jsonrpc.API()
api_v1 = jsonrpc.Entrypoint("/api/v1/jsonrpc")


class MyError(jsonrpc.BaseError):
    CODE = 5000
    MESSAGE = "My error"

    class DataModel(BaseModel):
        details: str


@api_v1.method(errors=[MyError])
def echo(data: str = Body(..., examples=["123"])) -> str:
    if data == "error":
        raise MyError(data={"details": "error"})
    return data


@api_v1.method()
def ping() -> str:
    return "pong"


@api_v1.method()
def divide(a: int = Body(...), b: int = Body(...)) -> float:
    return a / b


app.bind_entrypoint(api_v1)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), access_log=False)

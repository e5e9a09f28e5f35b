"""Run samples/gen/py/describe.py on captures that also hold OAuth traffic.

describe.py's rpc_summary() assumes `error` is a JSON-RPC error object; OAuth endpoints on the harness's mock
servers answer {"error": "invalid_client", ...} (a string). This wrapper reports those bodies as `oauth-error(...)`
and otherwise leaves describe.py as it is.  Usage: python describe_wrap.py FILE.pcap
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("describe", os.path.join(HERE, "..", "..", "py", "describe.py"))
describe = importlib.util.module_from_spec(spec)
spec.loader.exec_module(describe)
_orig = describe.rpc_summary


def rpc_summary(obj) -> str:
    if isinstance(obj, dict) and "error" in obj and not isinstance(obj["error"], dict):
        return f"oauth-error({obj['error']})"
    return _orig(obj)


describe.rpc_summary = rpc_summary
for p in sys.argv[1:]:
    describe.describe(p)
    print()

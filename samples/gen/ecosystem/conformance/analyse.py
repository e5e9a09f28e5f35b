"""Exchange listing with the headers the conformance probes play with (used to judge labels-conformance.tsv).

    python analyse.py FILE.pcap

One line per HTTP exchange, from samples/gen/py/describe.py's own reassembly (analyse()), with Host, Origin,
Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method / Mcp-Name, Last-Event-ID, the JSON-RPC method#id (and the
_meta protocol version), the status, content type, response session id, SSE event ids and messages, and how
the body ended. Then the findings that matter for the rules: non-2xx replies, Mcp-Method/Mcp-Name vs body,
duplicate SSE ids per session, POST streams that ended before their response.
"""
import importlib.util
import json
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("describe", os.path.join(HERE, "..", "..", "py", "describe.py"))
d = importlib.util.module_from_spec(spec)
spec.loader.exec_module(d)


def msgs(body):
    try:
        o = json.loads(body)
    except ValueError:
        return []
    return o if isinstance(o, list) else [o]


def summ(o):
    if not isinstance(o, dict):
        return "?"
    if "method" in o:
        s = o["method"] + (f"#{o['id']}" if "id" in o else "")
        meta = (o.get("params") or {}).get("_meta") or {}
        pv = meta.get("io.modelcontextprotocol/protocolVersion")
        if pv:
            s += f"[_meta {pv}]"
        if o["method"] == "initialize":
            s += f"[asks {(o.get('params') or {}).get('protocolVersion')}]"
        return s
    if "result" in o:
        r = o["result"]
        s = f"result#{o.get('id')}"
        if isinstance(r, dict) and "protocolVersion" in r:
            s += f"[pv {r['protocolVersion']}]"
        return s
    if "error" in o:
        e = o["error"]
        return f"error#{o.get('id')}({e.get('code') if isinstance(e, dict) else e})"
    return "?"


def main(path):
    conns, ex = d.analyse(path)
    rows = []
    for frame, st, rq, rs in ex:
        h = rq["h"]
        meth, uri = rq["start"].split()[:2]
        body = [summ(o) for o in msgs(rq["body"])] if rq["body"] else []
        line = f"{frame:>5} c{st:<3} {meth} {uri} host={h.get('host')}"
        for k in ("origin", "mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name", "last-event-id",
                  "authorization"):
            if k in h:
                v = h[k] if k != "authorization" else h[k][:14] + "…"
                line += f" {k}={v}"
        line += f" body={','.join(body) or '-'}"
        r = {"frame": frame, "st": st, "meth": meth, "uri": uri, "h": h, "body": body, "rq": rq, "rs": rs}
        if rs is None:
            line += "  => (no response)"
        else:
            status = int(rs["start"].split()[1])
            r["status"] = status
            ct = rs["h"].get("content-type", "(none)")
            line += f"  => {rs['frame']} {status} {ct} sid={rs['h'].get('mcp-session-id', '-')}"
            if "www-authenticate" in rs["h"]:
                line += f" www-auth={rs['h']['www-authenticate'][:40]}"
            if "location" in rs["h"]:
                line += f" location={rs['h']['location'][:50]}"
            if "text/event-stream" in ct:
                evs = d.sse_events(rs["body"])
                r["events"] = evs
                line += " ev=[" + "; ".join(
                    f"id={e['id'] or '-'}" + (" " + (",".join(summ(o) for o in msgs("\n".join(e["data"]))) or "(empty)") if e["data"] else "")
                    + (f" retry={e['retry']}" if e.get("retry") else "") for e in evs) + "]"
            else:
                line += " body=" + (",".join(summ(o) for o in msgs(rs["body"])) or repr(rs["body"][:70]))
            line += f" end={rs['end_frame']} ({rs['note']})"
        rows.append(r)
        print(line)
    print()
    for st, c in sorted(conns.items()):
        print(f"conn {st}: {c['client'][0]}:{c['client'][1]} -> {c['server'][0]}:{c['server'][1]} "
              f"first {c['first']}; {', '.join(c['ends']) or 'open'}")
    return rows


def first_rpc(rq_body):
    try:
        o = json.loads(rq_body)
    except ValueError:
        return None
    return o if isinstance(o, dict) else None


def findings(rows):
    print("\n## findings")
    negotiated = {}      # sid -> version the initialize result answered
    for r in rows:
        rs = r["rs"]
        if rs is None:
            continue
        sid = rs["h"].get("mcp-session-id")
        for e in r.get("events", []) or []:
            for o in msgs("\n".join(e["data"])):
                if isinstance(o, dict) and isinstance(o.get("result"), dict) and "protocolVersion" in o["result"] and sid:
                    negotiated[sid] = o["result"]["protocolVersion"]
        for o in msgs(rs["body"]) if "json" in rs["h"].get("content-type", "") else []:
            if isinstance(o, dict) and isinstance(o.get("result"), dict) and "protocolVersion" in o["result"] and sid:
                negotiated[sid] = o["result"]["protocolVersion"]
    seen_ids = defaultdict(list)     # (server port, sid) -> [(id, frame)]
    for r in rows:
        rs, h = r["rs"], r["h"]
        o = first_rpc(r["rq"]["body"]) if r["rq"]["body"] else None
        tag = f"{r['frame']} c{r['st']} {r['meth']} {r['uri']} {','.join(r['body']) or '-'}"
        # headers vs body
        if "mcp-method" in h or "mcp-name" in h:
            bm = o.get("method") if o else None
            bn = None
            if o and isinstance(o.get("params"), dict):
                bn = o["params"].get("name") or o["params"].get("uri")
            if h.get("mcp-method") != bm or ("mcp-name" in h and h["mcp-name"] != bn):
                print(f"HDR-MISMATCH {tag}: mcp-method={h.get('mcp-method')} mcp-name={h.get('mcp-name')} body method={bm} name={bn}"
                      + (f" => {r.get('status')}" if rs else ""))
        if o and isinstance(o.get("params"), dict) and "method" in o and \
                (o["params"].get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion") == "2026-07-28":
            need = ["mcp-method", "mcp-protocol-version"]
            if o["method"] in ("tools/call", "resources/read", "prompts/get"):
                need.append("mcp-name")
            miss = [k for k in need if k not in h]
            if miss:
                print(f"HDR-MISSING {tag}: {','.join(miss)}" + (f" => {r.get('status')}" if rs else ""))
        sidq = h.get("mcp-session-id")
        pvh = h.get("mcp-protocol-version")
        if sidq and pvh and sidq in negotiated and pvh != negotiated[sidq]:
            print(f"PV-MISMATCH {tag}: header {pvh} negotiated {negotiated[sidq]}")
        if o and isinstance(o.get("params"), dict):
            mpv = (o["params"].get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion")
            if mpv and pvh and mpv != pvh:
                print(f"PV-META-MISMATCH {tag}: header {pvh} _meta {mpv}")
        if o and o.get("method") != "initialize" and not sidq and rs and rs["h"].get("mcp-session-id"):
            print(f"SID-MINTED-OUTSIDE-INIT {tag}: => sid {rs['h']['mcp-session-id']}")
        if h.get("origin") or (h.get("host") and not h["host"].startswith(("127.0.0.1", "localhost"))):
            print(f"FORGED? {tag}: host={h.get('host')} origin={h.get('origin')} => {r.get('status')}")
        if rs is None:
            print(f"NO-RESPONSE {tag}")
            continue
        st = r["status"]
        ct = rs["h"].get("content-type", "(none)")
        if st >= 300:
            b = ",".join(summ(x) for x in msgs(rs["body"])) or repr(rs["body"][:60])
            print(f"STATUS {st} {tag} sid={sidq or '-'}: {ct} body={b}")
        if r["meth"] == "GET" and r["uri"].split("?")[0].endswith("mcp") and st != 405 and "text/event-stream" not in ct:
            print(f"GET-NOT-SSE {tag}: {st} {ct}")
        evs = r.get("events")
        if evs is not None:
            key = (r["uri"], rs["h"].get("mcp-session-id") or sidq or "-")
            for e in evs:
                if e["id"]:
                    seen_ids[key].append((e["id"], rs["frame"]))
            if r["meth"] == "POST" and o and "id" in o and "method" in o:
                got = any(isinstance(x, dict) and x.get("id") == o["id"] and ("result" in x or "error" in x)
                          for e in evs for x in msgs("\n".join(e["data"])))
                if not got:
                    anyid = any(e["id"] for e in evs)
                    print(f"POST-SSE-NO-RESPONSE {tag}: ids={'yes' if anyid else 'NO'} end={rs['end_frame']} ({rs['note']})")
    for key, ids in seen_ids.items():
        cnt = defaultdict(list)
        for i, f in ids:
            cnt[i].append(f)
        for i, fs in cnt.items():
            if len(fs) > 1 and key[1] != "-":
                print(f"SSE-ID-REPEAT session={key[1]} id={i} frames={fs}")
    print("negotiated:", sorted(set(negotiated.values())), "sessions:", len(negotiated))


if __name__ == "__main__":
    for p in sys.argv[1:]:
        findings(main(p))

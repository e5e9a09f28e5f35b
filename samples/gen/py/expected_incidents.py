"""Write samples/gen/expected-incidents.tsv: what a correct analyzer must report for each incident capture.

    python expected_incidents.py > ../expected-incidents.tsv

Columns: sample, rule_id, must (`fire` or `silent`); one line per asserted (sample, rule) pair, after a header
line. For every capture below, each rule id of INCIDENTS.md (incidents and coverage notices) is asserted:
`fire` for the rules listed in `fire`, `silent` for all others except the ones listed in `open`. `open` rules
are left unasserted because INCIDENTS.md does not settle them for that capture (the reason is given).
The reasoning per capture, with frame numbers, is in ../INCIDENT-SAMPLES.md.
"""

from __future__ import annotations

RULES = [
    "MCP-SSE-DOWNGRADE", "MCP-SSE-SHIFT", "MCP-STREAM-LOST", "MCP-REQUEST-STALLED", "MCP-EVENT-ID-REUSE",
    "MCP-EVENT-ID-REGRESSION", "MCP-RESUME-REPLAY", "MCP-RESUME-UNKNOWN-CURSOR", "MCP-RESUME-MISSING-CURSOR",
    "MCP-DUPLICATE-RESPONSE", "MCP-SESSION-STATUS", "MCP-NO-REINITIALIZE", "MCP-SESSION-ROTATION",
    "MCP-LEGACY-FALLBACK", "MCP-FALLBACK-UNJUSTIFIED", "MCP-LEGACY-POST-ACCEPTED", "MCP-GET-MISBEHAVIOR",
    "MCP-BARE-ERROR", "MCP-5XX-CASCADE", "MCP-VERSION-DOWNGRADE", "MCP-VERSION-HEADER-MISMATCH",
    "MCP-STATELESS-SESSION", "MCP-SSE-BUFFERED", "MCP-SSE-IDLE",
    "CAPTURE-TLS-UNDECRYPTED", "CAPTURE-HTTP2-UNANALYSED", "CAPTURE-GAPS",
]

# sample -> (rules that must fire, rules left unasserted: {rule: why})
SPEC: dict[str, tuple[list[str], dict[str, str]]] = {
    "inc-stream-lost.pcap": (["MCP-STREAM-LOST"], {}),
    "ok-stream-polling.pcap": ([], {}),
    "inc-request-stalled.pcap": (["MCP-REQUEST-STALLED"], {}),
    "inc-event-id-reuse.pcap": (["MCP-EVENT-ID-REUSE"], {}),
    "inc-event-id-regression.pcap": (["MCP-EVENT-ID-REGRESSION"], {}),
    "inc-resume-replay.pcap": (["MCP-RESUME-REPLAY"], {
        "MCP-EVENT-ID-REUSE": "the replayed events carry ids already delivered (8, 9): a repeat by the letter",
        "MCP-EVENT-ID-REGRESSION": "ids go 7,8,9 on the POST stream, then 8,9,10.. on the resume GET: backwards "
                                   "only if the resumed stream counts as the same stream",
    }),
    "ok-resume.pcap": ([], {}),
    "inc-resume-unknown-cursor.pcap": (["MCP-RESUME-UNKNOWN-CURSOR"], {
        "MCP-STREAM-LOST": "the resume GET's empty stream ends at once; the request it resumes (tools/call #4) "
                           "never appeared on the wire, so whether a request is pending on it is not visible",
    }),
    "inc-resume-missing-cursor.pcap": (["MCP-RESUME-MISSING-CURSOR"], {}),
    "inc-duplicate-response.pcap": (["MCP-DUPLICATE-RESPONSE"], {}),
    "inc-session-status.pcap": (["MCP-SESSION-STATUS", "MCP-BARE-ERROR"], {}),
    "inc-session-status-401.pcap": (["MCP-SESSION-STATUS", "MCP-BARE-ERROR"], {}),
    "inc-session-status-503.pcap": (["MCP-SESSION-STATUS"], {}),
    "ok-session-404.pcap": ([], {}),
    "inc-no-reinitialize.pcap": (["MCP-NO-REINITIALIZE"], {}),
    "inc-session-rotation.pcap": (["MCP-SESSION-ROTATION"], {}),
    "inc-legacy-fallback.pcap": (["MCP-LEGACY-FALLBACK"], {
        "MCP-BARE-ERROR": "the 405 text/plain comes from a legacy HTTP+SSE server's /sse URL, which is exactly "
                          "what the fallback expects; whether /sse counts as 'an MCP endpoint' is not settled",
    }),
    "inc-legacy-fallback-404.pcap": (["MCP-LEGACY-FALLBACK"], {
        "MCP-BARE-ERROR": "as inc-legacy-fallback (404 text/html from the legacy server's /sse URL)",
        "MCP-LEGACY-POST-ACCEPTED": "the refusal is a 404 that carries an HTML page: 'an HTML page instead of "
                                    "4xx' does not say whether a 4xx HTML page counts",
    }),
    "inc-fallback-unjustified.pcap": (["MCP-FALLBACK-UNJUSTIFIED"], {
        "MCP-LEGACY-FALLBACK": "the trigger is a 500, not a 4xx; whether the unjustified variant is reported "
                               "instead of or beside MCP-LEGACY-FALLBACK is not settled",
    }),
    "inc-legacy-post-accepted.pcap": (["MCP-LEGACY-POST-ACCEPTED"], {
        "MCP-LEGACY-FALLBACK": "the client did fall back, but after a 200 HTML reply, not a 4xx",
        "MCP-FALLBACK-UNJUSTIFIED": "a fallback triggered by a 200 HTML reply: not in the list of triggers",
    }),
    "inc-endpoint-in-session.pcap": (["MCP-LEGACY-POST-ACCEPTED"], {}),
    "inc-get-misbehavior.pcap": (["MCP-GET-MISBEHAVIOR", "MCP-BARE-ERROR"], {}),
    "inc-get-misbehavior-json.pcap": (["MCP-GET-MISBEHAVIOR"], {}),
    "ok-get-405.pcap": ([], {}),
    "inc-bare-error.pcap": (["MCP-BARE-ERROR"], {}),
    "inc-5xx-cascade.pcap": (["MCP-5XX-CASCADE"], {}),
    "inc-version-downgrade.pcap": (["MCP-VERSION-DOWNGRADE"], {}),
    "inc-version-header-mismatch.pcap": (["MCP-VERSION-HEADER-MISMATCH"], {}),
    "inc-method-header-mismatch.pcap": (["MCP-VERSION-HEADER-MISMATCH"], {}),
    "inc-stateless-session.pcap": (["MCP-STATELESS-SESSION"], {
        "MCP-SESSION-ROTATION": "the responses carry a minted id that the (stateless) requests never echo",
    }),
    "ok-stateless.pcap": ([], {}),
    "inc-sse-buffered.pcap": (["MCP-SSE-BUFFERED"], {}),
    "inc-sse-idle.pcap": (["MCP-SSE-IDLE"], {}),
    "ok-sse-keepalive.pcap": ([], {}),
    "ok-uuid-ids.pcap": (["MCP-SSE-SHIFT"], {}),
    "inc-capture-gaps.pcap": (["CAPTURE-GAPS"], {
        r: "the HTTP stream is broken by the gap; INCIDENTS.md: incidents on such sessions may be incomplete"
        for r in RULES if r not in ("CAPTURE-GAPS", "CAPTURE-TLS-UNDECRYPTED", "CAPTURE-HTTP2-UNANALYSED")
    }),
}


def main() -> None:
    print("sample\trule_id\tmust")
    for sample, (fire, open_) in SPEC.items():
        for rule in fire:
            assert rule in RULES, rule
        for rule in RULES:
            if rule in fire:
                print(f"{sample}\t{rule}\tfire")
            elif rule not in open_:
                print(f"{sample}\t{rule}\tsilent")


if __name__ == "__main__":
    main()

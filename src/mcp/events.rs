//! SSE events of a response stream (WHATWG HTML §9.2 event stream): each event's id checked against
//! the stream's cursor and the session's ids (reuse, regression, resumption replays), its JSON-RPC
//! payload delivered as a reply, and a pending JSON -> SSE shift judged once the stream has shown
//! whether it can be resumed.

use std::borrow::Cow;

use super::record::{Answer, Asked};
use super::request::{announced_param, bare_message_path, legacy_param};
use super::response::{reply_delivered, Delivered};
use super::stream::StreamTrack;
use super::*;

impl McpTracker {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn sse<F: FnMut(Fact)>(
        &mut self,
        conn: ConnId,
        tx: Option<TxId>,
        event: &SseEvent,
        payload: Option<Result<Payload, ParseProblem>>,
        frame: u64,
        ts: Timestamp,
        out: &mut F,
    ) {
        self.stats.sse_events += 1;
        let cap = self.limits.max_event_ids_per_session;
        let Some(view) = self.conns.get_mut(&conn) else { return };
        let (client, server) = (view.client, view.server);
        let pairing_unsure = view.pairing_unsure();
        if !view.mcp && view.tx_mut(tx).is_some_and(|t| t.req.is_none()) {
            // A stream whose request the capture missed: an `endpoint` event or an MCP method in it is MCP
            // evidence all the same (INCIDENTS.md "MCP evidence"), and makes the connection's gaps coverage
            // to report (as a session header does, `response.rs`).
            let evidence = event.event.as_deref() == Some("endpoint")
                || matches!(&payload, Some(Ok(p)) if p.messages.iter().any(|m| m.method().is_some_and(super::request::is_mcp_method)));
            view.mcp |= evidence;
        }
        let Some(t) = view.tx_mut(tx) else { return };
        let get_path: Arc<str> = t.req.as_deref().map_or_else(|| "".into(), Req::endpoint);
        let req_frame = t.req.as_deref().map_or(frame, |r| r.frame);
        let capture_loss = t.capture_loss();
        let Some(resp) = t.resp.as_mut() else { return };
        let Some(st) = resp.stream.as_mut() else { return };
        st.event(ts, event.retry.is_some());

        // HTTP+SSE bootstrap (MCP 2024-11-05 transports): the first event names the POST URL.
        if event.event.as_deref() == Some("endpoint") {
            // Held past the connection's borrow: the fallback below is judged by the GET's Host.
            let get_host: Arc<str> = t.req.as_deref().map_or_else(|| "".into(), Req::host_shared);
            let in_streamable = resp.kind == RespKind::Post
                || resp.session.as_ref().is_some_and(|k| matches!(k.ident, SessionIdent::McpSessionId(_)));
            let text = event.data_text();
            let announced = text.trim();
            let param = if in_streamable {
                None
            } else {
                // Else a name of the server's own (zeromcp's `session`): its POSTs are keyed by it from now on.
                legacy_param(announced).or_else(|| {
                    let (name, value) = announced_param(announced)?;
                    let names = &mut self.servers.get_or_default(server).legacy_names;
                    if names.len() < MAX_LEGACY_NAMES && !names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                        // ALLOC: a learned parameter name, at most MAX_LEGACY_NAMES per server
                        names.push(name.into());
                    }
                    Some(value)
                })
            };
            // No parameter at all: the stream is the session, and the client's POSTs to the path join it.
            let bare = if in_streamable || param.is_some() { None } else { bare_message_path(announced) };
            if let Some(path) = bare {
                self.servers.get_or_default(server).announce_bare(client.ip(), Arc::clone(&get_host), path, req_frame);
            }
            let ident = match (param, bare) {
                (Some(p), _) => Some(SessionIdent::LegacyParam(p.into())),
                (None, Some(_)) => Some(SessionIdent::LegacyStream { client: client.ip(), stream: req_frame }),
                (None, None) => None,
            };
            // What keyed the stream before this event: nothing, or (a GET with an MCP header) a session-less
            // placeholder that joins the session named here.
            let before = resp.session.clone();
            let evicted = ident.and_then(|ident| {
                let key = SessionKey { server, ident };
                resp.session = Some(key.clone());
                // Through the table like every other session: a server announcing endless endpoints
                // must not grow it past the cap.
                let (s, evicted) = self.sessions.entry(&key, ts, self.limits.max_sessions);
                s.observe_era(Era::HttpSse2024);
                if s.endpoint.is_empty() {
                    s.endpoint = text.trim().split('?').next().unwrap_or("").to_string();
                }
                evicted
            });
            let key = resp.session.clone();
            if let (Some(s), Some(req)) = (key.as_ref().and_then(|k| self.sessions.get_mut(k)), t.req.as_deref()) {
                // The session's Host is the GET's until a POST names one: the incidents raised at this event
                // (a fallback) carry it.
                if s.host.is_empty() {
                    s.host = req.host().into();
                }
                // The GET that announced the session is its first exchange: recorded with it, as a GET with an
                // MCP header already was (it joins below). Its Content-Encoding is not kept past its head: not
                // counted.
                if let (None, Some(rec)) = (&before, self.recorder.as_mut()) {
                    let asked = Asked { ts: req.ts, frame: req.frame, http_method: &req.method_token(), path: &get_path, rpc_method: "", h2_stream: req.h2_stream };
                    let answer = Answer { ts: st.head_ts, frame: resp.frame, status: resp.status, media: resp.media.as_deref(), coding: None, bodiless: false };
                    rec.exchange(s, client, asked, answer);
                }
            }
            // Counted once the response, borrowed from the connection table, is no longer used.
            if let Some(old) = evicted {
                self.evicted(old);
            }
            // Without a session parameter the key is still `before`, and the join has nothing to do.
            if let (Some(before), Some(now)) = (&before, &key) {
                self.join_announcing_get(before, now);
            }
            // ALLOC: one path per legacy SSE URL of a server, few in practice
            self.servers.get_or_default(server).sse_paths.insert(&get_host, &get_path, ());
            let Some(key) = key else { return };
            let Some(s) = self.sessions.get(&key) else { return };
            let ctx = context(s, client, get_path.clone(), ts, vec![req_frame, frame]);
            if in_streamable {
                out(Fact {
                    ctx: ctx.clone(),
                    kind: FactKind::LegacyUrl(facts::LegacyUrl {
                        what: "endpoint-in-streamable".into(),
                        status: 200,
                        content_type: "text/event-stream".into(),
                        path: get_path.to_string().into(),
                    }),
                });
            }
            let c = self.client_mut(client.ip(), server);
            // Only a POST to the same server (its Host) is what this GET falls back from.
            let failed = c.failed_post.take_if(|f| *f.host == *get_host);
            let answered = c.post_answers.get(&get_host, &get_path).cloned();
            if let Some(f) = failed {
                let mut ctx = ctx.clone();
                ctx.frames.insert(0, f.frame);
                out(Fact {
                    ctx,
                    kind: FactKind::Fallback(facts::Fallback {
                        trigger_kind: f.kind.into(),
                        trigger_status: i64::from(f.status),
                        trigger_code: f.code,
                        trigger_body: f.body.into(),
                        client_version: f.version.into(),
                        post_path: f.path.into(),
                        get_path: get_path.to_string().into(),
                        since_ms: ts.since(f.ts).0 / 1_000_000,
                    }),
                });
                if let (Some(rec), Some(s)) = (self.recorder.as_mut(), self.sessions.get(&key)) {
                    rec.fallback(s);
                }
            }
            if let Some((status, media, pframe)) = answered {
                let mut ctx = ctx;
                ctx.frames.insert(0, pframe);
                out(Fact {
                    ctx,
                    kind: FactKind::LegacyUrl(facts::LegacyUrl { what: "post-answered".into(), status: i64::from(status), content_type: media.into(), path: get_path.to_string().into() }),
                });
            }
            return;
        }

        let Some(key) = resp.session.clone() else { return };
        let Some(s) = self.sessions.get_mut(&key) else { return };
        s.last_seen = s.last_seen.max(ts);
        if let Some(rec) = self.recorder.as_mut() {
            rec.sse_event(s, ts, frame, event.event.as_deref().unwrap_or(""), event.id.as_deref().unwrap_or(""), || record::describe_payload(payload.as_ref()));
        }
        let ctx = |s: &Session, frames: Vec<u64>| context(s, client, get_path.clone(), ts, frames);
        if let Some(id) = event.id.as_deref().filter(|id| !id.is_empty()) {
            st.ids += 1;
            let content = super::event_ids::EventIds::digest(&event.data);
            let earlier = s.issue_event_id(id, st.uid, content, cap);
            // The previous id is copied only for a fact.
            let previous = |st: &StreamTrack| -> Cow<'static, str> { st.last_id.clone().unwrap_or_default().into() };
            // A replay delivers an event the cursor had already passed: the same event again. An id issued
            // before the cursor but carried by a new event is a reused id (a server whose counter restarted
            // under a session that outlived it), not a replay.
            let replay = match (&st.resumed_from, earlier) {
                (Some((_, Some(cursor_seq))), Some(e)) => e.order <= *cursor_seq && e.content == content,
                _ => false,
            };
            let step = st.cursor.step(id, earlier.is_some());
            if step == Step::Repeated {
                out(Fact {
                    ctx: ctx(s, vec![frame]),
                    kind: FactKind::EventIdAnomaly(facts::EventIdAnomaly {
                        anomaly: "repeat".into(),
                        id: id.to_string().into(),
                        previous: previous(st),
                        same_stream: earlier.is_some_and(|e| e.stream == st.uid),
                        replay,
                        last_event_id: (st.resumed_from.as_ref().map(|(x, _)| x.clone()).unwrap_or_default()).into(),
                    }),
                });
            }
            // A resumed stream continues the one its cursor came from: its first id follows the cursor, and
            // below it the ids went back (unless the event is a replay, which its own rule reports).
            let below_cursor = st
                .resumed_from
                .as_ref()
                .map(|(c, _)| c)
                .filter(|c| st.last_id.is_none() && !replay && cursor::orders_below(id, c));
            if step == Step::WentBack || below_cursor.is_some() {
                out(Fact {
                    ctx: ctx(s, vec![frame]),
                    kind: FactKind::EventIdAnomaly(facts::EventIdAnomaly {
                        anomaly: "backwards".into(),
                        id: id.to_string().into(),
                        previous: below_cursor.map_or_else(|| previous(st), |c| c.clone().into()),
                        same_stream: true,
                        replay: false,
                        last_event_id: below_cursor.cloned().unwrap_or_default().into(),
                    }),
                });
            }
            // The stream's buffer is reused for each id.
            let last = st.last_id.get_or_insert_with(String::new);
            last.clear();
            last.push_str(id);
        }
        let Some(payload) = payload else { return };
        let Ok(payload) = payload else {
            self.stats.not_jsonrpc += 1;
            return;
        };
        self.stats.jsonrpc_messages += payload.messages.len() as u64;
        let cap_answered = self.limits.max_pending_per_session.saturating_mul(4);
        let mut answered_here = false;
        let mut mispaired = false;
        // A POST's stream answers its own `initialize`; an HTTP+SSE GET stream the one POSTed to the message URL.
        let on_get = resp.kind == RespKind::Get;
        // Taken only by a GET stream: a POST's stream must leave the pending HTTP+SSE handshake where it is.
        let (mut legacy_init, asked_at) = match if on_get { s.legacy_init.take() } else { None } {
            Some((v, f)) => (Some(v), f),
            None => (None, resp.frame),
        };
        for m in &payload.messages {
            if m.method().is_some() && !st.pending.is_empty() {
                // A server request or notification before the reply: per-request streaming.
                st.server_messages += 1;
            }
            let Some(id) = m.reply_id() else { continue };
            let owed = st.answer(id);
            // A reply to a request this stream does not owe, on a connection that lost bytes or that the
            // capture did not see begin: a message went unseen and HTTP paired this response with the
            // wrong request (RFC 9112 §9.3.2 pairs by order only). What this stream owes is not known.
            mispaired |= !owed && pairing_unsure;
            let unsure = capture_loss || resp.gap || mispaired;
            answered_here |= owed;
            st.replied |= owed;
            if let Some(i) = s.legacy_pending.iter().position(|p| p == id) {
                s.legacy_pending.swap_remove(i);
            }
            let init = if on_get { &mut legacy_init } else { &mut resp.init_requested };
            reply_delivered(s, &mut self.versions, m, Delivered { frame, stream: st.uid, head_frame: asked_at, unsure }, init, cap_answered, (client, &get_path, ts), out);
        }
        if on_get {
            s.legacy_init = legacy_init.map(|v| (v, asked_at));
        }
        resp.gap |= mispaired;
        if answered_here {
            if let Some(p) = resp.shift.take() {
                out(judge(s, *p, st, frame, false, capture_loss));
            }
        }
    }
}

/// Completes a pending shift with the stream's state at the judging moment. A per-request streaming reply,
/// or one whose ids a client can resume from, leaves the session's transport as it was: the last JSON reply
/// stays the one the next reply is compared with, so a later single-message SSE reply without a usable
/// cursor is still judged against it (INCIDENTS.md MCP-SSE-DOWNGRADE: "after at least one JSON POST
/// response", "no 4xx/5xx since the last JSON reply"; the Java SDK repeats one id on every reply). One
/// without either is the session's new transport: the replies after it are not judged again until a JSON
/// reply comes back (one incident per downgrade).
pub(super) fn judge(s: &mut Session, mut p: PendingShift, st: &StreamTrack, frame: u64, at_end: bool, capture_loss: bool) -> Fact {
    p.fact.capture_loss = capture_loss;
    p.fact.cursor = st.cursor.as_str().to_string().into();
    p.fact.events = st.events as i64;
    p.fact.ids = st.ids as i64;
    p.fact.judged_at_end = at_end;
    p.fact.server_messages = st.server_messages as i64;
    p.fact.single_message = st.server_messages == 0 && st.replied;
    let keeps_baseline = st.server_messages > 0 || (st.cursor.is_usable() && !capture_loss);
    if keeps_baseline && s.last_post.as_ref().is_some_and(|l| l.frame == p.fact.frame as u64) {
        s.last_post = Some(p.prev.clone());
        // An error between the JSON reply and this one is still between it and the next.
        s.error_since_last_post |= p.fact.error_between;
    }
    if !p.ctx.frames.contains(&frame) {
        p.ctx.frames.push(frame);
    }
    Fact { ctx: p.ctx, kind: FactKind::ResponseShift(p.fact) }
}

#[cfg(test)]
mod tests {
    //! SSE events through the harness: the headline downgrade against per-request streaming, and the
    //! event-id rules (reuse, regression, resumption).
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use crate::facts::FactKind;
    use crate::http::MessageEnd;
    use crate::mcp::harness::*;

    /// A session with `json` JSON replies to tool calls; returns its connection.
    fn json_session(h: &mut Harness, json: i64) -> crate::reassembly::ConnId {
        let c = session(h);
        for id in 1..=json {
            let tx = h.post(c, &[SID, V25], &tool_call(id));
            h.json(c, tx, &[], &tool_result(id));
        }
        c
    }

    /// An SSE reply to a tool call: optional progress first, events with `ids`, then the result.
    fn sse_reply(h: &mut Harness, c: crate::reassembly::ConnId, id: i64, progress: bool, ids: &[&str]) {
        let tx = h.post(c, &[SID, V25], &tool_call(id));
        h.sse(c, tx, &[]);
        let mut ids = ids.iter();
        if progress {
            h.event(c, tx, ids.next().copied(), &progress_note());
        }
        h.event(c, tx, ids.next().copied(), &tool_result(id));
        h.end(c, tx, MessageEnd::Complete);
    }

    fn progress_note() -> String {
        progress()
    }

    #[test]
    fn single_message_sse_without_ids_after_json_is_the_downgrade() {
        let mut h = Harness::new();
        let c = json_session(&mut h, 3);
        sse_reply(&mut h, c, 4, false, &[]);
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-SSE-DOWNGRADE"]);
    }

    #[test]
    fn a_get_refused_with_405_does_not_excuse_the_downgrade() {
        // 405 to the standalone GET is the spec's "no stream here", not a failure that explains a shift;
        // a 503 on any path may (a backend restarting behind a proxy), and so may a POST refused.
        for (method, status, excused) in [("GET", 405, false), ("GET", 503, true), ("POST", 405, true)] {
            let mut h = Harness::new();
            let c = json_session(&mut h, 3);
            let (accept, body) = if method == "GET" { ("Accept: text/event-stream", String::new()) } else { ("Accept: application/json", tool_call(9)) };
            let g = h.request(c, method, "/mcp", &[SID, V25, accept], &body);
            h.reply(c, g, status, &[], "");
            sse_reply(&mut h, c, 4, false, &[]);
            h.finish();
            assert_eq!(h.alarms().contains(&"MCP-SSE-DOWNGRADE".to_string()), !excused, "{method} {status}: {:?}", h.alarms());
        }
    }

    #[test]
    fn sse_reply_whose_events_went_in_a_gap_is_no_downgrade() {
        // The same exchange as the downgrade, but the stream's bytes were lost before its reply: that it
        // showed no id is the capture's loss, said by CAPTURE-GAPS; the shift's fact says so too.
        let mut h = Harness::new();
        let c = json_session(&mut h, 3);
        let tx = h.post(c, &[SID, V25], &tool_call(4));
        h.sse(c, tx, &[]);
        h.gap(c, 1_448);
        h.end(c, tx, MessageEnd::Gap);
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
        assert_eq!(h.fired(), vec!["CAPTURE-GAPS"]);
        assert!(matches!(&h.facts_of("response_shift")[0].kind, FactKind::ResponseShift(s) if s.capture_loss && s.judged_at_end));
    }

    #[test]
    fn reply_to_a_request_the_stream_does_not_owe_after_a_gap_is_mispairing_not_a_lost_stream() {
        // Earlier on the connection a gap took a response HTTP could not tell apart (or the capture did
        // not see the connection begin), so it paired the next one with the wrong request: the stream
        // answers id 5 while owing id 4. On a connection seen whole that is a stream that lost its reply.
        for how in ["whole", "gap", "midstream"] {
            let mut h = Harness::new();
            let c = session(&mut h);
            let c = match how {
                "midstream" => h.connect_midstream("10.0.0.1:40009"),
                "gap" => {
                    h.gap(c, 300);
                    c
                }
                _ => c,
            };
            let tx = h.post(c, &[SID, V25], &tool_call(4));
            h.sse(c, tx, &[]);
            h.event(c, tx, None, &tool_result(5));
            h.end(c, tx, MessageEnd::Complete);
            h.finish();
            assert_eq!(h.alarms().contains(&"MCP-STREAM-LOST".to_string()), how == "whole", "{how}: {:?}", h.alarms());
        }
    }

    #[test]
    fn per_request_streaming_after_json_is_a_shift_not_a_downgrade() {
        let mut h = Harness::new();
        let c = json_session(&mut h, 3);
        sse_reply(&mut h, c, 4, true, &[]);
        let tx = h.post(c, &[SID, V25], &tool_call(5));
        h.json(c, tx, &[], &tool_result(5));
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
        assert_eq!(h.fired(), vec!["MCP-SSE-SHIFT"]);
        let shift = h.facts_of("response_shift");
        assert!(matches!(&shift[0].kind, FactKind::ResponseShift(s) if s.server_messages == 1 && !s.single_message));
    }

    #[test]
    fn single_message_sse_after_per_request_streaming_is_still_the_downgrade() {
        let mut h = Harness::new();
        let c = json_session(&mut h, 2);
        sse_reply(&mut h, c, 3, true, &[]);
        sse_reply(&mut h, c, 4, false, &[]);
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-SSE-DOWNGRADE"]);
    }

    #[test]
    fn sse_with_a_usable_cursor_after_json_is_a_shift() {
        let mut h = Harness::new();
        let c = json_session(&mut h, 3);
        sse_reply(&mut h, c, 4, false, &["10"]);
        sse_reply(&mut h, c, 5, false, &["11"]);
        h.finish();
        assert_eq!(h.fired(), vec!["MCP-SSE-SHIFT"]);
    }

    #[test]
    fn an_sse_reply_after_the_json_initialize_alone_is_judged() {
        // The Ruby SDK answers `initialize` with JSON (minting the session id) and every later request with
        // one SSE event and no id (samples/ecosystem/othersdks-rb-py.pcap): the initialize carried no id,
        // the requests after it carry the one it minted, and that is no change of session id.
        let mut h = Harness::new();
        let c = json_session(&mut h, 0);
        sse_reply(&mut h, c, 1, false, &[]);
        sse_reply(&mut h, c, 2, false, &[]);
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-SSE-DOWNGRADE"]);
        let shifts = h.facts_of("response_shift");
        assert_eq!(shifts.len(), 1, "one downgrade, judged once: {shifts:?}");
        assert!(matches!(&shifts[0].kind, FactKind::ResponseShift(s) if !s.session_id_changed && s.json_before == 1));
    }

    #[test]
    fn a_later_single_message_reply_repeating_an_id_is_the_downgrade() {
        // The Java SDK writes the session id as the id of every reply's event (samples/ecosystem/javasdk-
        // streamable-py.pcap): the first SSE reply after JSON holds a usable cursor (a shift), the next
        // repeats it, and the client holds none: judged against the last JSON reply still.
        let mut h = Harness::new();
        let c = json_session(&mut h, 0);
        sse_reply(&mut h, c, 1, false, &["aaaa"]);
        sse_reply(&mut h, c, 2, false, &["aaaa"]);
        sse_reply(&mut h, c, 3, false, &["aaaa"]);
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-EVENT-ID-REUSE", "MCP-SSE-DOWNGRADE"]);
        assert!(h.fired().contains(&"MCP-SSE-SHIFT".to_string()), "{:?}", h.fired());
        let cursors: Vec<String> = h
            .facts_of("response_shift")
            .iter()
            .filter_map(|f| match &f.kind {
                FactKind::ResponseShift(s) => Some(s.cursor.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(cursors, ["unordered-unique", "regressing"], "the third reply comes after the downgrade");
    }

    #[test]
    fn an_error_before_a_resumable_reply_still_excuses_the_next_one() {
        // No 4xx/5xx "since the last JSON reply": a 503 before a reply with a usable cursor is still
        // between the JSON reply and the single-message one after it.
        for error in [false, true] {
            let mut h = Harness::new();
            let c = json_session(&mut h, 1);
            if error {
                let g = h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], "");
                h.reply(c, g, 503, &[], "");
            }
            sse_reply(&mut h, c, 4, false, &["10"]);
            sse_reply(&mut h, c, 5, false, &[]);
            h.finish();
            assert_eq!(h.alarms().contains(&"MCP-SSE-DOWNGRADE".to_string()), !error, "error {error}: {:?}", h.alarms());
        }
    }

    #[test]
    fn downgrade_needs_a_session_id() {
        // A server that mints no session id: nothing to resume, nothing to downgrade.
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let tx = h.post(c, &[], &initialize(0, "2025-11-25"));
        h.json(c, tx, &[], &initialized(0, "2025-11-25"));
        for id in 1..4 {
            let tx = h.post(c, &[V25], &tool_call(id));
            h.json(c, tx, &[], &tool_result(id));
        }
        let tx = h.post(c, &[V25], &tool_call(4));
        h.sse(c, tx, &[]);
        h.event(c, tx, None, &tool_result(4));
        h.end(c, tx, MessageEnd::Complete);
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn event_id_repeated_across_streams_is_reuse_and_backwards_is_regression() {
        let mut h = Harness::new();
        let c = json_session(&mut h, 0);
        sse_reply(&mut h, c, 1, true, &["5", "6"]);
        sse_reply(&mut h, c, 2, true, &["9", "8"]);
        assert_eq!(h.alarms(), vec!["MCP-EVENT-ID-REGRESSION"]);
        sse_reply(&mut h, c, 3, false, &["5"]);
        h.finish();
        // The single-message reply repeating id 5, after the JSON `initialize` and per-request streaming
        // only, is also the downgrade (its cursor regresses).
        assert_eq!(h.alarms(), vec!["MCP-EVENT-ID-REGRESSION", "MCP-EVENT-ID-REUSE", "MCP-SSE-DOWNGRADE"]);
    }

    /// A session whose streaming reply to call 1 carried `ids` (progress, then the result), and a GET
    /// resuming from `cursor`, its stream open.
    fn resumed(h: &mut Harness, ids: &[&str], cursor: &str) -> (crate::reassembly::ConnId, crate::http::TxId) {
        let c = json_session(h, 0);
        sse_reply(h, c, 1, true, ids);
        let last = format!("Last-Event-ID: {cursor}");
        let g = h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream", &last], "");
        h.sse(c, g, &[]);
        (c, g)
    }

    #[test]
    fn resumption_replaying_events_at_or_before_the_cursor_is_a_replay() {
        let mut h = Harness::new();
        let (c, g) = resumed(&mut h, &["1", "2"], "2");
        h.event(c, g, Some("1"), &progress());
        h.finish();
        assert!(h.alarms().contains(&"MCP-RESUME-REPLAY".to_string()), "{:?}", h.alarms());
    }

    #[test]
    fn a_replay_below_the_cursor_is_a_replay_only() {
        // The same event again under its own id: the ids go back from the cursor because the server replays,
        // which MCP-RESUME-REPLAY says; no reuse, no regression besides.
        let mut h = Harness::new();
        let (c, g) = resumed(&mut h, &["1", "2"], "2");
        h.event(c, g, Some("1"), &progress());
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-RESUME-REPLAY"]);
    }

    #[test]
    fn resumption_carrying_new_events_under_old_ids_is_reuse_and_regression_not_replay() {
        // A server restarted under a session that outlived it (its store persisted the session, its counter
        // did not: samples/ecosystem/situations3-restart-counter-*.pcap): the resumed stream goes on from
        // cursor 2 with ids 1 and 2 again, on events the client never had.
        let mut h = Harness::new();
        let (c, g) = resumed(&mut h, &["1", "2"], "2");
        h.event(c, g, Some("1"), &notify("notifications/message", r#"{"level":"info","data":"tick 9"}"#));
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-EVENT-ID-REGRESSION", "MCP-EVENT-ID-REUSE"]);
        let back: Vec<(String, String)> = h
            .facts_of("event_id")
            .iter()
            .filter_map(|f| match &f.kind {
                FactKind::EventIdAnomaly(a) if a.anomaly == "backwards" => Some((a.id.to_string(), a.previous.to_string())),
                _ => None,
            })
            .collect();
        assert_eq!(back, [("1".to_string(), "2".to_string())]);
    }

    #[test]
    fn resumption_going_on_above_its_cursor_is_no_regression() {
        let mut h = Harness::new();
        let (c, g) = resumed(&mut h, &["7", "8"], "8");
        h.event(c, g, Some("9"), &progress());
        h.event(c, g, Some("10"), &progress());
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn resumption_from_an_id_never_issued_is_an_unknown_cursor() {
        let mut h = Harness::new();
        let c = json_session(&mut h, 0);
        sse_reply(&mut h, c, 1, false, &["1"]);
        let g = h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream", "Last-Event-ID: 99"], "");
        h.sse(c, g, &[]);
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-RESUME-UNKNOWN-CURSOR"]);
    }
}

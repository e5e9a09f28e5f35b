//! The response half: a status line judged against the session (stale-session answers and their SDK
//! fingerprints, fallbacks, 5xx cascades, version checks), a JSON body's replies delivered to the
//! session, and the end of a response (body complete, stream ended and who closed it).

use std::collections::hash_map::Entry;

use super::events::judge;
use super::request::Req;
use super::session::{BodyType, LastPost, Session, SessionIdent};
use super::record::{acknowledgement, Answer, Asked};
use super::stream::StreamTrack;
use super::*;

impl McpTracker {
    pub(super) fn response<F: FnMut(Fact)>(&mut self, conn: ConnId, tx: Option<TxId>, head: &ResponseHead, frame: u64, ts: Timestamp, out: &mut F) {
        // 1xx responses are interim (RFC 9110 §15.2); the final response follows on the same transaction.
        if head.status < 200 {
            return;
        }
        let Some(view) = self.conns.get_mut(&conn) else { return };
        let (client, server) = (view.client, view.server);
        if view.tx_mut(tx).is_none() {
            view.txs.push_back(Tx::new(tx, None));
        }
        let media = head.headers.media_type();
        let resp_sid = head.headers.get("mcp-session-id").map(str::to_string);
        let server_hdr = server_signature(head);
        let x_accel_no = head.headers.get("x-accel-buffering").is_some_and(|v| v.trim().eq_ignore_ascii_case("no"));
        if let Some(p) = (head.status == 401).then(|| head.headers.get("www-authenticate")).flatten().and_then(resource_metadata_path) {
            let paths = &mut self.servers.get_or_default(server).metadata_paths;
            if paths.len() < MAX_METADATA_PATHS && !paths.contains(p) {
                // ALLOC: a metadata path, at most MAX_METADATA_PATHS per server
                paths.insert(p.to_string());
            }
        }
        let mut resp = Box::new(Resp {
            status: head.status,
            media,
            kind: RespKind::Other,
            frame,
            session: None,
            body: Body::Empty,
            text: None,
            stream: None,
            shift: None,
            init_requested: None,
            auth_challenge: head.headers.get("www-authenticate").is_some(),
            get_on_mcp: false,
            undecoded: false,
            gap: false,
        });
        // A 202 acknowledges (MCP 2025-11-25 basic/transports: "202 Accepted with no body"; the 2024-11-05
        // message URL answers every POST so, the replies going on the GET stream): it is no reply stream owing
        // the request's answer, whatever type it is labelled with. Cloudflare's Agents SDK labels its
        // `Accepted` text/event-stream.
        let accepted = head.status == 202;
        let sse = resp.media.as_deref() == Some("text/event-stream") && !accepted;
        if sse {
            self.stream_uid += 1;
            resp.stream = Some(StreamTrack::new(self.stream_uid, ts, x_accel_no, Ids::new()));
        }
        let req_sent = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)).and_then(|t| t.req.as_deref()).map(|r| (r.ts, r.method() == "GET"));
        if let (Some(st), Some((sent, get))) = (resp.stream.as_mut(), req_sent) {
            // A proxy that buffers the whole reply holds back its head too: the silence before the first
            // event counts from the request.
            st.quiet_since(sent);
            if get {
                st.idle_since(sent);
            }
        }
        let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) else { return };
        let Some(req) = t.req.as_deref_mut() else {
            // A response whose request the capture missed: nothing to key it on. Its session header is still
            // MCP evidence (INCIDENTS.md "MCP evidence"), so the connection's gaps are coverage to report: a
            // sensor that sees the server's direction only lost every request, and must not look "seen and
            // clean" (samples/ecosystem/sensor5-onedir.pcap, `tcp src port`).
            t.resp = Some(resp);
            if resp_sid.is_some() {
                if let Some(v) = self.conns.get_mut(&conn) {
                    v.mcp = true;
                }
            }
            return;
        };
        req.decode(&mut self.stats);
        resp.kind = match req.method() {
            "POST" => RespKind::Post,
            "GET" => RespKind::Get,
            _ => RespKind::Other,
        };
        let path = req.endpoint();
        let is_mcp = is_mcp_request(&self.servers, server, req) || resp_sid.is_some();
        // A GET is the transport's when it asks for the stream (INCIDENTS.md "MCP evidence": a path that carried
        // MCP makes an MCP client's GET of it MCP); a browser's GET of the same URL asks for a page.
        let get_on_mcp = resp.kind == RespKind::Get && req.asks_stream() && self.servers.get(&server).is_some_and(|s| s.mcp_paths.contains(req.host(), &path));
        if !is_mcp && !get_on_mcp {
            // Plain HTTP (or a GET that may still turn out to serve an `endpoint` event).
            if let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) {
                t.resp = Some(resp);
            }
            return;
        }
        let snapshot_ids = req.request_ids();
        let initialize = req.is_initialize();
        let declares_2026 = req.declares_2026();
        let declared = if initialize || !(200..300).contains(&head.status) { None } else { req.declared_version() };
        let req_sid = req.session_id_shared();
        let last_event_id = req.last_event_id().map(str::to_string);
        let method_name = req.first_method();
        let requested = req.requested_version();
        let req_frame = req.frame;
        let (req_ts, req_method, h2_stream) = (req.ts, req.method_token(), req.h2_stream);
        let info = req.key.take().unwrap_or_else(|| req.key_info());
        if !req.checked {
            self.request_end(conn, tx, ts, out);
        }
        let (gapped, pairing_unsure) = match self.conns.get_mut(&conn) {
            Some(v) => {
                v.mcp = true;
                (v.gapped, v.pairing_unsure())
            }
            None => (false, false),
        };
        // A response naming another session than its request, on a connection where a gap took a response
        // or whose start the capture missed: HTTP paired it with the wrong request (RFC 9112 §9.3.2 pairs by
        // order only, and a gap may take more than the one response it accounts for:
        // samples/ecosystem/sensor3-ts-b64.pcap, an undici connection shared by sessions). Not a rotation;
        // what the exchange shows belongs to another one.
        let mispaired = pairing_unsure && !initialize && matches!((&req_sid, &resp_sid), (Some(old), Some(new)) if **old != **new);
        resp.gap |= mispaired;
        // A POST to the message URL an `endpoint` event announced (its session parameter), not to the SSE URL.
        let legacy_message = info.is_legacy();
        if initialize && req_sid.is_none() && (300..400).contains(&head.status) {
            // A redirect is no answer: the client sends the initialize again to the target (FastMCP 1.x
            // redirects `/mcp` to `/mcp/`), and that exchange is the handshake. No session starts here.
            if let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) {
                t.resp = Some(resp);
            }
            return;
        }
        if initialize && req_sid.is_none() && resp_sid.is_none() && !legacy_message {
            // A server that mints no session id: this handshake starts an anonymous session of its own.
            self.client_mut(client.ip(), server).next_handshake(&info.host, &path);
        }
        // A session id on an error answer keys nothing: some servers stamp a fresh id on every 400 to a
        // request without one (the Python SDK on a session-less GET), and no session follows it.
        // Nor does one on the reply to a GET that named no session, which no handshake answers: tmcp's HTTP+SSE
        // stream carries its `endpoint` event's session parameter so, and that event keys the session. On a
        // POST to the message URL that event announced, the same id names the session its parameter keys.
        let minted_sid = resp_sid
            .as_deref()
            .filter(|_| head.status < 400)
            .filter(|_| resp.kind != RespKind::Get)
            .filter(|sid| info.legacy.as_deref() != Some(*sid));
        let key = self.session_for(client, server, &info, minted_sid, ts);
        if req_sid.is_none() && minted_sid.is_some() && !initialize {
            self.probe_keyed_by_its_answer(client, server, &info, &key, &snapshot_ids);
        }
        if initialize && req_sid.is_none() && !legacy_message && head.status >= 400 {
            // A refused handshake is over: what the client sends next on the endpoint without a session id is
            // another attempt (the HTTP+SSE GET of a fallback, which its `endpoint` event then names), not
            // part of this one.
            self.client_mut(client.ip(), server).next_handshake(&info.host, &path);
        }
        if gapped {
            if let Some(s) = self.sessions.get_mut(&key) {
                s.gap = true;
            }
        }
        if initialize {
            if let Some(sid) = &resp_sid {
                if self.minted.len() < self.limits.max_sessions {
                    // ALLOC: one minted id per session, bounded by limits::max_sessions
                    self.minted.insert(sid.clone());
                }
            }
            resp.init_requested = requested;
        } else if let Some(sid) = resp_sid.as_ref().filter(|sid| req_sid.as_deref() != Some(sid.as_str())) {
            // An id handed to a request that did not carry it, outside a handshake: a Python SDK 1.x server
            // stamps a fresh one on its 400 to a request without an id, and the Vercel AI SDK adopts it
            // (samples/ecosystem/situations5-fastmcp2-ai-sdk.pcap). The frame is the proof a rotation names.
            if !self.handed_out.contains_key(sid) && self.handed_out.len() < self.limits.max_sessions {
                // ALLOC: one entry per id handed out so, bounded by limits::max_sessions
                self.handed_out.insert(sid.clone(), frame);
            }
        }
        if let Some(st) = resp.stream.as_mut() {
            // A batch of many thousand requests answered on one stream would make each answer a long
            // search of what the stream owes: keep at most the cap.
            let cap = self.limits.max_pending_per_session;
            let mut owed = snapshot_ids.clone();
            if owed.len() > cap {
                self.stats.pending_cap_hits += owed.len().saturating_sub(cap) as u64;
                owed.truncate(cap);
            }
            st.pending = owed;
        }
        resp.session = Some(key.clone());
        let client_key = (client.ip(), server);

        // Era and session-id facts visible on the head.
        let Some(s) = self.sessions.get_mut(&key) else { return };
        s.last_seen = s.last_seen.max(ts);
        s.exchanges += 1;
        if resp.kind == RespKind::Post && req_sid.is_some() && !s.held_gets.is_empty() {
            // 404: the server no longer knows the session, and did not when it refused the GETs; an answer
            // below 400: it knows it, and the GETs' 404s were no answer to an unknown session.
            match head.status {
                404 => release_held_gets(s, true, out),
                0..400 => release_held_gets(s, false, out),
                _ => {}
            }
        }
        if initialize && (200..300).contains(&head.status) {
            // Only an accepted initialize is a handshake: one refused (401 before a token, 404/405 on a
            // legacy server's URL before a fallback) negotiated nothing, and its attempt's era stays unknown.
            s.observe_handshake();
        }
        if declares_2026 && !initialize && head.status >= 300 {
            // An accepted answer needs nothing here: `session_for` above set the request's era again. A redirect
            // accepted nothing either: mcp 1.x's 307 from `/mcp` to `/mcp/` before its 400 to the probe (eras2).
            s.observe_refused_2026();
        }
        if minted_sid.is_some() && s.era == Era::Unknown {
            s.observe_era(Era::Streamable2025);
        }
        if let Some(rec) = self.recorder.as_mut() {
            // An answer without a body (202 and 204 by their status, or an empty Content-Length) carries no
            // JSON-RPC message whatever its content type: not a JSON or SSE reply in the inventory.
            let bodiless = acknowledgement(head.status) || head.headers.get("content-length").is_some_and(|l| l.trim() == "0");
            let asked = Asked { ts: req_ts, frame: req_frame, http_method: &req_method, path: &path, rpc_method: method_name.as_str(), h2_stream };
            let answer = Answer { ts, frame, status: head.status, media: resp.media.as_deref(), coding: head.headers.get("content-encoding"), bodiless };
            rec.exchange(s, client, asked, answer);
        }
        let ctx_for = |s: &Session, frames: Vec<u64>| context(s, client, path.clone(), ts, frames);
        if declares_2026 && !initialize && resp_sid.is_some() {
            out(Fact {
                ctx: ctx_for(s, vec![frame]),
                kind: FactKind::StatelessSession(facts::StatelessSession { how: "minted".into(), handshake: s.handshake }),
            });
        }
        if let (Some(old), Some(new)) = (&req_sid, &resp_sid) {
            if **old != **new && !initialize {
                out(Fact {
                    ctx: ctx_for(s, vec![req_frame, frame]),
                    kind: FactKind::SessionChange(facts::SessionChange {
                        how: "response".into(),
                        old_id: old.to_string().into(),
                        new_id: new.clone().into(),
                        new_id_minted: self.minted.contains(new),
                        capture_loss: mispaired,
                        old_id_minted: self.minted.contains(&**old),
                        client_initialized: self.clients.get(&client_key).is_some_and(|c| c.initialized),
                    }),
                });
            }
        }
        if head.status < 300 {
            s.seen_ok = true;
        }
        if let (None, Some(v)) = (&s.declared_version, declared) {
            s.declared_version = Some(v);
        }

        resp.get_on_mcp = resp.kind == RespKind::Get && get_on_mcp;
        if resp.kind == RespKind::Get && sse && head.status < 300 && (last_event_id.is_some() || s.ids_issued > 0) {
            let known = last_event_id.as_ref().and_then(|x| s.event_ids.get(x));
            out(Fact {
                ctx: ctx_for(s, vec![req_frame, frame]),
                kind: FactKind::Resume(facts::Resume {
                    last_event_id: last_event_id.clone().unwrap_or_default().into(),
                    has_cursor: last_event_id.is_some(),
                    known: known.is_some(),
                    session_had_ids: s.ids_issued > 0,
                    reconnect: s.first_break.is_some_and(|t| t <= req_ts),
                }),
            });
            if let (Some(x), Some(st)) = (last_event_id.clone(), resp.stream.as_mut()) {
                st.resumed_from = Some((x, known.map(|k| k.order)));
            }
        }

        if head.status >= 400 {
            // 405 to a GET or DELETE is the spec's answer (no standalone stream, no client-ended sessions),
            // not a failure that could explain a change in how the POSTs are answered.
            if head.status != 405 || resp.kind == RespKind::Post {
                s.error_since_last_post = true;
            }
            if head.status >= 500 {
                let st = self.servers.get_or_default(server);
                // ALLOC: per site endpoint, RECENT_5XX times
                if let Some(q) = st.recent_5xx.get_or_insert_with(&info.host, &path, VecDeque::new) {
                    q.push_front((ts, frame));
                    q.truncate(RECENT_5XX);
                }
            }
        } else if resp.kind == RespKind::Post && !snapshot_ids.is_empty() {
            // A 202 carries no reply of any type (above): it neither is nor breaks a run of JSON or SSE replies.
            if let Some(body) = BodyType::from_media(resp.media.as_deref()).filter(|_| !accepted) {
                let shift = match &s.last_post {
                    Some(last) if last.body != body => {
                        let prev = last.clone();
                        let server_before = last.server_hdr.clone();
                        Some(PendingShift {
                            fact: facts::ResponseShift {
                                from: last.body.as_str().into(),
                                to: body.as_str().into(),
                                method: (&method_name).into(),
                                status: i64::from(head.status),
                                json_before: s.post_json as i64,
                                sse_before: s.post_sse as i64,
                                error_between: s.error_since_last_post,
                                session_id_changed: last.session_id != req_sid,
                                cursor: "".into(),
                                events: 0,
                                ids: 0,
                                judged_at_end: false,
                                server_messages: 0,
                                single_message: false,
                                server_changed: *server_before != *server_hdr,
                                server_before: server_before.into(),
                                server_now: server_hdr.to_string().into(),
                                prev_frame: last.frame as i64,
                                frame: frame as i64,
                                // A JSON reply is judged at once; an SSE reply when judged.
                                capture_loss: false,
                            },
                            ctx: ctx_for(s, vec![last.frame, frame]),
                            prev,
                        })
                    }
                    _ => None,
                };
                match body {
                    BodyType::Json => s.post_json += 1,
                    BodyType::Sse => s.post_sse += 1,
                }
                // The session id in force after this reply: the request's, or the one this reply mints (an
                // `initialize` carries none; the next request carrying the minted one is no change of id).
                let in_force = req_sid.as_deref().or(minted_sid);
                let shared = || req_sid.clone().or_else(|| minted_sid.map(Arc::from));
                // Updated in place: its strings are copied only when they change.
                match &mut s.last_post {
                    Some(last) => {
                        (last.body, last.frame) = (body, frame);
                        if last.server_hdr != *server_hdr {
                            last.server_hdr = server_hdr.into_owned();
                        }
                        if last.session_id.as_deref() != in_force {
                            last.session_id = shared();
                        }
                    }
                    None => s.last_post = Some(LastPost { body, frame, server_hdr: server_hdr.into_owned(), session_id: shared() }),
                }
                s.error_since_last_post = false;
                if let Some(p) = shift {
                    if body == BodyType::Sse {
                        // Judged when the reply arrives on the stream or the stream ends.
                        resp.shift = Some(Box::new(p));
                    } else {
                        out(Fact { ctx: p.ctx, kind: FactKind::ResponseShift(p.fact) });
                    }
                }
            }
        }
        // A POST answered on a URL known to serve the legacy `endpoint` event. The Go SDK announces its
        // message URL on the SSE URL's own path (`/sse?sessionid=...`): a POST carrying the session
        // parameter is a message, as the transport prescribes.
        if resp.kind == RespKind::Post && !legacy_message && self.servers.get(&server).is_some_and(|st| st.sse_paths.contains(&info.host, &path)) {
            if let Some(s) = self.sessions.get(&key) {
                out(Fact {
                    ctx: ctx_for(s, vec![req_frame, frame]),
                    kind: FactKind::LegacyUrl(facts::LegacyUrl {
                        what: "post-answered".into(),
                        status: i64::from(head.status),
                        content_type: resp.media.clone().unwrap_or_default(),
                        path: path.to_string().into(),
                    }),
                });
            }
        }
        // A POST answered 404 for its session id: dead from the head on. A client acts on the status line
        // (camel-ai's client closes the connection and sends its next request before the body arrives:
        // samples/ecosystem/clients5-camel-restart.pcap), and a body without framing ends only with its
        // connection (greenlight-mcp, samples/ecosystem/gateways8-gl-restart.pcap).
        if head.status == 404 && resp.kind == RespKind::Post {
            let stateless = self.sessions.get(&key).is_none_or(|s| s.era == Era::Stateless2026);
            if let (false, Some(sid)) = (stateless, req_sid.as_deref()) {
                self.note_dead(client, server, sid, ts, frame, &key, &path);
            }
        }
        if resp.kind == RespKind::Post {
            let c = self.client_mut(client_key.0, client_key.1);
            let media = resp.media.as_deref().unwrap_or_default();
            match c.post_answers.get_mut(&info.host, &path) {
                // A message POST of the legacy transport is no POST to a URL that may serve `endpoint`.
                _ if legacy_message => {}
                // The same answer as last time on this path (the usual case): nothing to copy.
                Some(a) if a.1 == media => *a = (head.status, std::mem::take(&mut a.1), frame),
                // ALLOC: the media type, and the path the first time (one entry per POST path of a client)
                _ => c.post_answers.insert(&info.host, &path, (head.status, media.to_string(), frame)),
            }
            if head.status < 400 {
                c.failed_post = None;
            }
        }
        if let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) {
            t.resp = Some(resp);
        }
    }

    /// `sid`, answered 404 to a POST of `client` at `ts` (frame `frame`), is dead: the client must
    /// re-initialize (MCP-NO-REINITIALIZE). Once per id; the window's timer starts with it.
    #[allow(clippy::too_many_arguments)]
    fn note_dead(&mut self, client: SocketAddr, server: SocketAddr, sid: &str, ts: Timestamp, frame: u64, key: &SessionKey, endpoint: &str) {
        let first = self.checkpoints.stale_session.first().copied();
        let c = self.client_mut(client.ip(), server);
        if c.dead.contains_key(sid) || c.dead.len() >= MAX_DEAD {
            return;
        }
        // ALLOC: dead session ids per client, at most MAX_DEAD
        c.dead.insert(sid.to_string(), Dead { ts, frame, client, reinitialized: false, reuses: 0, reuse_frames: Vec::new(), key: key.clone(), endpoint: endpoint.to_string() });
        if let Some(first) = first {
            self.timers.schedule(ts.plus(Duration::from_secs(first)), Timer::Reinit { client: (client.ip(), server), sid: sid.to_string(), step: 0 });
        }
    }

    /// The 404 at `frame` turned out to be "method not found": its session is not dead after all.
    fn forget_dead(&mut self, client: SocketAddr, server: SocketAddr, sid: &str, frame: u64) {
        if let Some(c) = self.clients.get_mut(&(client.ip(), server)) {
            if c.dead.get(sid).is_some_and(|d| d.frame == frame) {
                c.dead.remove(sid);
            }
        }
    }

    /// A request without a session id was keyed at its end on what it carried (client, server, endpoint: a
    /// stateless probe such as `server/discover`), and its answer mints a session id, which keys it now. The
    /// key it had is no session of its own when nothing else was sent on it: it joins the minted session
    /// (the summary counted it as a session no inventory row showed).
    fn probe_keyed_by_its_answer(&mut self, client: SocketAddr, server: SocketAddr, info: &request::KeyInfo, now: &SessionKey, ids: &[crate::jsonrpc::Id]) {
        let before = self.key_ref(client, server, info, None);
        // Nothing answered on it, and nothing owed but this request's ids, which `now` owes from here on.
        let only_this = self
            .sessions
            .get(&before)
            .is_some_and(|s| s.key != *now && s.exchanges == 0 && s.outstanding.keys().all(|id| ids.contains(id)));
        if only_this {
            let before = before.to_owned_key();
            self.absorb(&before, now);
        }
    }

    /// Whether a GET of session `sid` asking for the stream is in flight on any connection (`view`'s is out
    /// of the table while its transaction ends): sent, and its stream open or its head not come yet.
    fn get_stream_in_flight(&self, view: &ConnView, sid: &str) -> bool {
        let open = |v: &ConnView| {
            v.txs.iter().any(|t| {
                t.req.as_deref().is_some_and(|r| r.method() == "GET" && r.session_id() == Some(sid) && r.asks_stream())
                    && t.resp.as_ref().is_none_or(|r| r.status < 300)
            })
        };
        open(view) || self.conns.values().any(open)
    }

    pub(super) fn finish_response<F: FnMut(Fact)>(&mut self, view: &ConnView, tx: &mut Tx, ts: Timestamp, end: MessageEnd, out: &mut F) {
        let (client, server) = (view.client, view.server);
        let path: Arc<str> = tx.req.as_deref().map_or_else(|| "".into(), Req::endpoint);
        let http_method = tx.req.as_deref().map(Req::method_token).unwrap_or_default();
        let rpc_method = tx.req.as_deref().map(Req::first_method).unwrap_or_default();
        let req_frame = tx.req.as_deref().map(|r| r.frame);
        // The stream ended in a gap, or lost server bytes to one before, or the capture stopped watching it
        // while it was open (the capture ended, or the connection was evicted at the table's cap): what it
        // did not show says nothing of the server.
        let (reason, closed_by) = end_reason(end, view.first_end);
        let unwatched = matches!(reason, "end-of-capture" | "evicted");
        let capture_loss = tx.capture_loss() || matches!(end, MessageEnd::Gap) || unwatched;
        // The request stays borrowed beside the response (another field of the transaction).
        let req = tx.req.as_deref();
        let req_sid = req.and_then(Req::session_id);
        let Some(resp) = tx.resp.as_mut() else { return };
        let Some(key) = resp.session.clone() else { return };
        let other_stream_open = resp.get_on_mcp && resp.status == 409 && req_sid.is_some_and(|sid| self.get_stream_in_flight(view, sid));
        let Some(s) = self.sessions.get_mut(&key) else { return };
        s.last_seen = s.last_seen.max(ts);
        let ctx = |s: &Session, frames: Vec<u64>| context(s, client, path.clone(), ts, frames);

        // An `initialize` POST whose SSE reply ended before the answer: the client gave up waiting (closed it)
        // or the server ended it. Either is what a client falls back from, as from a status (the spec's
        // backwards compatibility: the client POSTs `initialize` and falls back when that fails).
        let mut handshake_unanswered = None;
        // An undecodable SSE body is not a stream without events or ids: nothing is judged on it (the
        // coverage notice CAPTURE-BODY-UNDECODED says it was not seen).
        if let Some(st) = resp.stream.as_mut().filter(|_| !resp.undecoded) {
            if resp.kind == RespKind::Post && !st.pending.is_empty() && !capture_loss && req.is_some_and(Req::is_initialize) {
                handshake_unanswered = Some(if closed_by == "client" { "timeout" } else { "no-response" });
            }
            st.end(ts);
            if let Some(p) = resp.shift.take() {
                let f = p.fact.frame as u64;
                out(judge(s, *p, st, f, true, capture_loss));
            }
            if resp.kind == RespKind::Get || !st.pending.is_empty() {
                s.first_break = Some(s.first_break.map_or(ts, |t| t.min(ts)));
            }
            if let Some(rec) = self.recorder.as_mut() {
                rec.stream_end(s, ts, resp.frame, reason, (st.events, st.ids), st.cursor.as_str());
            }
            // An HTTP+SSE session's GET stream is where the responses to its POSTs come (2024-11-05
            // transports: the POST is accepted with 202): it owes what was accepted and not yet delivered.
            // Less what the client cancelled: the server need not answer it (MCP 2025-11-25 utilities/
            // cancellation), and a stream that ends owing only that lost nothing (supergateway ends such a
            // stream at the session's DELETE, samples/ecosystem/gateways9-sg-crash.pcap).
            let pending = if resp.kind == RespKind::Get && key.ident.is_legacy() {
                s.owed(&s.legacy_pending, Timestamp(i64::MIN)).count()
            } else {
                s.owed(&st.pending, req.map_or(Timestamp(i64::MIN), |r| r.ts)).count()
            };
            out(Fact {
                ctx: ctx(s, vec![resp.frame]),
                kind: FactKind::StreamEnd(facts::StreamEnd {
                    kind: if resp.kind == RespKind::Post { "post".into() } else { "get".into() },
                    status: i64::from(resp.status),
                    reason: reason.into(),
                    closed_by: closed_by.into(),
                    events: st.events as i64,
                    ids: st.ids as i64,
                    cursor: st.cursor.as_str().into(),
                    pending: pending as i64,
                    keepalives: st.keepalives as i64,
                    duration_ms: st.duration_ms(ts),
                    max_silence_ms: st.max_silence_ms,
                    retry_seen: st.retry_seen,
                    x_accel_no: st.x_accel_no,
                    capture_loss,
                    burst_events: st.burst_events,
                    burst_silence_ms: st.burst_silence_ms,
                }),
            });
        }

        let media: &str = resp.media.as_deref().unwrap_or_default();
        let parsed = match std::mem::take(&mut resp.body) {
            Body::Messages(m) => Some(m),
            Body::Undecodable => {
                // An error body of another type that is not JSON-RPC is plain text, not a decoding failure.
                if media == "application/json" {
                    self.stats.not_jsonrpc += 1;
                }
                None
            }
            Body::Empty | Body::OverCap => None,
        };
        if let Some(msgs) = &parsed {
            self.stats.jsonrpc_messages += msgs.len() as u64;
            let cap_answered = self.limits.max_pending_per_session.saturating_mul(4);
            if resp.status < 400 {
                for m in msgs {
                    if let Some(id) = m.reply_id() {
                        // A reply its request did not ask for, on a connection whose pairing is unsure: another
                        // exchange's response.
                        let unsure = capture_loss || view.pairing_unsure() && !req.is_some_and(|r| r.asks(id));
                        let at = Delivered { frame: resp.frame, stream: 0, head_frame: resp.frame, unsure };
                        reply_delivered(s, &mut self.versions, m, at, &mut resp.init_requested, cap_answered, (client, &path, ts), out);
                    }
                }
            }
        }
        // HTTP+SSE: a 202 to a POST means the responses will come on the GET stream, unless one came already:
        // a server may queue the answer on the stream before it acknowledges the POST.
        if resp.status == 202 && key.ident.is_legacy() {
            if let Some(ids) = req.map(Req::request_ids) {
                for id in ids {
                    let delivered = s.answered.get(&id).is_some_and(|&(at, _)| req_frame.is_some_and(|sent| at > sent));
                    if !delivered && s.legacy_pending.len() < self.limits.max_pending_per_session {
                        // ALLOC: bounded by limits::max_pending_per_session
                        s.legacy_pending.push(id);
                    }
                }
            }
        }

        // The request's frame and the response's: the evidence of an answer (built for a fact only).
        let exchange_frames = || -> Vec<u64> { req_frame.into_iter().chain([resp.frame]).collect() };
        let (kind, code, rpc_id, message) = if resp.undecoded {
            // Not an empty or bare body: one that could not be read.
            ("undecoded", 0, String::new(), String::new())
        } else if resp.status < 300 && resp.stream.is_some() {
            ("stream", 0, String::new(), String::new())
        } else if !resp.get_on_mcp && resp.status < 400 {
            // Only a GET's answer and an error are described by their body: a successful POST's body (a
            // tools/list, a tool's result) is not read again as text.
            ("unread", 0, String::new(), String::new())
        } else {
            classify_error_body(media, resp.text.as_ref(), parsed.as_deref())
        };
        // No body because the connection ended before the one the head announced: the server died writing it
        // (arcade-mcp-server's 400s after a restart, samples/ecosystem/pyservers3-arcade-restart-ts.pcap), which
        // "empty" would not say.
        let kind = if kind == "empty" && end == MessageEnd::Interrupted { "cut-short" } else { kind };
        let mentions_session = mentions_session(&message);
        if resp.get_on_mcp {
            let dead = req_sid.as_ref().is_some_and(|sid| self.clients.get(&(client.ip(), server)).is_some_and(|c| c.dead.contains_key(*sid)));
            let session_unknown = req_sid.is_some() && (mentions_session || dead);
            let fact = Fact {
                ctx: ctx(s, exchange_frames()),
                kind: FactKind::GetResponse(facts::GetResponse {
                    status: i64::from(resp.status),
                    content_type: media.to_string().into(),
                    has_session_id: req_sid.is_some(),
                    session_unknown,
                    // A session keyed by a handshake exists only when the server answered `initialize`
                    // without minting an id: that server needs none.
                    session_optional: matches!(s.key.ident, SessionIdent::Anonymous { handshake, .. } if handshake > 0) && s.version.is_some(),
                    other_stream_open,
                    body: kind.into(),
                    message: message.clone().into(),
                }),
            };
            // A 404 that does not say why, to a GET naming the session: a server restarted under its client
            // answers the reconnect GET before any POST (Tomcat's HTML page for the Java SDK, samples/
            // ecosystem/javasdk-restart-py.pcap). The next answer to a POST of the session says whether the
            // server still knows it; until then (or the session's end) the answer is held.
            if resp.status == 404 && req_sid.is_some() && !session_unknown && s.held_gets.len() < MAX_HELD_GETS {
                s.held_gets.push(fact);
            } else {
                out(fact);
            }
        }
        if resp.status >= 400 {
            let fingerprint = fingerprint(resp.status, kind, code, &rpc_id, &message);
            let site = req.map_or(&*s.host, Req::host);
            let on_mcp = self.servers.get(&server).is_some_and(|st| st.mcp_paths.contains(site, &path));
            // ALLOC: per 4xx/5xx answer, two lists of at most RECENT_5XX
            let (recent, recent_frames): (Vec<i64>, Vec<i64>) = self
                .servers
                .get(&server)
                .and_then(|st| st.recent_5xx.get(site, &path))
                .map(|q| q.iter().map(|(t, f)| (ts.since(*t).0 / 1_000_000, i64::try_from(*f).unwrap_or(i64::MAX))).unzip())
                .unwrap_or_default();
            out(Fact {
                ctx: ctx(s, exchange_frames()),
                kind: FactKind::ErrorResponse(facts::ErrorResponse {
                    status: i64::from(resp.status),
                    http_method: http_method.clone(),
                    rpc_method: (&rpc_method).into(),
                    content_type: media.to_string().into(),
                    body: kind.into(),
                    rpc_code: code,
                    rpc_id: rpc_id.into(),
                    message: message.clone().into(),
                    mentions_session,
                    other_cause: !mentions_session && names_other_cause(&message, code),
                    session_seen_ok: s.seen_ok,
                    fingerprint: fingerprint.unwrap_or_default().into(),
                    on_mcp_endpoint: on_mcp,
                    auth_challenge: resp.auth_challenge,
                    recent_5xx_ms: recent,
                    recent_5xx_frames: recent_frames,
                }),
            });
            let modern = s.era == Era::Stateless2026;
            let host = req.map_or_else(|| Arc::clone(&s.host), Req::host_shared);
            // The head marked a POST's 404 dead (`note_dead`); a body that says "method not found" takes it
            // back (2026-07-28 answers an unknown method so).
            if resp.status == 404 && !modern && http_method == "POST" && code == -32601 {
                if let Some(sid) = req_sid {
                    self.forget_dead(client, server, sid, resp.frame);
                }
            }
            if http_method == "POST" {
                let version = req.map(Req::client_version).unwrap_or_default();
                let failed = FailedPost { kind: "status", status: resp.status, code, body: kind, version, host, path: path.to_string(), ts, frame: resp.frame };
                self.client_mut(client.ip(), server).failed_post = Some(failed);
            }
        }
        // The TypeScript SDK's fallback example gives up on an `initialize` whose SSE reply never answers
        // after 60 s, then GETs the URL for an `endpoint` event (samples/ecosystem/situations5-vercel-fallback-ts.pcap:
        // @vercel/mcp-adapter 0.5 answers a POST to its legacy URL with that event).
        if let (Some(kind), Some(r)) = (handshake_unanswered, req) {
            self.client_mut(client.ip(), server).failed_post = Some(FailedPost::unanswered(kind, r, ts));
        }
    }
}

/// Where a JSON-RPC reply was delivered: its frame, the stream (0 for a JSON body), and the frame of the
/// response head that carried it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Delivered {
    pub(super) frame: u64,
    pub(super) stream: u64,
    pub(super) head_frame: u64,
    /// HTTP may have paired the reply's response with the wrong request (`duplicate_response.capture_loss`).
    pub(super) unsure: bool,
}

/// One JSON-RPC reply delivered to a session, on an SSE stream or in a JSON body alike: the duplicate
/// check, the answered-id bookkeeping (at most `cap` ids), and the negotiated version of an `initialize`
/// result. `evidence` is the client, endpoint and time the facts are reported with.
#[allow(clippy::too_many_arguments)]
pub(super) fn reply_delivered<F: FnMut(Fact)>(
    s: &mut Session,
    versions: &mut Versions,
    m: &Message,
    at: Delivered,
    init_requested: &mut Option<String>,
    cap: usize,
    evidence: (SocketAddr, &Arc<str>, Timestamp),
    out: &mut F,
) {
    let Some(id) = m.reply_id() else { return };
    let (client, endpoint, ts) = evidence;
    let ctx = |s: &Session, frames: Vec<u64>| context(s, client, Arc::clone(endpoint), ts, frames);
    let outstanding = s.reply_arrived(id);
    // The latest delivery is the one a later duplicate repeats. Below the cap, as nearly always, one
    // lookup finds an id answered before (a duplicate) or inserts a new one (cloned either way).
    let delivery = (at.frame, at.stream);
    let earlier = if s.answered.len() < cap {
        match s.answered.entry(id.clone()) {
            Entry::Occupied(mut e) => Some(e.insert(delivery)),
            Entry::Vacant(e) => {
                // ALLOC: one answered id, bounded by 4 x limits::max_pending_per_session
                e.insert(delivery);
                None
            }
        }
    } else {
        s.answered.get_mut(id).map(|slot| std::mem::replace(slot, delivery))
    };
    if let Some((first_frame, first_stream)) = earlier {
        out(Fact {
            ctx: ctx(s, vec![first_frame, at.frame]),
            kind: FactKind::DuplicateResponse(facts::DuplicateResponse {
                id: id.display().into(),
                same_stream: first_stream == at.stream,
                first_frame: first_frame as i64,
                outstanding,
                capture_loss: at.unsure,
            }),
        });
    }
    if let Message::Response { result, .. } = m {
        if let Some(v) = result.protocol_version.as_ref().and_then(|v| v.0.clone()) {
            s.version = Some(v.as_str().into());
            if let Some(req) = init_requested.take() {
                let (server_best, client_previous) = versions.negotiated(s.key.server, &s.host, endpoint, client.ip(), &req, &v, cap);
                let frames = if at.head_frame == at.frame { vec![at.frame] } else { vec![at.head_frame, at.frame] };
                out(Fact {
                    ctx: ctx(s, frames),
                    kind: FactKind::Initialize(facts::Initialize { requested: req.into(), negotiated: v.into(), server_best: server_best.into(), client_previous: client_previous.into() }),
                });
            }
        }
    }
}

/// How a stream ended and who closed it, from the HTTP end and the first TCP direction to end.
pub(super) fn end_reason(end: MessageEnd, first: Option<(Direction, EndReason)>) -> (&'static str, &'static str) {
    match end {
        MessageEnd::Complete => ("complete", "server"),
        MessageEnd::Gap => ("gap", "unknown"),
        MessageEnd::Malformed => ("malformed", "unknown"),
        MessageEnd::ClosedByFin | MessageEnd::Interrupted => match first {
            Some((dir, reason)) => {
                let who = match (dir, reason) {
                    (_, EndReason::EndOfCapture | EndReason::Idle | EndReason::Evicted) => "unknown",
                    (Direction::ToServer, _) => "client",
                    (Direction::ToClient, _) => "server",
                };
                (reason.as_str(), who)
            }
            None => ("interrupted", "unknown"),
        },
    }
}

/// The error message says the session is unknown, expired or terminated.
pub(super) fn mentions_session(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("session")
        && ["not found", "unknown", "expired", "invalid", "terminated", "no valid"].iter().any(|w| m.contains(w))
}

/// The error names a cause other than the session: the protocol version, a header the transport checks
/// (Accept, Content-Type, Origin, Host), or a body that would not parse. A rejection for such a cause
/// says nothing of whether the server still knows the session: mcp-lite 0.10 answers the GET of a live
/// session 400 "Protocol version mismatch" and the session's next POSTs 200.
pub(super) fn names_other_cause(message: &str, code: i64) -> bool {
    let m = message.to_ascii_lowercase();
    matches!(code, -32700 | -32020 | -32021 | -32022)
        || ["version", "accept", "content-type", "content type", "origin", "host header", "parse error", "invalid json"]
            .iter()
            .any(|w| m.contains(w))
}

/// What a 4xx/5xx body is: kind, JSON-RPC code, id as written, message (first line, 120 chars).
pub(super) fn classify_error_body(media: &str, text: Option<&BodyText>, parsed: Option<&[Message]>) -> (&'static str, i64, String, String) {
    if let Some(Message::Error { id, code, message }) = parsed.and_then(|m| m.first()) {
        return ("jsonrpc", *code, id.display(), message.chars().take(FIRST_LINE_CHARS).collect());
    }
    let blank = BodyText::default();
    let text = text.unwrap_or(&blank);
    let first_line = text.first_line.clone();
    let kind = if text.blank {
        "empty"
    } else if media == "text/html" || text.markup {
        "html"
    } else if media.ends_with("json") || parsed.is_some() {
        "json"
    } else {
        "text"
    };
    (kind, 0, String::new(), first_line)
}

/// The SDK whose stale-session answer this is, where the body shows it (mcp-transports.md §2).
pub(super) fn fingerprint(status: u16, kind: &str, code: i64, id: &str, message: &str) -> Option<&'static str> {
    let m = message.to_ascii_lowercase();
    match (status, kind, code, id) {
        (404, "jsonrpc", -32001, "null") => Some("TypeScript SDK transport (404, -32001, id null)"),
        (404, "jsonrpc", -32600, "\"server-error\"") => Some("Python SDK >= 1.26 session manager (404, -32600, id \"server-error\")"),
        (404, "jsonrpc", -32600, _) => Some("Python SDK (404, -32600)"),
        (400, "text", _, _) if m.contains("no valid session id") => Some("Python SDK < 1.26 (400 text/plain \"No valid session ID provided\")"),
        (400, "jsonrpc", -32000, _) if m.contains("no valid session id") => Some("TypeScript SDK example server (400, -32000, typescript-sdk#389)"),
        (401, _, _, _) if m.contains("session not found") => Some("rmcp (401 \"Session not found\", rust-sdk#559)"),
        _ => None,
    }
}

/// 2025-06-18 and later: `MCP-Protocol-Version` must equal the negotiated version on later requests.
pub(super) fn version_check(conns: &ConnMap<ConnView>, conn: ConnId, tx: Option<TxId>, negotiated: Option<&str>, initialize: bool) -> Vec<(&'static str, String, String)> {
    let Some(neg) = negotiated else { return Vec::new() };
    if initialize {
        return Vec::new();
    }
    let Some(req) = conns.get(&conn).and_then(|v| v.txs.iter().find(|t| t.id == tx)).and_then(|t| t.req.as_deref()) else { return Vec::new() };
    match req.proto_version() {
        Some(h) if h != neg => vec![("version", h.to_string(), neg.to_string())],
        _ => Vec::new(),
    }
}

/// `Server` and `Via` of a response, as one comparable string.
pub(super) fn server_signature(head: &ResponseHead) -> std::borrow::Cow<'_, str> {
    let server = head.headers.get("server").unwrap_or("");
    match head.headers.get("via") {
        Some(via) => std::borrow::Cow::Owned(format!("{server}|{via}")),
        None => std::borrow::Cow::Borrowed(server),
    }
}


/// Answers to GETs held per session (`Session::held_gets`); more are judged at once, as they stand.
const MAX_HELD_GETS: usize = 8;

/// Emits the GET answers a session held, in the order they came; `unknown`: a POST of the session was since
/// answered 404, so the server no longer knew the session.
pub(super) fn release_held_gets<F: FnMut(Fact)>(s: &mut Session, unknown: bool, out: &mut F) {
    for mut fact in s.held_gets.drain(..) {
        if let FactKind::GetResponse(g) = &mut fact.kind {
            g.session_unknown |= unknown;
        }
        out(fact);
    }
}

#[cfg(test)]
mod tests {
    //! Response-side classification through the harness: id reuse against duplicates, GET answers,
    //! version negotiation, fallbacks, stale-session statuses, and streams lost by the capture.
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::names_other_cause;
    use crate::decode::flow_key::Direction;
    use crate::facts::FactKind;
    use crate::mcp::harness::*;
    use crate::reassembly::EndReason;

    /// A stateless (2026-07-28) client calling a tool `n` times, each call with id 1, each answered.
    fn stateless_calls_with_id_1(n: usize) -> Harness {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let meta = r#"{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#;
        for _ in 0..n {
            let tx = h.post(c, &["MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: t"], &call(1, "tools/call", meta));
            h.json(c, tx, &[], &tool_result(1));
        }
        h.finish();
        h
    }

    #[test]
    fn answered_ids_are_kept_up_to_the_cap_and_those_kept_still_find_duplicates() {
        // The cap of answered ids per session is 4 x max_pending_per_session (4,096 by default).
        let cap = 4 * crate::limits::Limits::default().max_pending_per_session as i64;
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let meta = r#"{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#;
        let headers = ["MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: t"];
        // One past the cap: the last id is not kept.
        for id in (1..=cap + 1).chain([1, cap, cap + 1]) {
            let tx = h.post(c, &headers, &call(id, "tools/call", meta));
            h.json(c, tx, &[], &tool_result(id));
        }
        h.finish();
        let firsts: Vec<i64> = h
            .facts_of("duplicate_response")
            .iter()
            .filter_map(|f| match &f.kind {
                FactKind::DuplicateResponse(d) => Some(d.first_frame),
                _ => None,
            })
            .collect();
        // Ids 1 and `cap` were answered before and kept: each a duplicate of its first answer; the id past
        // the cap was not kept, so its second answer is none.
        assert_eq!(firsts.len(), 2, "{firsts:?}");
        assert!(firsts[0] < firsts[1], "{firsts:?}");
    }

    #[test]
    fn stateless_client_reusing_id_1_on_every_call_is_no_duplicate() {
        let h = stateless_calls_with_id_1(4);
        let dups = h.facts_of("duplicate_response");
        assert_eq!(dups.len(), 3);
        assert!(dups.iter().all(|f| matches!(&f.kind, FactKind::DuplicateResponse(d) if d.outstanding)));
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn a_duplicate_repeats_the_latest_delivery_of_its_id() {
        let h = stateless_calls_with_id_1(4);
        // Each duplicate names the delivery just before it (its frame), not the first one.
        let pairs: Vec<(i64, u64)> = h
            .facts_of("duplicate_response")
            .iter()
            .map(|f| match &f.kind {
                FactKind::DuplicateResponse(d) => (d.first_frame, *f.ctx.frames.last().unwrap()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(pairs.len(), 3);
        for w in pairs.windows(2) {
            assert_eq!(w[1].0, w[0].1 as i64, "{pairs:?}");
        }
        assert!(pairs[0].0 < pairs[0].1 as i64);
    }

    #[test]
    fn one_request_answered_twice_is_a_duplicate() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let g = h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], "");
        h.sse(c, g, &[]);
        let c2 = h.connect("10.0.0.1:40001");
        let tx = h.post(c2, &[SID, V25], &tool_call(4));
        h.json(c2, tx, &[], &tool_result(4));
        // The gateway delivers the same reply on the GET stream too (agentgateway#2373).
        h.event(c, g, None, &tool_result(4));
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-DUPLICATE-RESPONSE"]);
    }

    #[test]
    fn get_answered_404_for_an_unknown_session_is_the_spec_answer() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let g = h.request(c, "GET", "/mcp", &[SID, "Accept: text/event-stream"], "");
        h.reply(c, g, 404, &["Content-Type: application/json"], &error("\"server-error\"", -32600, "Session not found"));
        // And 400 to a GET without a session id on a server that needs one.
        let g = h.request(c, "GET", "/mcp", &["Accept: text/event-stream"], "");
        h.reply(c, g, 400, &["Content-Type: text/plain"], "Bad Request: Session ID is required");
        h.finish();
        assert!(!h.fired().contains(&"MCP-GET-MISBEHAVIOR".to_string()), "{:?}", h.fired());
    }

    /// A GET without a session id answered 400, after an `initialize` answered with (`sid`) or without a
    /// session id: the rules that fired.
    fn sessionless_get_answered_400(sid: Option<&str>) -> Vec<String> {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let tx = h.post(c, &[], &initialize(0, "2025-11-25"));
        let minted = sid.map(|s| format!("Mcp-Session-Id: {s}"));
        h.json(c, tx, &minted.iter().map(String::as_str).collect::<Vec<_>>(), &initialized(0, "2025-11-25"));
        let g = h.request(c, "GET", "/mcp", &[V25, "Accept: text/event-stream"], "");
        h.reply(c, g, 400, &["Content-Type: text/plain"], "Bad Request: Protocol version mismatch");
        h.finish();
        h.fired()
    }

    #[test]
    fn get_answered_400_by_a_server_that_mints_no_session_id_is_misbehavior() {
        // mcp-lite 0.10: the server needs no session id, so the spec's 400 for a missing one does not apply.
        assert!(sessionless_get_answered_400(None).contains(&"MCP-GET-MISBEHAVIOR".to_string()));
        // A server that minted one may refuse a GET without it.
        assert!(!sessionless_get_answered_400(Some("aaaa")).contains(&"MCP-GET-MISBEHAVIOR".to_string()));
    }

    #[test]
    fn live_session_rejected_for_its_protocol_version_is_no_session_status_incident() {
        // mcp-lite 0.10 answers a live session's GET 400 "Protocol version mismatch", and its POSTs 200.
        let run = |message: &str| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let g = h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], "");
            h.reply(c, g, 400, &["Content-Type: text/plain"], message);
            h.finish();
            h.fired()
        };
        assert!(!run("Bad Request: Protocol version mismatch").contains(&"MCP-SESSION-STATUS".to_string()));
        // A rejection that names no cause, of a session that worked, is still taken for an unknown session.
        assert!(run("Bad Request").contains(&"MCP-SESSION-STATUS".to_string()));
    }

    #[test]
    fn a_framework_error_naming_another_cause_is_no_session_status_incident() {
        // Fastify 5 rejects a DELETE that says Content-Type: application/json and carries no body, before the
        // MCP transport sees it (samples/ecosystem/jsservers4-fastify-stateful.pcap): the cause is in the
        // JSON object's `message`, past the first 120 characters of the object as written.
        let run = |body: &str| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let d = h.request(c, "DELETE", "/mcp", &[SID, V25, "Content-Type: application/json"], "");
            h.reply(c, d, 400, &["Content-Type: application/json; charset=utf-8"], body);
            h.finish();
            h.fired()
        };
        let fastify = r#"{"statusCode":400,"code":"FST_ERR_CTP_EMPTY_JSON_BODY","error":"Bad Request","message":"Body cannot be empty when content-type is set to 'application/json'"}"#;
        assert!(!run(fastify).contains(&"MCP-SESSION-STATUS".to_string()));
        assert!(run(r#"{"statusCode":400,"code":"X","error":"Bad Request","message":"Bad Request"}"#).contains(&"MCP-SESSION-STATUS".to_string()));
    }

    #[test]
    fn error_messages_naming_another_cause() {
        for (m, code) in [("Bad Request: Protocol version mismatch", 0), ("Not Acceptable: Client must accept text/event-stream", 0), ("Invalid Host header", 0), ("x", -32700), ("x", -32022)] {
            assert!(names_other_cause(m, code), "{m} {code}");
        }
        for (m, code) in [("Bad Request", 0), ("Bad Request: Server not initialized", -32000), ("", 0)] {
            assert!(!names_other_cause(m, code), "{m} {code}");
        }
    }

    #[test]
    fn a_get_whose_head_is_held_is_silent_from_its_request() {
        // nginx in front of the TS SDK 1.11 server (samples/ecosystem/situations-idle-old.pcap): the front
        // hop's GET waits 60 s for a head the proxy holds, which comes with the end of the stream. A POST's
        // wait for its head is its request's (MCP-REQUEST-STALLED), not a silent stream.
        let run = |method: &str| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let body = if method == "GET" { String::new() } else { tool_call(7) };
            let g = h.request(c, method, "/mcp", &[SID, V25, "Accept: text/event-stream, application/json"], &body);
            h.wait(40_000);
            h.sse(c, g, &[]);
            if method == "POST" {
                h.event(c, g, None, &tool_result(7));
            }
            h.end(c, g, super::MessageEnd::ClosedByFin);
            h.finish();
            h.fired()
        };
        assert!(run("GET").contains(&"MCP-SSE-IDLE".to_string()));
        assert!(!run("POST").contains(&"MCP-SSE-IDLE".to_string()));
    }

    #[test]
    fn a_stream_that_ends_owing_only_what_the_client_cancelled_lost_nothing() {
        // The TypeScript SDK client cancels a call at its 60 s timeout; the server answers nothing (MCP
        // 2025-11-25 utilities/cancellation) and ends the reply stream at the session's DELETE
        // (samples/ecosystem/situations-stall-ts.pcap).
        let run = |cancel: Option<&str>, again: bool| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let tx = h.post(c, &[SID, V25], &tool_call(7));
            h.sse(c, tx, &[]);
            h.event(c, tx, None, &progress());
            if let Some(id) = cancel {
                let c2 = h.connect("10.0.0.1:40100");
                let n = h.post(c2, &[SID, V25], &notify("notifications/cancelled", &format!(r#"{{"requestId":{id},"reason":"timeout"}}"#)));
                h.reply(c2, n, 202, &[], "");
            }
            if again {
                // The id comes back on a new request, which the cancellation before it does not cover.
                let c3 = h.connect("10.0.0.1:40101");
                let t3 = h.post(c3, &[SID, V25], &tool_call(7));
                h.sse(c3, t3, &[]);
                h.end(c3, t3, super::MessageEnd::Complete);
            }
            h.end(c, tx, super::MessageEnd::Complete);
            h.finish();
            let frames: Vec<u64> = h.facts_of("stream_end").iter().filter(|f| f.kind.field("pending") == Some(crate::facts::FieldValue::Int(1))).map(|f| f.ctx.frames[0]).collect();
            (h.alarms().contains(&"MCP-STREAM-LOST".to_string()), frames.len())
        };
        assert_eq!(run(None, false), (true, 1));
        assert_eq!(run(Some("7"), false), (false, 0));
        // Another request's cancellation is no answer to this one.
        assert_eq!(run(Some("8"), false), (true, 1));
        // The new request with the cancelled id is owed; the cancelled one still is not.
        assert_eq!(run(Some("7"), true), (true, 1));
    }

    #[test]
    fn a_request_whose_answer_a_proxy_holds_is_seen_waiting() {
        // lighttpd buffers a whole reply by default: a 70 s tool call sends its client no byte, not even the
        // head, until it is done (samples/ecosystem/longlived2-lighttpd-ts-py.pcap). The client waits on an
        // open connection all the same.
        let run = |wait_ms: i64| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let tx = h.post(c, &[SID, V25], &tool_call(4));
            h.wait(wait_ms);
            h.json(c, tx, &[], &tool_result(4));
            h.finish();
            h.fired()
        };
        assert!(run(70_000).contains(&"MCP-REQUEST-STALLED".to_string()), "{:?}", run(70_000));
        assert!(!run(50_000).contains(&"MCP-REQUEST-STALLED".to_string()));
    }

    #[test]
    fn a_stream_kept_alive_by_blank_lines_is_not_idle() {
        // rust-mcp-sdk 2.0's HTTP+SSE stream: a bare newline every 12 s, no comment, for a minute.
        let run = |blanks: bool| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let g = h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], "");
            h.sse(c, g, &[]);
            for _ in 0..5 {
                h.wait(12_000);
                if blanks {
                    h.blank(c, g);
                }
            }
            h.end(c, g, super::MessageEnd::ClosedByFin);
            h.finish();
            h.fired()
        };
        assert!(!run(true).contains(&"MCP-SSE-IDLE".to_string()));
        assert!(run(false).contains(&"MCP-SSE-IDLE".to_string()));
    }

    #[test]
    fn get_answered_404_html_on_a_live_session_is_misbehavior() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let g = h.request(c, "GET", "/mcp", &[SID, "Accept: text/event-stream"], "");
        h.reply(c, g, 404, &["Content-Type: text/html"], "<!DOCTYPE html><title>Cannot GET /mcp</title>");
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.json(c, tx, &[], &tool_result(1));
        h.finish();
        assert!(h.alarms().contains(&"MCP-GET-MISBEHAVIOR".to_string()), "{:?}", h.alarms());
    }

    #[test]
    fn an_initialize_redirected_starts_no_session() {
        // FastMCP 1.x: the initialize to `/mcp` is answered 307, sent again to `/mcp/`, and answered there.
        let run = |status: u16| {
            let mut h = Harness::new();
            let c = h.connect("10.0.0.1:40000");
            let tx = h.post(c, &[], &initialize(0, "2025-06-18"));
            h.reply(c, tx, status, &["Location: http://127.0.0.1:8000/mcp/"], "");
            let tx = h.request(c, "POST", "/mcp/", &["Content-Type: application/json"], &initialize(0, "2025-06-18"));
            h.json(c, tx, &["Mcp-Session-Id: bbbb"], &initialized(0, "2025-06-18"));
            h.finish();
            h.t.stats().sessions_by_era.values().sum::<u64>()
        };
        assert_eq!(run(307), 1);
        // A refusal is an answer: the attempt is a session of its own, which its incidents are keyed to.
        assert_eq!(run(405), 2);
    }

    #[test]
    fn get_redirected_is_followed_and_judged_at_its_target() {
        // FastMCP 1.8/1.9 (samples/ecosystem/oldsdks.md): `/mcp` answers every request 307 to `/mcp/`.
        let run = |status: u16| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let g = h.request(c, "GET", "/mcp", &[SID, "Accept: text/event-stream"], "");
            h.reply(c, g, status, &["Location: http://10.0.0.2:8000/mcp/"], "");
            h.finish();
            h.alarms()
        };
        assert_eq!(run(307), Vec::<String>::new());
        assert_eq!(run(308), Vec::<String>::new());
        // The same answer that is no redirect is.
        assert!(run(200).contains(&"MCP-GET-MISBEHAVIOR".to_string()), "{:?}", run(200));
    }

    #[test]
    fn plain_negotiation_below_the_clients_newest_is_no_downgrade() {
        let mut h = Harness::new();
        for port in [40000, 40001] {
            let c = h.connect(&format!("10.0.0.{}:{port}", port - 39_999));
            handshake(&mut h, c, "2026-07-28", "2025-11-25", &format!("s{port}"));
        }
        h.finish();
        assert_eq!(h.facts_of("initialize").len(), 2);
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn server_answering_one_client_lower_than_another_is_a_downgrade() {
        let mut h = Harness::new();
        let a = h.connect("10.0.0.1:40000");
        handshake(&mut h, a, "2025-11-25", "2025-11-25", "s1");
        let b = h.connect("10.0.0.2:40000");
        handshake(&mut h, b, "2025-11-25", "2025-03-26", "s2");
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-VERSION-DOWNGRADE"]);
        let f = h.facts_of("initialize");
        assert!(matches!(&f[1].kind, FactKind::Initialize(i) if i.server_best == "2025-11-25"));
    }

    #[test]
    fn servers_sharing_an_address_answer_for_themselves() {
        // A forward proxy's origins (absolute-form targets, or CONNECT tunnels: one Host each), a gateway's
        // virtual hosts or per-server paths: one address, several servers, each negotiating its own newest
        // version (samples/ecosystem/egress-squid-two-origins.pcap). Only the same host and path is the same
        // server.
        let run = |first: (&str, &str), second: (&str, &str)| {
            let mut h = Harness::new();
            for (i, ((target, host), answered)) in [(first, "2025-11-25"), (second, "2025-03-26")].into_iter().enumerate() {
                let c = h.connect(&format!("10.0.0.{}:40000", i + 1));
                let host = format!("Host: {host}");
                let tx = h.request(c, "POST", target, &[&host], &initialize(0, "2025-11-25"));
                h.json(c, tx, &[&format!("Mcp-Session-Id: s{i}")], &initialized(0, answered));
            }
            h.finish();
            h.alarms()
        };
        let proxied_a = ("http://a.example/mcp", "a.example");
        assert_eq!(run(proxied_a, ("http://b.example/mcp", "b.example")), Vec::<String>::new());
        assert_eq!(run(("/github/mcp", "gw"), ("/jira/mcp", "gw")), Vec::<String>::new());
        assert_eq!(run(proxied_a, ("http://a.example/mcp", "a.example")), vec!["MCP-VERSION-DOWNGRADE"]);
        assert_eq!(run(proxied_a, ("/mcp", "a.example")), vec!["MCP-VERSION-DOWNGRADE"], "the absolute form is the same endpoint");
    }

    #[test]
    fn servers_without_session_ids_behind_one_proxy_keep_their_own_sessions() {
        // One agent, two origins that mint no session id, reached through one forward proxy (absolute-form
        // targets, one Host each), their handshakes and calls interleaved on the same path: each origin's
        // exchanges stay in its own session, whatever the other's handshake did meanwhile.
        let mut h = Harness::recording();
        let origins = [("http://a.example/mcp", "Host: a.example"), ("http://b.example/mcp", "Host: b.example")];
        let conns: Vec<_> = (0..2).map(|i| h.connect(&format!("10.0.0.1:{}", 40000 + i))).collect();
        for (c, (target, host)) in conns.iter().zip(origins) {
            let tx = h.request(*c, "POST", target, &[host], &initialize(0, "2025-11-25"));
            h.json(*c, tx, &[], &initialized(0, "2025-11-25"));
        }
        for id in 1..4 {
            for (c, (target, host)) in conns.iter().zip(origins) {
                let tx = h.request(*c, "POST", target, &[host, "MCP-Protocol-Version: 2025-11-25"], &tool_call(id));
                h.json(*c, tx, &[], &tool_result(id));
            }
        }
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
        let rows: Vec<(String, u64)> = h.records().into_iter().map(|r| (r.host, r.requests)).collect();
        assert_eq!(rows, [("a.example".to_string(), 4), ("b.example".to_string(), 4)]);
    }

    #[test]
    fn re_initialize_at_a_lower_version_is_a_downgrade() {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        handshake(&mut h, c, "2025-11-25", "2025-11-25", "s1");
        handshake(&mut h, c, "2025-11-25", "2025-06-18", "s2");
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-VERSION-DOWNGRADE"]);
    }

    #[test]
    fn version_older_than_streamable_http_over_streamable_http_is_a_downgrade() {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        handshake(&mut h, c, "2025-11-25", "2024-11-05", "s1");
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-VERSION-DOWNGRADE"]);
    }

    #[test]
    fn an_http_sse_negotiation_answered_on_the_get_stream_is_judged() {
        // n8n-mcp answers clients by their name (samples/ecosystem/servers3-n8n-sse-two.pcap): one HTTP+SSE
        // client gets 2025-03-26, the next, asking for as much, 2024-11-05. The result comes on the GET
        // stream, after the POST's 202 or before it.
        for event_first in [false, true] {
            let mut h = Harness::new();
            let mut frames = Vec::new();
            for (i, answered) in ["2025-03-26", "2024-11-05"].into_iter().enumerate() {
                let c = h.connect(&format!("10.0.0.{}:40000", i + 1));
                let g = h.legacy_stream(c, &format!("/messages?sessionId=L{i}"));
                let p = h.connect(&format!("10.0.0.{}:40001", i + 1));
                let tx = h.request(p, "POST", &format!("/messages?sessionId=L{i}"), &[], &initialize(0, "2025-11-25"));
                let asked = h.last_frame();
                if !event_first {
                    h.reply(p, tx, 202, &[], "Accepted");
                }
                h.event(c, g, None, &initialized(0, answered));
                frames.push(vec![asked, h.last_frame()]);
                if event_first {
                    h.reply(p, tx, 202, &[], "Accepted");
                }
            }
            h.finish();
            assert_eq!(h.alarms(), vec!["MCP-VERSION-DOWNGRADE"], "event first: {event_first}");
            let f = h.facts_of("initialize");
            assert_eq!(f.len(), 2, "event first: {event_first}");
            assert!(matches!(&f[1].kind, FactKind::Initialize(i) if i.server_best == "2025-03-26" && i.requested == "2025-11-25"));
            // The POST that asked, and the event that answered.
            let got: Vec<Vec<u64>> = f.iter().map(|f| f.ctx.frames.clone()).collect();
            assert_eq!(got, frames, "event first: {event_first}");
        }
    }

    #[test]
    fn messages_posted_to_the_sse_path_with_the_announced_session_are_no_legacy_post_accepted() {
        // The Go SDK announces `/sse?sessionid=...` (the SSE URL's own path, the parameter in lower case).
        let run = |target: &str| {
            let mut h = Harness::new();
            let c = h.connect("10.0.0.1:40000");
            let g = h.legacy_stream(c, "/sse?sessionid=OLYJ");
            let c2 = h.connect("10.0.0.1:40001");
            let tx = h.request(c2, "POST", target, &[], &initialize(0, "2025-11-25"));
            h.reply(c2, tx, 202, &[], "Accepted");
            h.event(c, g, None, &initialized(0, "2025-11-25"));
            h.finish();
            h.fired()
        };
        let fired = run("/sse?sessionid=OLYJ");
        assert!(!fired.contains(&"MCP-LEGACY-POST-ACCEPTED".to_string()), "{fired:?}");
        // A POST to the SSE URL itself, without the session, is still the incident.
        assert!(run("/sse").contains(&"MCP-LEGACY-POST-ACCEPTED".to_string()));
    }

    #[test]
    fn a_session_parameter_the_endpoint_event_names_keys_the_posts() {
        // zeromcp announces `/sse?session=...` (samples/ecosystem/pyservers2-zero-sse-py.pcap): no usual
        // name, so the announced URL's one parameter is the session's, for that server's POSTs.
        let run = |announced: &str, target: &str| {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            let g = h.legacy_stream(c, announced);
            let c2 = h.connect("10.0.0.1:40001");
            let tx = h.request(c2, "POST", target, &[], &initialize(0, "2025-11-25"));
            h.reply(c2, tx, 202, &[], "Accepted");
            h.event(c, g, None, &initialized(0, "2024-11-05"));
            h.finish();
            let fired = h.fired();
            let sessions: Vec<(String, String)> = h.records().iter().map(|r| (r.session_id.to_string(), r.era.as_str().to_string())).collect();
            (fired, sessions)
        };
        let (fired, sessions) = run("/sse?session=Z3", "/sse?session=Z3");
        assert_eq!(sessions, [("Z3".to_string(), "http+sse-2024-11-05".to_string())]);
        assert!(!fired.contains(&"MCP-LEGACY-POST-ACCEPTED".to_string()), "{fired:?}");
        // An endpoint with several parameters is not guessed at: the POST keys no HTTP+SSE session.
        let (_, sessions) = run("/sse?session=Z3&x=1", "/sse?session=Z3&x=1");
        assert_eq!(sessions, [("-".to_string(), "streamable-2025".to_string())]);
    }

    #[test]
    fn an_endpoint_without_a_session_parameter_keys_its_stream() {
        // fast-mcp 1.6 announces `/mcp/messages?`, answers each POST 200 with an empty JSON body and writes
        // every response to every open stream (samples/ecosystem/natives-ruby-two.pcap): each client's
        // stream is its session, its POSTs to the path join its latest stream, and a response written to
        // another client's stream is that session's duplicate.
        let mut h = Harness::recording();
        let mut streams = Vec::new();
        for ip in ["10.0.0.1", "10.0.0.2"] {
            let c = h.connect(&format!("{ip}:40000"));
            let g = h.legacy_stream(c, "/mcp/messages?");
            streams.push((c, g));
            let p = h.connect(&format!("{ip}:40001"));
            for (id, body) in [(0, initialize(0, "2025-11-25")), (1, tool_call(1))] {
                let tx = h.request(p, "POST", "/mcp/messages", &[], &body);
                h.reply(p, tx, 200, &["Content-Type: application/json", "Transfer-Encoding: chunked"], "");
                // Broadcast: the answer goes to every stream open so far.
                let reply = if id == 0 { initialized(0, "2024-11-05") } else { tool_result(1) };
                for &(c, g) in &streams {
                    h.event(c, g, None, &reply);
                }
            }
        }
        // The first client's next POST is still its own stream's, though the second opened one since.
        let p = h.connect("10.0.0.1:40002");
        let tx = h.request(p, "POST", "/mcp/messages", &[], &tool_call(2));
        h.reply(p, tx, 200, &["Content-Type: application/json", "Transfer-Encoding: chunked"], "");
        for &(c, g) in &streams {
            h.event(c, g, None, &tool_result(2));
        }
        h.finish();
        let sessions: Vec<(String, String, String, u64)> =
            h.records().iter().map(|r| (r.session_id.clone(), r.era.as_str().to_string(), r.endpoint.clone(), r.requests)).collect();
        // Each: the GET and its POSTs.
        let one = |requests| ("-".to_string(), "http+sse-2024-11-05".to_string(), "/mcp/messages".to_string(), requests);
        assert_eq!(sessions, [one(4), one(3)]);
        // The second client's answers reached the first client's stream: ids 0 and 1 answered twice there.
        let dups: Vec<String> = h.facts_of("duplicate_response").iter().map(|f| f.ctx.client.to_string()).collect();
        assert_eq!(dups, ["10.0.0.1:40000", "10.0.0.1:40000"]);
        assert_eq!(h.fired(), vec!["MCP-DUPLICATE-RESPONSE"]);
    }

    #[test]
    fn a_get_of_a_bare_endpoint_path_opens_the_next_stream() {
        // A server announcing its own SSE path without a parameter: the client's next GET of it (with an MCP
        // header, as Cline sends on HTTP+SSE) is a new stream (a new session), not a message of the one before.
        let mut h = Harness::recording();
        let stream = |h: &mut Harness, port: u16| {
            let c = h.connect(&format!("10.0.0.1:{port}"));
            let g = h.request(c, "GET", "/sse", &["Accept: text/event-stream", V25], "");
            h.sse(c, g, &[]);
            h.event_named(c, g, Some("endpoint"), None, "/sse?");
            (c, g)
        };
        let (c, g) = stream(&mut h, 40000);
        h.end(c, g, crate::http::MessageEnd::ClosedByFin);
        let (c2, g2) = stream(&mut h, 40001);
        let p = h.connect("10.0.0.1:40002");
        let tx = h.request(p, "POST", "/sse", &[], &tool_call(1));
        h.reply(p, tx, 202, &[], "Accepted");
        h.event(c2, g2, None, &tool_result(1));
        h.finish();
        let requests: Vec<u64> = h.records().iter().map(|r| r.requests).collect();
        assert_eq!(requests, [1, 2]);
    }

    #[test]
    fn an_error_whose_body_the_connection_cut_says_so() {
        // arcade-mcp-server after a restart: 400 with Content-Length 41, then the server's FIN before any body
        // byte (samples/ecosystem/pyservers3-arcade-restart-ts.pcap). A 400 with no body at all stays "empty".
        for (cut, body) in [(true, "cut-short"), (false, "empty")] {
            let mut h = Harness::new();
            let c = session(&mut h);
            let tx = h.post(c, &[SID, V25], &tool_call(1));
            if cut {
                h.head(c, tx, 400, &["Content-Length: 41"]);
                h.end(c, tx, crate::http::MessageEnd::Interrupted);
            } else {
                h.reply(c, tx, 400, &["Content-Length: 0"], "");
            }
            h.finish();
            let evidence: Vec<String> = h.evidence().into_iter().filter(|(id, _)| id == "MCP-BARE-ERROR").map(|(_, e)| e).collect();
            assert_eq!(evidence.len(), 1, "{cut}: {:?}", h.evidence());
            assert!(evidence[0].contains(&format!("body: {body} ")), "{cut}: {}", evidence[0]);
        }
    }

    #[test]
    fn a_get_404_that_does_not_say_why_is_judged_by_the_next_post_answer() {
        // A server restarted under its client answers the reconnect GET 404 with a page that names no
        // session (Tomcat for the Java SDK, samples/ecosystem/javasdk-restart-py.pcap): the POST after it
        // says whether the server still knew the session.
        for (next, misbehaves) in [("post 404", false), ("post 200", true), ("nothing", true), ("idle", true)] {
            let mut h = Harness::new();
            let c = session(&mut h);
            let g = h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], "");
            h.reply(c, g, 404, &["Content-Type: text/html"], "<!doctype html><title>HTTP Status 404</title>");
            match next {
                "post 404" => {
                    let tx = h.post(c, &[SID, V25], &tool_call(1));
                    h.reply(c, tx, 404, &["Content-Type: application/json"], r#"{"message":"Session not found"}"#);
                }
                "post 200" => {
                    let tx = h.post(c, &[SID, V25], &tool_call(1));
                    h.json(c, tx, &[], &tool_result(1));
                }
                "idle" => h.wait(3_600_000),
                _ => {}
            }
            let before_end = h.alarms().contains(&"MCP-GET-MISBEHAVIOR".to_string());
            h.finish();
            assert_eq!(h.alarms().contains(&"MCP-GET-MISBEHAVIOR".to_string()), misbehaves, "{next}: {:?}", h.alarms());
            // Judged when the answer that decides it came (or the session ended idle), not held to the end.
            assert_eq!(before_end, misbehaves && next != "nothing", "{next}");
        }
    }

    #[test]
    fn a_409_to_a_get_refuses_a_second_stream_only_while_the_first_is_in_flight() {
        // The SDKs refuse a second standalone stream with 409; the Ruby SDK 1.3 refuses every reconnect so
        // after WEBrick closed the only one (samples/ecosystem/othersdks-rb-restart-py.pcap).
        let get = |h: &mut Harness, c| h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], "");
        for (first, open) in [("head pending", true), ("stream open", true), ("stream ended", false)] {
            let mut h = Harness::new();
            let c = session(&mut h);
            let c1 = h.connect("10.0.0.1:40001");
            let g1 = get(&mut h, c1);
            if first != "head pending" {
                h.sse(c1, g1, &[]);
            }
            if first == "stream ended" {
                h.close_stream(c1, g1, Direction::ToClient, EndReason::Fin);
            }
            let g2 = get(&mut h, c);
            h.reply(c, g2, 409, &["Content-Type: text/plain"], "Conflict: Only one SSE stream is allowed per session");
            h.finish();
            assert_eq!(h.alarms().contains(&"MCP-GET-MISBEHAVIOR".to_string()), !open, "{first}: {:?}", h.alarms());
        }
    }

    #[test]
    fn an_id_stamped_on_an_http_sse_stream_and_its_posts_is_the_endpoint_events_session() {
        // tmcp's HTTP+SSE transport (samples/ecosystem/jsservers5-tmcp-sse.pcap) puts the session parameter
        // in an `Mcp-Session-Id` header too, on the stream's reply and on every 202: one HTTP+SSE session,
        // no endpoint "in a Streamable HTTP session".
        let run = |stream_names_it: bool| {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            let asks = if stream_names_it { vec!["Accept: text/event-stream", "Mcp-Session-Id: abc"] } else { vec!["Accept: text/event-stream"] };
            let g = h.request(c, "GET", "/sse", &asks, "");
            h.sse(c, g, &["Mcp-Session-Id: abc"]);
            h.event_named(c, g, Some("endpoint"), None, "/message?session_id=abc");
            let c2 = h.connect("10.0.0.1:40001");
            for (id, body) in [(0, initialize(0, "2025-06-18")), (1, tool_call(1))] {
                let tx = h.request(c2, "POST", "/message?session_id=abc", &["Content-Type: application/json"], &body);
                h.reply(c2, tx, 202, &["Mcp-Session-Id: abc"], "");
                h.event(c, g, None, &if id == 0 { initialized(0, "2025-06-18") } else { tool_result(1) });
            }
            h.finish();
            let sessions: Vec<(String, String, Option<String>)> =
                h.records().iter().map(|r| (r.session_id.to_string(), r.era.as_str().to_string(), r.version.as_deref().map(str::to_string))).collect();
            (h.fired(), sessions)
        };
        let (fired, sessions) = run(false);
        // One session, its handshake included (the initialize's answer on the stream gives its version).
        assert_eq!(sessions, [("abc".to_string(), "http+sse-2024-11-05".to_string(), Some("2025-06-18".to_string()))]);
        assert!(fired.is_empty(), "{fired:?}");
        // A GET that names a session is that session's: an endpoint event there is one inside it.
        let (fired, _) = run(true);
        assert!(fired.contains(&"MCP-LEGACY-POST-ACCEPTED".to_string()), "{fired:?}");
    }

    /// One address, several sites by `Host` (an ingress's virtual hosts, a forward proxy's origins): what a
    /// path serves is the site's (`samples/ecosystem/vhosts-*.pcap`).
    const MCP_SITE: &str = "Host: mcp.example.test";
    const WWW_SITE: &str = "Host: www.example.test";

    /// A session on `MCP_SITE`'s `/mcp`, then a GET of `/mcp` on `site` from another host, answered with an
    /// HTML page: the incidents.
    fn page_after_a_session(site: &str, accept: &str) -> Vec<(String, String)> {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let tx = h.post(c, &[MCP_SITE], &initialize(0, "2025-11-25"));
        h.json(c, tx, &[SID], &initialized(0, "2025-11-25"));
        let tx = h.post(c, &[MCP_SITE, SID, V25], &tool_call(1));
        h.json(c, tx, &[SID], &tool_result(1));
        let b = h.connect("10.0.0.9:50000");
        let g = h.request(b, "GET", "/mcp", &[site, accept], "");
        h.reply(b, g, 200, &["Content-Type: text/html"], "<!doctype html><title>Our MCP server</title>");
        h.finish();
        h.evidence()
    }

    #[test]
    fn a_web_page_on_another_sites_mcp_path_is_no_get_misbehavior() {
        // Even a GET that asks for a stream: another site's `/mcp` is no MCP endpoint.
        for accept in ["Accept: text/html", "Accept: text/event-stream"] {
            assert_eq!(page_after_a_session(WWW_SITE, accept).len(), 0, "{accept}");
        }
    }

    #[test]
    fn a_browsers_get_of_the_mcp_url_is_answered_with_a_page_and_a_clients_get_is_not() {
        // Gradio serves a landing page at its MCP URL to a GET that does not ask for a stream
        // (samples/ecosystem/gradio-browser.pcap): a browser's, `Accept: text/html, ..., */*`.
        let browser = "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        assert_eq!(page_after_a_session(MCP_SITE, browser).len(), 0);
        // An MCP client's GET (its Accept lists text/event-stream) answered with that page is the incident,
        // and its evidence quotes the page.
        let rows = page_after_a_session(MCP_SITE, "Accept: text/event-stream");
        let [(rule, evidence)] = rows.as_slice() else { panic!("{rows:?}") };
        assert_eq!(rule, "MCP-GET-MISBEHAVIOR");
        assert!(evidence.contains("body (html): <!doctype html><title>Our MCP server</title>"), "{evidence}");
    }

    #[test]
    fn one_5xx_on_each_of_three_sites_is_no_cascade() {
        let run = |hosts: [&str; 3]| {
            let mut h = Harness::new();
            for (i, host) in hosts.into_iter().enumerate() {
                let c = h.connect(&format!("10.0.0.1:{}", 40000 + i));
                let tx = h.post(c, &[host], &initialize(0, "2025-11-25"));
                h.reply(c, tx, 502, &["Content-Type: text/html"], "<html>502 Bad Gateway</html>");
                h.wait(500);
            }
            h.finish();
            h.fired()
        };
        let fired = run(["Host: a.example.test", "Host: b.example.test", "Host: c.example.test"]);
        assert!(!fired.contains(&"MCP-5XX-CASCADE".to_string()), "{fired:?}");
        let fired = run(["Host: a.example.test"; 3]);
        assert!(fired.contains(&"MCP-5XX-CASCADE".to_string()), "{fired:?}");
    }

    #[test]
    fn a_post_accepted_on_another_sites_sse_path_is_no_legacy_post_accepted() {
        // A site that moved to Streamable HTTP and kept its `/sse` URL, beside a legacy site's `/sse`, one client.
        // Both orders: the legacy GET first (the server's SSE paths), the POST first (the client's answers).
        let run = |legacy_first: bool, post_host: &str| {
            let mut h = Harness::new();
            let legacy = |h: &mut Harness, port: u16| {
                let c = h.connect(&format!("10.0.0.1:{port}"));
                let g = h.request(c, "GET", "/sse", &["Host: old.example.test", "Accept: text/event-stream"], "");
                h.sse(c, g, &[]);
                h.event_named(c, g, Some("endpoint"), None, "/messages/?session_id=abc");
            };
            if legacy_first {
                legacy(&mut h, 40000);
            }
            let c = h.connect("10.0.0.1:40001");
            let tx = h.request(c, "POST", "/sse", &[post_host], &initialize(0, "2025-11-25"));
            h.json(c, tx, &[SID], &initialized(0, "2025-11-25"));
            if !legacy_first {
                legacy(&mut h, 40002);
            }
            h.finish();
            h.fired()
        };
        for legacy_first in [true, false] {
            let fired = run(legacy_first, "Host: new.example.test");
            assert!(!fired.contains(&"MCP-LEGACY-POST-ACCEPTED".to_string()), "{legacy_first}: {fired:?}");
            // A POST accepted on the legacy site's own `/sse` is the incident, in either order.
            let fired = run(legacy_first, "Host: old.example.test");
            assert!(fired.contains(&"MCP-LEGACY-POST-ACCEPTED".to_string()), "{legacy_first}: {fired:?}");
        }
    }

    #[test]
    fn a_legacy_get_stream_is_its_announced_sessions_first_exchange() {
        // INCIDENTS.md ties an HTTP+SSE session to the GET stream that announced it: the GET is the
        // session's first exchange, whether it was keyed at its head (the Vercel AI SDK's `sse` transport
        // sends MCP-Protocol-Version on it, samples/ecosystem/indie.md: a session-less placeholder that
        // joins) or only by its `endpoint` event. One session, recorded whole.
        let run = |headers: &[&str]| {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            let g = h.request(c, "GET", "/sse", headers, "");
            h.sse(c, g, &[]);
            h.event_named(c, g, Some("endpoint"), None, "/messages?sessionId=abc");
            let c2 = h.connect("10.0.0.1:40001");
            let tx = h.request(c2, "POST", "/messages?sessionId=abc", &[], &initialize(0, "2025-11-25"));
            h.reply(c2, tx, 202, &[], "Accepted");
            h.event(c, g, None, &initialized(0, "2025-11-25"));
            h.finish();
            let records = h.records();
            (h.t.stats().sessions_by_era.clone(), records)
        };
        for headers in [&["Accept: text/event-stream"][..], &["Accept: text/event-stream", "MCP-Protocol-Version: 2025-11-25"]] {
            let (eras, records) = run(headers);
            assert_eq!(eras.into_iter().collect::<Vec<_>>(), vec![(crate::facts::Era::HttpSse2024, 1)], "{headers:?}");
            assert_eq!(records.len(), 1, "{records:?}");
            // With the header or without, the GET is one of the session's requests, and the first.
            assert_eq!((records[0].requests, records[0].resp_sse, records[0].client.map(|c| c.port())), (2, 1, Some(40000)), "{headers:?}");
            assert_eq!(records[0].host, "127.0.0.1:8000", "{headers:?}");
        }
    }

    #[test]
    fn a_legacy_session_without_a_handshake_speaks_the_version_its_accepted_requests_declare() {
        // Strands on the Python 2.x client over HTTP+SSE (samples/ecosystem/agents2-strands-sse.pcap): no
        // initialize, `server/discover` and every request with a 2026-07-28 `_meta` protocol version and no
        // version header. The era names the transport, so only the version column can say what the session
        // speaks; a handshake's negotiated version wins over a declaration, and a refused declaration
        // declares nothing.
        let run = |handshake: bool, status: u16| {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            let g = h.legacy_stream(c, "/messages?sessionId=abc");
            let c2 = h.connect("10.0.0.1:40001");
            if handshake {
                let tx = h.request(c2, "POST", "/messages?sessionId=abc", &[], &initialize(0, "2025-11-25"));
                h.reply(c2, tx, 202, &[], "Accepted");
                h.event(c, g, None, &initialized(0, "2025-06-18"));
            }
            let meta = r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#;
            let tx = h.request(c2, "POST", "/messages?sessionId=abc", &[], &call(1, "server/discover", meta));
            h.reply(c2, tx, status, &[], "Accepted");
            h.finish();
            let records = h.records();
            assert_eq!(records.len(), 1, "{records:?}");
            (records[0].era, records[0].version.clone())
        };
        let sse = crate::facts::Era::HttpSse2024;
        assert_eq!(run(false, 202), (sse, Some("2026-07-28".to_string())));
        assert_eq!(run(true, 202), (sse, Some("2025-06-18".to_string())));
        assert_eq!(run(false, 400), (sse, None));
    }

    #[test]
    fn the_get_of_a_fallback_belongs_to_the_session_it_announces_not_to_the_refused_handshake() {
        // The Python SDK client's fallback (samples/inc-legacy-fallback.pcap): initialize POSTed to /sse and
        // refused 405, then GET /sse, whose `endpoint` event names the legacy session. The refused attempt
        // stays a session of its own (the incident about its answer is its), with that one exchange; the
        // GET is the legacy session's first, as when no initialize came before it.
        for status in [405, 404, 500] {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            let tx = h.request(c, "POST", "/sse", &[], &initialize(0, "2025-11-25"));
            h.reply(c, tx, status, &["Content-Type: text/plain"], "no");
            let c2 = h.connect("10.0.0.1:40001");
            h.legacy_stream(c2, "/messages/?session_id=abc");
            h.finish();
            let records = h.records();
            let rows: Vec<(&str, u64, u64, u64, Option<u16>)> =
                records.iter().map(|r| (r.session_id.as_str(), r.requests, r.resp_sse, r.resp_other, r.client.map(|c| c.port()))).collect();
            assert_eq!(rows, vec![("-", 1, 0, 1, Some(40000)), ("abc", 1, 1, 0, Some(40001))], "{status}: {records:?}");
        }
    }

    #[test]
    fn a_refused_initialize_is_an_attempt_of_unknown_era_and_the_accepted_retry_a_2025_session() {
        // The conformance clients' auth scenarios (401 before a token) and the fallback samples (405 from a
        // legacy server's `/sse`): nothing was negotiated, so the attempt's era is not streamable-2025
        // (INCIDENTS.md "era"). The retry the server accepts is the handshake.
        for (status, media) in [(401, "application/json"), (405, "text/plain")] {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            let tx = h.post(c, &[], &initialize(0, "2025-11-25"));
            h.reply(c, tx, status, &[&format!("Content-Type: {media}")], r#"{"error":"no"}"#);
            let tx = h.post(c, &["Authorization: Bearer t"], &initialize(1, "2025-11-25"));
            h.json(c, tx, &[], &initialized(1, "2025-11-25"));
            h.finish();
            let records = h.records();
            let rows: Vec<(crate::facts::Era, Option<&str>, u64)> =
                records.iter().map(|r| (r.era, r.version.as_deref(), r.requests)).collect();
            assert_eq!(
                rows,
                vec![(crate::facts::Era::Unknown, None, 1), (crate::facts::Era::Streamable2025, Some("2025-11-25"), 1)],
                "{status}: {records:?}"
            );
            let eras: Vec<(crate::facts::Era, u64)> = h.t.stats().sessions_by_era.clone().into_iter().collect();
            assert_eq!(eras, vec![(crate::facts::Era::Unknown, 1), (crate::facts::Era::Streamable2025, 1)]);
        }
    }

    #[test]
    fn a_handshake_after_a_minted_2026_probe_is_one_2025_session_in_the_inventory_and_the_summary() {
        // The conformance suite's Python client (samples/ecosystem/conformance-0.1.16-py-client-2025-11-25.pcap):
        // `server/discover` without a session id, answered with a minted one, then `initialize` with that id.
        // One session, a 2025 one by its handshake (INCIDENTS.md "era"): the inventory kept the probe's era,
        // and the summary counted a second, empty session, the anonymous key the probe had at its request.
        let mut h = Harness::recording();
        let c = h.connect("10.0.0.1:40000");
        let tx = h.post(c, &["MCP-Protocol-Version: 2026-07-28"], &call(1, "server/discover", "{}"));
        h.json(c, tx, &[SID], &result(1, r#"{"supportedVersions":["2026-07-28"]}"#));
        let tx = h.post(c, &[SID], &initialize(2, "2025-11-25"));
        h.json(c, tx, &[SID], &initialized(2, "2025-03-26"));
        let tx = h.post(c, &[SID, "MCP-Protocol-Version: 2025-03-26"], &tool_call(3));
        h.json(c, tx, &[SID], &tool_result(3));
        h.finish();
        let eras: Vec<(crate::facts::Era, u64)> = h.t.stats().sessions_by_era.clone().into_iter().collect();
        assert_eq!(eras, vec![(crate::facts::Era::Streamable2025, 1)]);
        let records = h.records();
        let rows: Vec<(&str, crate::facts::Era, Option<&str>, u64)> =
            records.iter().map(|r| (r.session_id.as_str(), r.era, r.version.as_deref(), r.requests)).collect();
        assert_eq!(rows, vec![("aaaa", crate::facts::Era::Streamable2025, Some("2025-03-26"), 3)]);
    }

    #[test]
    fn a_refused_2026_probe_is_an_attempt_of_unknown_era_until_the_server_accepts_one() {
        // The Python 2.x client's auto mode (fastmcp-ts-stream-py-auto, gradio-streamable-py-auto, servers-*-py,
        // the conformance 2025 mocks): `server/discover` refused 400 by a 2025 server, then `initialize`. The probe
        // declared 2026-07-28 and negotiated nothing, so its row says unknown, as a refused initialize's does; the
        // summary counted one stateless session per such client. A refusal after an accepted 2026 exchange, or an
        // accepted retry on the same key, leaves the stateless era.
        type Rows = (Vec<(crate::facts::Era, Option<String>, u64)>, Vec<(crate::facts::Era, u64)>);
        let run = |statuses: &[u16]| -> Rows {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            for (i, status) in statuses.iter().enumerate() {
                let id = i as i64 + 1;
                let tx = h.post(c, &["MCP-Protocol-Version: 2026-07-28"], &call(id, "server/discover", "{}"));
                if *status < 300 {
                    h.json(c, tx, &[], &result(id, r#"{"supportedVersions":["2026-07-28"]}"#));
                } else {
                    h.reply(c, tx, *status, &["Content-Type: application/json"], &format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32000,"message":"Unsupported protocol version"}}}}"#));
                }
            }
            let tx = h.post(c, &[], &initialize(9, "2025-11-25"));
            h.json(c, tx, &[SID], &initialized(9, "2025-11-25"));
            h.finish();
            let rows = h.records().iter().map(|r| (r.era, r.version.clone(), r.requests)).collect();
            (rows, h.t.stats().sessions_by_era.clone().into_iter().collect())
        };
        use crate::facts::Era::{Stateless2026, Streamable2025, Unknown};
        let v = Some("2025-11-25".to_string());
        let (unknown, stateless) = (vec![(Unknown, 1), (Streamable2025, 1)], vec![(Streamable2025, 1), (Stateless2026, 1)]);
        assert_eq!(run(&[400]), (vec![(Unknown, None, 1), (Streamable2025, v.clone(), 1)], unknown.clone()));
        assert_eq!(run(&[401, 403]), (vec![(Unknown, None, 2), (Streamable2025, v.clone(), 1)], unknown.clone()));
        // A redirect negotiated nothing: the Python SDK 1.x's 307 to `/mcp/` (eras2-py23-to-py19).
        assert_eq!(run(&[307]), (vec![(Unknown, None, 1), (Streamable2025, v.clone(), 1)], unknown));
        // An accepted declaration is the version the stateless row speaks.
        let modern = Some("2026-07-28".to_string());
        assert_eq!(run(&[400, 200]), (vec![(Stateless2026, modern.clone(), 2), (Streamable2025, v.clone(), 1)], stateless.clone()));
        assert_eq!(run(&[200, 400]), (vec![(Stateless2026, modern, 2), (Streamable2025, v, 1)], stateless.clone()));

        // Two probes in flight on one key, the refusal of the second answered first: the acceptance that
        // follows still makes the key stateless.
        let mut h = Harness::recording();
        let c = h.connect("10.0.0.1:40000");
        let d = h.connect("10.0.0.1:40001");
        let first = h.post(c, &["MCP-Protocol-Version: 2026-07-28"], &call(1, "server/discover", "{}"));
        let second = h.post(d, &["MCP-Protocol-Version: 2026-07-28"], &call(2, "tools/list", "{}"));
        h.reply(d, second, 429, &["Content-Type: application/json"], r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"slow down"}}"#);
        h.json(c, first, &[], &result(1, r#"{"supportedVersions":["2026-07-28"]}"#));
        let tx = h.post(c, &[], &initialize(9, "2025-11-25"));
        h.json(c, tx, &[SID], &initialized(9, "2025-11-25"));
        h.finish();
        let eras: Vec<(crate::facts::Era, u64)> = h.t.stats().sessions_by_era.clone().into_iter().collect();
        assert_eq!(eras, stateless);
    }

    #[test]
    fn a_refused_get_with_a_stamped_session_id_is_an_attempt_of_unknown_era() {
        // mcp-use's and mcp-remote's first GET (agents-mcp-use, gateways-mcp-remote-streamable): the Python
        // server answers 400/406 with a fresh `mcp-session-id` that no request ever uses. The id keys nothing,
        // and nothing was negotiated: the attempt is not a streamable-2025 session.
        for status in [400, 406] {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            let g = h.request(c, "GET", "/mcp", &["Accept: text/event-stream", "MCP-Protocol-Version: 2025-11-25"], "");
            h.reply(c, g, status, &["Content-Type: application/json", SID], r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request: Missing session ID"}}"#);
            h.finish();
            let eras: Vec<crate::facts::Era> = h.records().iter().map(|r| r.era).collect();
            assert_eq!(eras, vec![crate::facts::Era::Unknown], "{status}");
        }
    }

    #[test]
    fn a_fallback_names_the_host_of_the_get_that_announced_its_session() {
        // The fallback is raised at the `endpoint` event, before any POST of the new session named a Host:
        // its row carried an empty host (every fallback sample until this test).
        for with_recorder in [false, true] {
            let mut h = if with_recorder { Harness::recording() } else { Harness::new() };
            let c = h.connect("10.0.0.1:40000");
            let tx = h.request(c, "POST", "/sse", &[], &initialize(0, "2025-11-25"));
            h.reply(c, tx, 405, &["Content-Type: text/plain"], "no");
            h.legacy_stream(c, "/messages/?session_id=abc");
            let hosts: Vec<String> = h.facts_of("fallback").iter().map(|f| f.ctx.host.to_string()).collect();
            assert_eq!(hosts, vec!["127.0.0.1:8000".to_string()], "recorder {with_recorder}");
        }
    }

    /// A POST rejected with `status`, then a GET of `get_path` that is given an `endpoint` event.
    fn fallback(status: u16, get_path: &str) -> Vec<String> {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let tx = h.request(c, "POST", "/sse", &[], &initialize(0, "2025-11-25"));
        h.reply(c, tx, status, &["Content-Type: text/plain"], "no");
        let g = h.request(c, "GET", get_path, &["Accept: text/event-stream"], "");
        h.sse(c, g, &[]);
        h.event_named(c, g, Some("endpoint"), None, "/messages/?session_id=abc");
        h.finish();
        h.alarms()
    }

    #[test]
    fn a_legacy_session_with_another_server_is_no_fallback_from_a_rejected_post() {
        // Through a forward proxy one agent's servers share the proxy's address: origin A refuses the
        // initialize (401: its OAuth is not set up), then the agent opens its legacy session with origin B.
        // That is no fallback; a GET to A's own Host is (samples/ecosystem/egress.md).
        let run = |get_host: &str| {
            let mut h = Harness::new();
            let c = h.connect("10.0.0.1:40000");
            let tx = h.request(c, "POST", "http://a.example/mcp", &["Host: a.example"], &initialize(0, "2025-11-25"));
            h.reply(c, tx, 401, &["WWW-Authenticate: Bearer", "Content-Type: application/json"], r#"{"error":"invalid_token"}"#);
            let g = h.request(c, "GET", &format!("http://{get_host}/sse"), &[&format!("Host: {get_host}"), "Accept: text/event-stream"], "");
            h.sse(c, g, &[]);
            h.event_named(c, g, Some("endpoint"), None, "/messages/?session_id=abc");
            h.finish();
            h.alarms()
        };
        assert_eq!(run("b.example"), Vec::<String>::new());
        assert_eq!(run("a.example"), vec!["MCP-FALLBACK-UNJUSTIFIED", "MCP-LEGACY-FALLBACK"]);
    }

    #[test]
    fn fallback_after_a_4xx_is_legacy_fallback_only() {
        assert_eq!(fallback(405, "/sse"), vec!["MCP-LEGACY-FALLBACK"]);
    }

    #[test]
    fn fallback_after_a_500_is_unjustified_only() {
        assert_eq!(fallback(500, "/sse"), vec!["MCP-FALLBACK-UNJUSTIFIED"]);
    }

    #[test]
    fn an_initialize_the_client_gave_up_on_is_what_it_fell_back_from() {
        // @vercel/mcp-adapter 0.5 answers a POST to its legacy URL with the `endpoint` event and nothing more;
        // the TypeScript SDK's fallback example gives up after 60 s and GETs the URL (samples/ecosystem/
        // situations5-vercel-fallback-ts.pcap): a fallback on a timeout, which no era allows.
        let run = |body: &str| {
            let mut h = Harness::new();
            let c = h.connect("10.0.0.1:40000");
            let tx = h.request(c, "POST", "/sse", &["Accept: application/json, text/event-stream"], body);
            h.sse(c, tx, &[]);
            h.event_named(c, tx, Some("endpoint"), None, "/message?sessionId=abc");
            h.wait(60_000);
            h.close_stream(c, tx, Direction::ToServer, EndReason::Fin);
            let c2 = h.connect("10.0.0.1:40001");
            let g = h.request(c2, "GET", "/sse", &["Accept: text/event-stream"], "");
            h.sse(c2, g, &[]);
            h.event_named(c2, g, Some("endpoint"), None, "/message?sessionId=def");
            h.finish();
            (h.alarms(), h.evidence())
        };
        let (alarms, evidence) = run(&initialize(0, "2025-11-25"));
        assert!(alarms.contains(&"MCP-FALLBACK-UNJUSTIFIED".to_string()), "{alarms:?}");
        assert!(!alarms.contains(&"MCP-LEGACY-FALLBACK".to_string()), "{alarms:?}");
        assert!(evidence.iter().any(|(id, e)| id == "MCP-FALLBACK-UNJUSTIFIED" && e.contains("failed with timeout")), "{evidence:?}");
        // A tool call the client stops waiting for is no handshake: nothing it falls back from.
        let (alarms, _) = run(&tool_call(3));
        assert!(!alarms.contains(&"MCP-FALLBACK-UNJUSTIFIED".to_string()), "{alarms:?}");
    }

    #[test]
    fn unknown_session_answered_400_is_a_session_status_incident() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.reply(c, tx, 400, &["Content-Type: application/json"], &error("null", -32000, "Bad Request: No valid session ID provided"));
        h.finish();
        assert!(h.alarms().contains(&"MCP-SESSION-STATUS".to_string()), "{:?}", h.alarms());
    }

    #[test]
    fn a_get_answered_after_a_stream_broke_is_no_reconnect_unless_sent_after_it() {
        // Bun's GET head comes whole only at the stream's end (`HttpAnomaly::UnfinishedHead`), after a
        // POST stream broke (samples/ecosystem/runtimes-bun-idle-resume.pcap): the GET was sent before
        // anything broke, so it is the session's first, not a reconnect that forgot its cursor.
        for get_after_break in [false, true] {
            let mut h = Harness::new();
            let c = session(&mut h);
            let first = h.post(c, &[SID, V25], &tool_call(1));
            h.sse(c, first, &[]);
            h.event(c, first, Some("e1"), &tool_result(1));
            h.end(c, first, crate::http::MessageEnd::Complete);
            let g = h.connect("10.0.0.1:40100");
            let early_get = (!get_after_break).then(|| h.request(g, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], ""));
            let p = h.connect("10.0.0.1:40101");
            let cut = h.post(p, &[SID, V25], &tool_call(2));
            h.sse(p, cut, &[]);
            h.close_stream(p, cut, Direction::ToClient, EndReason::Fin);
            let get = early_get.unwrap_or_else(|| h.request(g, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], ""));
            h.sse(g, get, &[]);
            h.finish();
            let missing = h.alarms().contains(&"MCP-RESUME-MISSING-CURSOR".to_string());
            assert_eq!(missing, get_after_break, "GET sent after the break: {get_after_break}: {:?}", h.alarms());
        }
    }

    #[test]
    fn stream_lost_by_the_capture_is_no_verdict_on_the_peers() {
        for gap in [false, true] {
            let mut h = Harness::new();
            let c = h.connect("10.0.0.1:40000");
            handshake(&mut h, c, "2025-11-25", "2025-11-25", "aaaa");
            let tx = h.post(c, &[SID, V25], &tool_call(1));
            h.sse(c, tx, &[]);
            if gap {
                h.gap(c, 1_000);
            }
            h.close_stream(c, tx, Direction::ToClient, EndReason::Fin);
            h.finish();
            let lost = h.alarms().contains(&"MCP-STREAM-LOST".to_string());
            assert_eq!(lost, !gap, "gap {gap}: {:?}", h.alarms());
            assert_eq!(h.fired().contains(&"CAPTURE-GAPS".to_string()), gap);
        }
    }

    #[test]
    fn stream_closed_by_the_client_or_carrying_ids_is_not_lost() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.sse(c, tx, &[]);
        h.close_stream(c, tx, Direction::ToServer, EndReason::Fin);
        let c2 = h.connect("10.0.0.1:40001");
        let tx = h.post(c2, &[SID, V25], &tool_call(2));
        h.sse(c2, tx, &[]);
        h.event(c2, tx, Some("7"), "");
        h.close_stream(c2, tx, Direction::ToClient, EndReason::Fin);
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn an_http_sse_stream_cut_while_it_owes_an_accepted_request_is_lost() {
        // restartpy-pysdk-sse-midcall: the server dies while a tools/call POSTed to the session's message URL
        // (202) waits for its answer on the GET stream; the Python client then closes the transport. The
        // same cut after the answer arrived, or closed by the client, loses nothing.
        for (answered, closer) in [(false, Direction::ToClient), (true, Direction::ToClient), (false, Direction::ToServer)] {
            let mut h = Harness::new();
            let c = h.connect("10.0.0.1:40000");
            let g = h.legacy_stream(c, "/messages/?session_id=abc");
            let c2 = h.connect("10.0.0.1:40001");
            let tx = h.request(c2, "POST", "/messages/?session_id=abc", &[], &initialize(0, "2024-11-05"));
            h.reply(c2, tx, 202, &[], "Accepted");
            h.event(c, g, None, &initialized(0, "2024-11-05"));
            let tx = h.request(c2, "POST", "/messages/?session_id=abc", &[], &tool_call(1));
            h.reply(c2, tx, 202, &[], "Accepted");
            if answered {
                h.event(c, g, None, &tool_result(1));
            }
            h.close_stream(c, g, closer, EndReason::Fin);
            h.finish();
            let lost = h.alarms().contains(&"MCP-STREAM-LOST".to_string());
            assert_eq!(lost, !answered && closer == Direction::ToClient, "answered {answered}, {closer:?}: {:?}", h.alarms());
        }
        // The answer on the stream can come before the POST's 202 (the server queues it, then acknowledges):
        // the stream owes nothing when it ends.
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let g = h.legacy_stream(c, "/messages/?session_id=abc");
        let c2 = h.connect("10.0.0.1:40001");
        let tx = h.request(c2, "POST", "/messages/?session_id=abc", &[], &tool_call(1));
        h.event(c, g, None, &tool_result(1));
        h.reply(c2, tx, 202, &[], "Accepted");
        h.close_stream(c, g, Direction::ToClient, EndReason::Fin);
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn a_202_labelled_event_stream_is_an_acknowledgement_not_a_reply_stream() {
        // Cloudflare's Agents SDK answers each POST `202 text/event-stream` with the body `Accepted`, the
        // replies going on the GET stream; here after a JSON reply, in a Streamable HTTP session.
        let mut h = Harness::new();
        let c = session(&mut h);
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.json(c, tx, &[], &tool_result(1));
        let get = h.request(c, "GET", "/mcp", &[SID, V25, "Accept: text/event-stream"], "");
        h.sse(c, get, &[]);
        let c2 = h.connect("10.0.0.1:40001");
        let tx = h.post(c2, &[SID, V25], &tool_call(2));
        h.event(c, get, None, &tool_result(2));
        h.reply(c2, tx, 202, &["Content-Type: text/event-stream", "Content-Length: 8"], "Accepted");
        // The next JSON reply follows a JSON reply: no shift either way.
        let tx = h.post(c, &[SID, V25], &tool_call(3));
        h.json(c, tx, &[], &tool_result(3));
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
        assert!(h.facts_of("response_shift").is_empty(), "a 202 is no SSE reply between JSON ones");
    }
}

//! MCP sessions: identity (INCIDENTS.md "session") and the per-session facts the classifier keeps.
//! A session spans every TCP connection that carries its key.

use std::collections::BTreeMap;
use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

use crate::keyed::{WireMap, WireState};
use std::net::{IpAddr, SocketAddr};

use super::event_ids::Issue;
use crate::facts::Era;
use crate::time::Timestamp;

/// Cancelled request ids kept per session (the latest).
const MAX_CANCELLED: usize = 16;

/// How a session is identified on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SessionIdent {
    /// Streamable HTTP: `Mcp-Session-Id` (2025-03-26 transports, "Session Management").
    McpSessionId(Arc<str>),
    /// HTTP+SSE: the session parameter of the POST URL announced in the `endpoint` event.
    LegacyParam(Arc<str>),
    /// HTTP+SSE whose `endpoint` event names no session parameter (fast-mcp's `/mcp/messages?`): the GET
    /// stream that announced it (its request's frame), joined by its client's POSTs to the announced path.
    LegacyStream { client: IpAddr, stream: u64 },
    /// No session on the wire: client address, the `Host` and endpoint the requests name, the `_meta`
    /// `clientInfo.name` when present, and the `initialize` handshake the requests follow (a serial per
    /// handshake; 0 for stateless 2026-07-28 exchanges, which have none). A Streamable HTTP server that
    /// mints no session id thus gets one session per handshake, never one per IP address (INCIDENTS.md
    /// "session"); the `Host` keeps apart the origins one address fronts (a forward proxy's, whose
    /// clients send every origin's requests to it on the same path).
    Anonymous { client: IpAddr, host: Arc<str>, endpoint: Arc<str>, client_name: Option<Arc<str>>, handshake: u64 },
}

impl SessionIdent {
    /// An HTTP+SSE session: its POSTs are answered on the GET stream.
    pub fn is_legacy(&self) -> bool {
        matches!(self, SessionIdent::LegacyParam(_) | SessionIdent::LegacyStream { .. })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SessionKey {
    pub server: SocketAddr,
    pub ident: SessionIdent,
}

/// A session key borrowed from a request (its header, its URL, its body), to find the session without
/// building an owned key first: most exchanges belong to a session that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyRef<'a> {
    pub server: SocketAddr,
    pub ident: IdentRef<'a>,
}

/// [`SessionIdent`], borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdentRef<'a> {
    McpSessionId(&'a str),
    LegacyParam(&'a str),
    LegacyStream { client: IpAddr, stream: u64 },
    Anonymous { client: IpAddr, host: &'a str, endpoint: &'a str, client_name: Option<&'a str>, handshake: u64 },
}

impl KeyRef<'_> {
    pub fn to_owned_key(self) -> SessionKey {
        let ident = match self.ident {
            IdentRef::McpSessionId(s) => SessionIdent::McpSessionId(s.into()),
            IdentRef::LegacyParam(s) => SessionIdent::LegacyParam(s.into()),
            IdentRef::LegacyStream { client, stream } => SessionIdent::LegacyStream { client, stream },
            IdentRef::Anonymous { client, host, endpoint, client_name, handshake } => {
                SessionIdent::Anonymous { client, host: host.into(), endpoint: endpoint.into(), client_name: client_name.map(Arc::from), handshake }
            }
        };
        SessionKey { server: self.server, ident }
    }
}

/// What the session map is looked up by: an owned key or a borrowed one, hashed and compared as the same
/// [`KeyRef`] (so `HashMap<SessionKey, _>` can be searched with either).
pub trait AsKeyRef {
    fn key_ref(&self) -> KeyRef<'_>;
}

impl AsKeyRef for SessionKey {
    fn key_ref(&self) -> KeyRef<'_> {
        let ident = match &self.ident {
            SessionIdent::McpSessionId(s) => IdentRef::McpSessionId(s),
            SessionIdent::LegacyParam(s) => IdentRef::LegacyParam(s),
            SessionIdent::LegacyStream { client, stream } => IdentRef::LegacyStream { client: *client, stream: *stream },
            SessionIdent::Anonymous { client, host, endpoint, client_name, handshake } => {
                IdentRef::Anonymous { client: *client, host, endpoint, client_name: client_name.as_deref(), handshake: *handshake }
            }
        };
        KeyRef { server: self.server, ident }
    }
}

impl AsKeyRef for KeyRef<'_> {
    fn key_ref(&self) -> KeyRef<'_> {
        *self
    }
}

impl std::hash::Hash for dyn AsKeyRef + '_ {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key_ref().hash(h);
    }
}

impl PartialEq for dyn AsKeyRef + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.key_ref() == other.key_ref()
    }
}

impl Eq for dyn AsKeyRef + '_ {}

// The owned key hashes as its borrowed form, so both find the same entry (`Borrow`'s contract).
impl std::hash::Hash for SessionKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key_ref().hash(h);
    }
}

impl<'a> std::borrow::Borrow<dyn AsKeyRef + 'a> for SessionKey {
    fn borrow(&self) -> &(dyn AsKeyRef + 'a) {
        self
    }
}

impl SessionKey {
    /// The `session_id` column: the id, or `-` where the wire carries none.
    pub fn display_id(&self) -> &str {
        match &self.ident {
            SessionIdent::McpSessionId(s) | SessionIdent::LegacyParam(s) => s,
            SessionIdent::LegacyStream { .. } | SessionIdent::Anonymous { .. } => "-",
        }
    }

    /// A unique string for aggregation (incidents are per rule and session).
    pub fn unique(&self) -> String {
        match &self.ident {
            SessionIdent::McpSessionId(s) => format!("{} sid {}", self.server, s),
            SessionIdent::LegacyParam(s) => format!("{} legacy {}", self.server, s),
            SessionIdent::LegacyStream { client, stream } => format!("{} legacy-stream {} {}", self.server, client, stream),
            SessionIdent::Anonymous { client, host, endpoint, client_name, handshake } => {
                format!("{} anon {} {} {} {} {}", self.server, client, host, endpoint, client_name.as_deref().unwrap_or("-"), handshake)
            }
        }
    }
}

/// Content type class of a POST response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyType {
    Json,
    Sse,
}

impl BodyType {
    pub fn from_media(media: Option<&str>) -> Option<BodyType> {
        match media {
            Some("application/json") => Some(BodyType::Json),
            Some("text/event-stream") => Some(BodyType::Sse),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            BodyType::Json => "application/json",
            BodyType::Sse => "text/event-stream",
        }
    }
}

/// The previous POST response of a session, against which the next is compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastPost {
    pub body: BodyType,
    pub frame: u64,
    pub server_hdr: String,
    pub session_id: Option<std::sync::Arc<str>>,
}

#[derive(Debug)]
pub struct Session {
    pub key: SessionKey,
    /// `SessionKey::unique`, and the id as rules see it (`display_id`): shared with every fact of the
    /// session, as are `host` and `version`.
    pub unique: Arc<str>,
    pub id: Arc<str>,
    pub era: Era,
    /// Version the client asked for in `initialize`.
    pub requested_version: Option<String>,
    /// Version the server answered in the `initialize` result.
    pub version: Option<Arc<str>>,
    /// Version the session's first accepted 2026-07-28 request declared: what it speaks where no handshake
    /// negotiated one (the inventory's `version`; facts and rules see only the negotiated one).
    pub declared_version: Option<Arc<str>>,
    pub host: Arc<str>,
    pub endpoint: String,
    pub first_seen: Timestamp,
    pub last_seen: Timestamp,
    pub post_json: u64,
    pub post_sse: u64,
    pub last_post: Option<LastPost>,
    /// A 4xx/5xx was answered since `last_post`.
    pub error_since_last_post: bool,
    /// Event ids issued in this session, with the stream that issued each and its issue order (bounded
    /// by `Limits::max_event_ids_per_session`).
    pub event_ids: super::event_ids::EventIds,
    pub ids_issued: u64,
    /// When the first GET stream ended, or POST stream ended before its response: a GET sent after it
    /// is a reconnect. A time, not a count at the GET's answer: a head that came late (read at the end
    /// of its direction, `HttpAnomaly::UnfinishedHead`) must not make its GET a reconnect of a stream
    /// that broke after the GET was sent.
    pub first_break: Option<Timestamp>,
    /// A 2xx answered a request of this session.
    pub seen_ok: bool,
    /// Answers to GETs of the session 404 without saying why, held until the next answer to a POST of the
    /// session says whether the server still knows it (`response::release_held_gets`).
    pub held_gets: Vec<crate::facts::Fact>,
    /// Response ids delivered, with the frame and stream (0 for JSON bodies) that delivered them.
    pub answered: WireMap<crate::jsonrpc::Id, (u64, u64)>,
    /// Request ids sent and not yet answered, with how many requests carry each (ids are reused once
    /// answered, and stateless clients may have two in flight).
    pub outstanding: WireMap<crate::jsonrpc::Id, u32>,
    /// Request ids the client gave up on (`notifications/cancelled`) and when, the latest [`MAX_CANCELLED`]:
    /// a stream that ends owing only requests cancelled after they were sent lost nothing (MCP 2025-11-25
    /// utilities/cancellation: the receiver should not answer a cancelled request). The time keeps a
    /// cancellation to the requests before it when the id comes back on a new one.
    pub cancelled: Vec<(crate::jsonrpc::Id, Timestamp)>,
    /// An `initialize` handshake of this session was seen: its era is the negotiated one.
    pub handshake: bool,
    /// HTTP+SSE: requests POSTed (answered 202) whose responses come on the GET stream.
    pub legacy_pending: Vec<crate::jsonrpc::Id>,
    /// HTTP+SSE: the version an `initialize` POSTed to the message URL asked for, and its frame, until its
    /// result comes on the GET stream (which may be before the POST's 202).
    pub legacy_init: Option<(String, u64)>,
    pub event_ids_full: bool,
    /// Some stream of this session lost bytes to a capture gap.
    pub gap: bool,
    /// Final responses bound to this session (an established session has more than one).
    pub exchanges: u64,
    /// This session's entry in the table's activity index ([`SessionTable`]).
    pub lru: LruSlot,
}

impl Session {
    pub fn new(key: SessionKey, ts: Timestamp) -> Session {
        let unique = key.unique().into();
        let id = key.display_id().into();
        Session {
            key,
            unique,
            id,
            era: Era::Unknown,
            requested_version: None,
            version: None,
            declared_version: None,
            host: "".into(),
            endpoint: String::new(),
            first_seen: ts,
            last_seen: ts,
            post_json: 0,
            post_sse: 0,
            last_post: None,
            error_since_last_post: false,
            event_ids: Default::default(),
            ids_issued: 0,
            first_break: None,
            held_gets: Vec::new(),
            seen_ok: false,
            answered: WireMap::default(),
            outstanding: WireMap::default(),
            cancelled: Vec::new(),
            handshake: false,
            legacy_pending: Vec::new(),
            legacy_init: None,
            event_ids_full: false,
            gap: false,
            exchanges: 0,
            lru: LruSlot { at: ts, serial: 0, protected: false },
        }
    }

    /// Sets the era from the first request that shows one; one session has one era (a 2025 session's
    /// DELETE can share a connection with 2026 requests).
    pub fn observe_era(&mut self, era: Era) {
        if self.era == Era::Unknown {
            self.era = era;
        }
    }

    /// An `initialize` handshake belongs to this session. The negotiated version decides the era
    /// (INCIDENTS.md "era"): a client that sends `Mcp-Method` headers or asks for 2026-07-28 in
    /// `initialize` and is answered 2025-11-25 runs a Streamable HTTP session.
    pub fn observe_handshake(&mut self) {
        self.handshake = true;
        if self.era != Era::HttpSse2024 {
            self.era = Era::Streamable2025;
        }
    }

    /// A request that declared 2026-07-28 was refused (4xx/5xx) or redirected (3xx). Until the server has accepted one, the
    /// declaration negotiated nothing: the server may not speak that revision at all (a 2025 server's 400
    /// to the Python 2.x client's `server/discover` probe, before it falls back to `initialize`), so the
    /// attempt's era is unknown, as a refused `initialize`'s is (INCIDENTS.md "era"). The next request that
    /// declares 2026-07-28 sets the era again.
    pub fn observe_refused_2026(&mut self) {
        if self.era == Era::Stateless2026 && !self.seen_ok && !self.handshake {
            self.era = Era::Unknown;
        }
    }

    /// A request with these ids was sent in the session (bounded by `cap` distinct ids).
    pub fn request_sent(&mut self, ids: &[crate::jsonrpc::Id], cap: usize) {
        for id in ids {
            // Below the cap, as nearly always, one lookup (the id is hashed once) for a new id and a
            // repeated one alike; a new id is cloned either way.
            if self.outstanding.len() < cap {
                // ALLOC: one outstanding id, bounded by limits::max_pending_per_session x 4
                let n = self.outstanding.entry(id.clone()).or_insert(0);
                *n = n.saturating_add(1);
            } else if let Some(n) = self.outstanding.get_mut(id) {
                *n = n.saturating_add(1);
            }
        }
    }

    /// The client cancelled its request `id` at `at`.
    pub fn cancel(&mut self, id: crate::jsonrpc::Id, at: Timestamp) {
        self.cancelled.retain(|(c, _)| *c != id);
        if self.cancelled.len() >= MAX_CANCELLED {
            self.cancelled.remove(0);
        }
        // ALLOC: a cancelled id, at most MAX_CANCELLED per session
        self.cancelled.push((id, at));
    }

    /// Of `pending`, sent at `sent`, the ids the client did not cancel since.
    pub fn owed<'a>(&'a self, pending: &'a [crate::jsonrpc::Id], sent: Timestamp) -> impl Iterator<Item = &'a crate::jsonrpc::Id> + 'a {
        pending.iter().filter(move |id| !self.cancelled.iter().any(|(c, at)| c == *id && *at >= sent))
    }

    /// A reply with `id` arrived: whether a request with that id was outstanding (it no longer is).
    pub fn reply_arrived(&mut self, id: &crate::jsonrpc::Id) -> bool {
        // Taken out first: an id is nearly always outstanding once, and then that is its one lookup.
        match self.outstanding.remove(id) {
            Some(n) if n > 1 => {
                self.outstanding.insert(id.clone(), n - 1);
                true
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Records an event id issued by stream `stream` for an event whose data has the digest `content`;
    /// returns an earlier issue of the same id, if any.
    pub fn issue_event_id(&mut self, id: &str, stream: u64, content: u64, cap: usize) -> Option<Issue> {
        if let Some(earlier) = self.event_ids.get(id) {
            return Some(earlier);
        }
        self.ids_issued += 1;
        if self.event_ids.len() < cap {
            self.event_ids.insert(id, Issue { stream, order: self.ids_issued, content });
        } else {
            self.event_ids_full = true;
        }
        None
    }
}

/// Where a session is filed in the [`SessionTable`] index: the `last_seen` it had when filed, its
/// creation serial (ties go to the older session) and its segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LruSlot {
    pub at: Timestamp,
    pub serial: u64,
    pub protected: bool,
}

impl LruSlot {
    fn key(self) -> (Timestamp, u64) {
        (self.at, self.serial)
    }
}

/// The sessions being tracked, with an index by last activity so that eviction at the cap and idle
/// expiry take the oldest session without scanning them all (a scan per new session made a capture of
/// 200k distinct session ids quadratic: minutes instead of seconds).
///
/// The index is a segmented LRU (SLRU, as in disk caches that must survive scans): new sessions start
/// on probation; a session that is established (more than one exchange, or a negotiated version) and
/// active again is promoted to the protected segment, which holds at most three quarters of the cap.
/// Eviction takes the oldest probationary session first, so a flood of one-shot session ids (hostile,
/// or a scanner) churns among itself and cannot push out the established sessions whose findings are
/// still being built (a downgrade needs the session's earlier POST answers).
///
/// The index is lazy: each session has exactly one entry, filed at the `last_seen` it had when filed
/// (`Session::lru`). `last_seen` only grows, so an entry is never later than its session's true time;
/// an entry taken from the front whose session has moved on since is re-filed (or promoted) instead of
/// acted on. Every touch of `last_seen` elsewhere stays a plain field update, and the cost is O(log n)
/// per re-filing, at most one per touch that moved the time.
#[derive(Debug, Default)]
pub struct SessionTable {
    /// Boxed: a session is some 500 bytes, and a table holding them inline keeps that much in every empty
    /// bucket too (an eighth to more than half of them, by how full it is), twice over while it grows.
    // ALLOC: one box per session, bounded by limits::max_sessions
    map: HashTable<Box<Session>>,
    /// Keyed like every map keyed from the wire (`crate::keyed`).
    state: WireState,
    /// Where the sessions looked up lately sit in the table, each at its key's
    /// [`crate::keyed::recent_place`]. An exchange asks for its session several times, from its
    /// request's body to its response's end, with other sessions' exchanges in between, and SipHash over
    /// a session key costs some 400 instructions (2 % of a run's). A remembered bucket is taken only when
    /// it holds a session of the key looked up: a bucket emptied, filled by another session or moved
    /// when the table grew is a miss, answered by the keyed lookup.
    recent: crate::keyed::RecentPlaces,
    // ALLOC: one entry per tracked session across both segments, bounded by limits::max_sessions
    probation: BTreeMap<(Timestamp, u64), SessionKey>,
    protected: BTreeMap<(Timestamp, u64), SessionKey>,
    /// Creation serial of the newest session.
    serial: u64,
}

/// What to do with the session at the front of a segment.
enum Front {
    /// Untouched since filed: it is the oldest of its segment.
    Oldest(SessionKey),
    /// Filed again (or promoted); look at the front anew.
    Moved,
    Empty,
}

impl Session {
    /// More than a one-shot: worth protecting from a flood of new session ids.
    fn established(&self) -> bool {
        self.exchanges > 1 || self.version.is_some()
    }
}

/// The test that finds `key`'s session in the table.
#[inline]
fn is(key: KeyRef<'_>) -> impl Fn(&Box<Session>) -> bool + '_ {
    move |s| s.key.key_ref() == key
}

impl SessionTable {
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    fn hash(&self, key: KeyRef<'_>) -> u64 {
        self.state.hash_one(key)
    }

    /// The bucket of `key`'s session, if it has one: from the memory when it holds it, else from the
    /// keyed lookup, then remembered.
    fn bucket_of(&self, key: KeyRef<'_>) -> Option<usize> {
        let place = self.recent.of(&key)?;
        let remembered = place.get();
        if self.map.get_bucket(remembered).is_some_and(is(key)) {
            return Some(remembered);
        }
        let found = self.map.find_bucket_index(self.hash(key), is(key))?;
        place.set(found);
        Some(found)
    }

    /// Lookups take an owned key (`&SessionKey`) or a borrowed one (`&KeyRef`) alike.
    pub fn get(&self, key: &dyn AsKeyRef) -> Option<&Session> {
        let at = self.bucket_of(key.key_ref())?;
        self.map.get_bucket(at).map(|s| &**s)
    }

    pub fn get_mut(&mut self, key: &dyn AsKeyRef) -> Option<&mut Session> {
        let at = self.bucket_of(key.key_ref())?;
        self.map.get_bucket_mut(at).map(|s| &mut **s)
    }

    pub fn contains_key(&self, key: &dyn AsKeyRef) -> bool {
        self.bucket_of(key.key_ref()).is_some()
    }

    /// Takes a session out of the table, and its place in the eviction order with it.
    pub fn take(&mut self, key: &SessionKey) -> Option<Box<Session>> {
        let s = self.remove(key)?;
        let seg = if s.lru.protected { &mut self.protected } else { &mut self.probation };
        seg.remove(&s.lru.key());
        Some(s)
    }

    /// The session leaves the table in its box: a `Session` is 544 bytes, and the callers only read it.
    fn remove(&mut self, key: &SessionKey) -> Option<Box<Session>> {
        let key = key.key_ref();
        let entry = self.map.find_entry(self.hash(key), is(key)).ok()?;
        Some(entry.remove().0)
    }

    /// The session of `key`, created at `ts` if new. At `cap` sessions a new one first evicts one (the
    /// oldest on probation, else the oldest protected), which is returned for the caller to count and
    /// release.
    pub fn entry(&mut self, key: &SessionKey, ts: Timestamp, cap: usize) -> (&mut Session, Option<Box<Session>>) {
        let wanted = key.key_ref();
        let evicted = if self.map.len() >= cap && self.bucket_of(wanted).is_none() { self.evict(cap) } else { None };
        let hash = self.hash(wanted);
        let (state, serial, probation) = (&self.state, &mut self.serial, &mut self.probation);
        let s = match self.map.entry(hash, is(wanted), |s| state.hash_one(s.key.key_ref())) {
            Entry::Occupied(found) => found.into_mut(),
            Entry::Vacant(room) => {
                *serial = serial.saturating_add(1);
                let mut s = Session::new(key.clone(), ts);
                s.lru = LruSlot { at: ts, serial: *serial, protected: false };
                probation.insert(s.lru.key(), key.clone());
                // ALLOC: one session per key, bounded by limits::max_sessions
                room.insert(Box::new(s)).into_mut()
            }
        };
        (&mut **s, evicted)
    }

    /// Looks at the front of one segment; `promote_over` is the protected segment's share of the cap
    /// when probationary sessions may be promoted, `None` to re-file in place.
    fn front(&mut self, protected: bool, promote_over: Option<usize>) -> Front {
        let seg = if protected { &mut self.protected } else { &mut self.probation };
        let Some((slot, key)) = seg.pop_first() else { return Front::Empty };
        let Some(s) = self.bucket_of(key.key_ref()).and_then(|at| self.map.get_bucket_mut(at)) else { return Front::Moved };
        if s.lru.key() != slot || s.lru.protected != protected {
            // Not this session's entry (cannot happen while every removal goes through the table).
            return Front::Moved;
        }
        if s.last_seen <= slot.0 {
            return Front::Oldest(key);
        }
        let promote = !protected && promote_over.is_some() && s.established();
        s.lru = LruSlot { at: s.last_seen, serial: slot.1, protected: protected || promote };
        if s.lru.protected {
            self.protected.insert(s.lru.key(), key);
        } else {
            self.probation.insert(s.lru.key(), key);
        }
        if let Some(share) = promote_over.filter(|_| promote) {
            self.demote_over(share);
        }
        Front::Moved
    }

    /// Keeps the protected segment within `share`: its oldest untouched sessions go back on probation.
    fn demote_over(&mut self, share: usize) {
        while self.protected.len() > share {
            match self.front(true, None) {
                Front::Oldest(key) => {
                    let Some(s) = self.bucket_of(key.key_ref()).and_then(|at| self.map.get_bucket_mut(at)) else { continue };
                    // On probation it is evicted before it is promoted again, unless it is active first.
                    s.lru = LruSlot { at: s.last_seen, serial: s.lru.serial, protected: false };
                    self.probation.insert(s.lru.key(), key);
                }
                Front::Moved => continue,
                Front::Empty => return,
            }
        }
    }

    /// Evicts one session to make room under `cap`.
    fn evict(&mut self, cap: usize) -> Option<Box<Session>> {
        let share = cap.saturating_sub(cap / 4);
        loop {
            match self.front(false, Some(share)) {
                Front::Oldest(key) => return self.remove(&key),
                Front::Moved => continue,
                Front::Empty => {}
            }
            match self.front(true, None) {
                Front::Oldest(key) => return self.remove(&key),
                Front::Moved => continue,
                Front::Empty => return None,
            }
        }
    }

    /// Removes and returns a session whose `last_seen` satisfies `pred` (idle expiry: "older than"),
    /// oldest first; `None` once no session does.
    pub fn pop_oldest_if(&mut self, pred: impl Fn(Timestamp) -> bool) -> Option<Box<Session>> {
        loop {
            // Entries are never later than their session's time: if both fronts fail, every session does.
            let fronts = [self.probation.first_key_value(), self.protected.first_key_value()].map(|f| f.map(|(k, _)| *k));
            let protected = match fronts {
                [Some(a), Some(b)] => b < a,
                [Some(_), None] => false,
                [None, Some(_)] => true,
                [None, None] => return None,
            };
            let at = fronts.iter().flatten().min().map(|k| k.0)?;
            if !pred(at) {
                return None;
            }
            if let Front::Oldest(key) = self.front(protected, None) {
                return self.remove(&key);
            }
        }
    }

    /// Forgets every session. Walk them first with [`SessionTable::sorted`]: ordering references instead of
    /// the sessions themselves keeps the end of a run from holding every session twice (a `Vec` of them
    /// beside the table, and a sort's scratch copy: 6 MB of the 38 MB heap peak on the bench capture).
    pub fn clear(&mut self) {
        self.probation.clear();
        self.protected.clear();
        self.map.clear();
    }

    /// Every session, in key order (deterministic).
    pub fn sorted(&self) -> Vec<&Session> {
        let mut v: Vec<&Session> = self.map.iter().map(|s| &**s).collect();
        v.sort_by(|a, b| a.key.cmp(&b.key));
        v
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn key_display_and_unique() {
        let server: SocketAddr = "127.0.0.1:8000".parse().unwrap();
        let k = SessionKey { server, ident: SessionIdent::McpSessionId("abc".into()) };
        assert_eq!(k.display_id(), "abc");
        let a = SessionKey { server, ident: SessionIdent::Anonymous { client: "127.0.0.1".parse().unwrap(), host: "h".into(), endpoint: "/mcp".into(), client_name: None, handshake: 0 } };
        assert_eq!(a.display_id(), "-");
        assert_ne!(k.unique(), a.unique());
    }

    #[test]
    fn event_ids_bounded() {
        let server: SocketAddr = "127.0.0.1:8000".parse().unwrap();
        let mut s = Session::new(SessionKey { server, ident: SessionIdent::McpSessionId("a".into()) }, Timestamp(0));
        assert_eq!(s.issue_event_id("1", 7, 70, 1), None);
        assert_eq!(s.issue_event_id("1", 8, 80, 1), Some(Issue { stream: 7, order: 1, content: 70 }));
        assert_eq!(s.issue_event_id("2", 7, 70, 1), None);
        assert!(s.event_ids_full);
    }

    #[test]
    fn an_id_is_outstanding_as_often_as_it_was_sent_within_the_cap() {
        use crate::jsonrpc::Id;
        let server: SocketAddr = "127.0.0.1:8000".parse().unwrap();
        let mut s = Session::new(SessionKey { server, ident: SessionIdent::McpSessionId("a".into()) }, Timestamp(0));
        let (a, b, c) = (Id::Num(1), Id::Str("b".into()), Id::Str("c".into()));
        // Cap of two ids: `a` twice, `b`, then `c` finds no room; `a` and `b` again still count.
        s.request_sent(&[a.clone(), a.clone(), b.clone()], 2);
        s.request_sent(&[c.clone(), a.clone(), b.clone()], 2);
        let arrivals: Vec<bool> = [&a, &a, &a, &a, &b, &b, &b, &c].iter().map(|id| s.reply_arrived(id)).collect();
        assert_eq!(arrivals, [true, true, true, false, true, true, false, false]);
        assert!(s.outstanding.is_empty());
        // Room again once they are answered.
        s.request_sent(std::slice::from_ref(&c), 2);
        assert!(s.reply_arrived(&c));
    }
}

#[cfg(test)]
mod table_tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn key(id: &str) -> SessionKey {
        SessionKey { server: "127.0.0.1:8000".parse().unwrap(), ident: SessionIdent::McpSessionId(id.into()) }
    }

    #[test]
    fn a_session_is_found_by_its_borrowed_key_as_by_its_owned_one() {
        let server: SocketAddr = "127.0.0.1:8000".parse().unwrap();
        let client: IpAddr = "10.0.0.1".parse().unwrap();
        let refs = [
            KeyRef { server, ident: IdentRef::McpSessionId("s1") },
            KeyRef { server, ident: IdentRef::LegacyParam("s1") },
            KeyRef { server, ident: IdentRef::Anonymous { client, host: "h", endpoint: "/mcp", client_name: None, handshake: 1 } },
            KeyRef { server, ident: IdentRef::Anonymous { client, host: "h", endpoint: "/mcp", client_name: Some("c"), handshake: 1 } },
            KeyRef { server, ident: IdentRef::Anonymous { client, host: "h", endpoint: "/mcp", client_name: Some("c"), handshake: 2 } },
        ];
        let mut t = SessionTable::default();
        for (i, r) in refs.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
            t.entry(&r.to_owned_key(), Timestamp(i as i64), 100);
        }
        for (i, r) in refs.iter().enumerate() {
            // The session's own key is the one it is stored under (what `session_for` shares).
            let found = t.get(r).map(|s| &s.key);
            assert_eq!(found.is_some(), i % 2 == 0, "{r:?}");
            if let Some(k) = found {
                assert_eq!(k, &r.to_owned_key());
                assert_eq!(k.key_ref(), *r);
            }
        }
        // Another server, or the same id under another transport, is another session.
        assert!(!t.contains_key(&KeyRef { server: "127.0.0.1:8001".parse().unwrap(), ident: IdentRef::McpSessionId("s1") }));
        assert!(!t.contains_key(&KeyRef { server, ident: IdentRef::McpSessionId("s2") }));
    }

    #[test]
    fn table_evicts_the_least_recently_active_at_the_cap() {
        let mut t = SessionTable::default();
        for (i, id) in ["a", "b", "c"].iter().enumerate() {
            let (_, ev) = t.entry(&key(id), Timestamp(i as i64), 3);
            assert!(ev.is_none());
        }
        // "a" is touched after "b" and "c": "b" is now the oldest.
        t.get_mut(&key("a")).unwrap().last_seen = Timestamp(10);
        let (_, ev) = t.entry(&key("d"), Timestamp(11), 3);
        assert_eq!(ev.unwrap().key, key("b"));
        let (_, ev) = t.entry(&key("e"), Timestamp(12), 3);
        assert_eq!(ev.unwrap().key, key("c"));
        let (_, ev) = t.entry(&key("f"), Timestamp(13), 3);
        assert_eq!(ev.unwrap().key, key("a"));
        assert_eq!(t.len(), 3);
        // An existing key never evicts.
        let (_, ev) = t.entry(&key("f"), Timestamp(14), 3);
        assert!(ev.is_none());
    }

    #[test]
    fn table_idle_pop_takes_only_sessions_older_than_the_bound() {
        let mut t = SessionTable::default();
        for i in 0..100 {
            t.entry(&key(&format!("s{i}")), Timestamp(i), usize::MAX);
        }
        // Half of the old ones were active later.
        for i in (0..50).step_by(2) {
            t.get_mut(&key(&format!("s{i}"))).unwrap().last_seen = Timestamp(1000);
        }
        let mut gone = Vec::new();
        while let Some(s) = t.pop_oldest_if(|seen| seen < Timestamp(50)) {
            gone.push(s.key);
        }
        let want: Vec<SessionKey> = (0..50).filter(|i| i % 2 == 1).map(|i| key(&format!("s{i}"))).collect();
        assert_eq!(gone, want);
        assert_eq!(t.len(), 75);
        assert_eq!(t.sorted().len(), 75);
        t.clear();
        assert!(t.is_empty());
    }

    #[test]
    fn table_stays_within_the_cap_under_many_keys() {
        let mut t = SessionTable::default();
        let mut evicted = 0;
        for i in 0..10_000 {
            let (s, ev) = t.entry(&key(&format!("k{i}")), Timestamp(i), 100);
            s.last_seen = Timestamp(i);
            evicted += usize::from(ev.is_some());
        }
        assert_eq!(t.len(), 100);
        assert_eq!(evicted, 9_900);
        assert_eq!(t.probation.len() + t.protected.len(), 100);
    }
}

#[cfg(test)]
mod slru_tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn key(id: &str) -> SessionKey {
        SessionKey { server: "127.0.0.1:8000".parse().unwrap(), ident: SessionIdent::McpSessionId(id.into()) }
    }

    #[test]
    fn table_established_session_survives_a_flood_of_one_shot_ids() {
        let mut t = SessionTable::default();
        let (s, _) = t.entry(&key("real"), Timestamp(0), 100);
        // Its second exchange, before the flood starts.
        s.exchanges = 2;
        s.last_seen = Timestamp(1);
        let mut evicted = Vec::new();
        for i in 1..10_000 {
            if let (_, Some(old)) = t.entry(&key(&format!("flood{i}")), Timestamp(i), 100) {
                evicted.push(old.key);
            }
        }
        assert!(t.contains_key(&key("real")), "the established session was evicted");
        assert_eq!(t.len(), 100);
        assert_eq!(evicted.len(), 9_900);
        assert!(!evicted.contains(&key("real")));
    }

    #[test]
    fn table_one_shot_session_is_not_protected() {
        let mut t = SessionTable::default();
        let (s, _) = t.entry(&key("once"), Timestamp(0), 10);
        s.exchanges = 1;
        for i in 1..50 {
            t.entry(&key(&format!("f{i}")), Timestamp(i), 10);
            if i % 5 == 0 {
                t.get_mut(&key("once")).unwrap().last_seen = Timestamp(i);
            }
        }
        // Touched every 5 sessions with a cap of 10: it survives by recency alone, like any other.
        assert!(t.contains_key(&key("once")));
        t.entry(&key("g"), Timestamp(100), 10);
        for i in 0..10 {
            t.entry(&key(&format!("h{i}")), Timestamp(101 + i), 10);
        }
        assert!(!t.contains_key(&key("once")));
    }

    #[test]
    fn table_protected_segment_keeps_room_for_new_sessions() {
        let mut t = SessionTable::default();
        // 20 established sessions, all active again, under a cap of 20: at most 15 stay protected.
        for i in 0..20 {
            let (s, _) = t.entry(&key(&format!("e{i}")), Timestamp(i), 20);
            s.exchanges = 2;
            s.last_seen = Timestamp(100 + i);
        }
        for i in 0..40 {
            t.entry(&key(&format!("n{i}")), Timestamp(200 + i), 20);
        }
        assert!(t.protected.len() <= 15, "{}", t.protected.len());
        assert_eq!(t.len(), 20);
        // The newest one-shot session is still there: new sessions are not starved.
        assert!(t.contains_key(&key("n39")));
    }

    #[test]
    fn lookups_answer_by_the_key_whatever_buckets_were_remembered() {
        // More keys than the memory has places, so that keys share them; a table that grows (its
        // buckets move) and evicts at the cap (buckets emptied, then filled by other sessions). Every
        // lookup answers as the set of keys present does, whatever the memory holds.
        let mut t = SessionTable::default();
        let mut present = std::collections::BTreeSet::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || crate::keyed::xorshift(&mut seed);
        let cap = 700;
        for step in 0..30_000i64 {
            // Runs of one key, as an exchange looks its session up, between keys at random.
            let k = key(&format!("s{}", rnd() % 1_500));
            for _ in 0..=rnd() % 3 {
                match rnd() % 4 {
                    0 => {
                        let (s, evicted) = t.entry(&k, Timestamp(step), cap);
                        assert_eq!(s.key, k, "step {step}");
                        if let Some(gone) = evicted {
                            assert!(present.remove(&gone.key), "step {step}: evicted {:?} was not there", gone.key);
                        }
                        present.insert(k.clone());
                    }
                    1 => assert_eq!(t.get(&k).map(|s| s.key.clone()).as_ref(), present.get(&k), "step {step}"),
                    2 => assert_eq!(t.get_mut(&k).map(|s| s.key.clone()).as_ref(), present.get(&k), "step {step}"),
                    _ => assert_eq!(t.contains_key(&k.key_ref()), present.contains(&k), "step {step}"),
                }
            }
            assert_eq!(t.len(), present.len());
        }
        assert!(present.len() == cap, "the cap was reached: {}", present.len());
    }
}

//! TLS between reassembled TCP streams and HTTP: finds TLS by its handshake (a ClientHello at the start of
//! the client's stream, any port), decrypts TLS 1.2 and 1.3 records with secrets from a key log, and hands
//! the plaintext on with the frame numbers of the packets that completed each record. It owns the
//! per-connection TLS state machine (`TlsConnection`, inside each connection's `TlsConn`) and the coverage
//! bookkeeping of what stayed dark (`TlsLayer`); framing, handshake parsing, key schedules and record
//! protection live in the submodules.
//!
//! Gap policy: TLS cannot resynchronise after lost bytes (records are chained by sequence number, RFC 8446
//! §5.3), so a gap turns the connection dark with reason "broken sequence"; the gap is still passed on so
//! HTTP interrupts what was open. Not supported, and reported as undecrypted with their reason: suites
//! other than AEAD and TLS 1.2 AES-CBC ("unsupported cipher suite 0x...."), SSL 3.0/TLS 1.0/1.1, 0-RTT early data
//! (skipped, counted), Encrypted Client Hello (the outer hello's random matches no key-log line).
//!
//! Waiting for keys (live capture only, `TlsLayer::wait_for_keys`): a key log is written by the client or
//! server as each handshake happens, often after the packets that need the secret have been captured (a
//! client logs its TLS 1.3 handshake secrets when it reads the ServerHello, which the sensor has already
//! seen). So where a file run would go dark at once, a live connection whose secrets are not logged yet
//! holds its records (`TlsState::Waiting`, bounded in bytes and capture time) and resumes when the sensor
//! adds the lines it finds appended to the key log (`TlsLayer::add_live_secrets`, then `resume`), as Wireshark
//! re-reads a growing key log file.

pub mod cipher;
pub mod handshake;
pub mod keylog;
pub mod keylog_tail;
pub mod keys;
pub mod record;

use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;

use crate::decode::flow_key::Direction;
use crate::stack::coverage::{Coverage, Uncovered};
use crate::reassembly::ConnId;
use crate::time::{Duration, Timestamp};

use cipher::{CbcCipher, Layer, RecordCipher, Suite};
use handshake::{ClientHello, HandshakeReader, ServerHello};
use keylog::KeyLog;
use record::{Framing, Record, RecordFramer};

/// Why (part of) a TLS connection could not be decrypted. `as_str` is the stable reason in reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Undecrypted {
    NoKeyLog,
    NoMatchingRandom,
    SecretsMissing,
    BrokenSequence,
    DecryptionFailed,
    UnsupportedSuite(u16),
    UnsupportedVersion(u16),
    /// The connection was picked up after its handshake.
    NoHandshake,
    /// Bytes that do not frame as TLS records after a ClientHello.
    MalformedRecord,
}

impl fmt::Display for Undecrypted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Undecrypted::NoKeyLog => f.write_str("no key log"),
            Undecrypted::NoMatchingRandom => f.write_str("no matching client random"),
            Undecrypted::SecretsMissing => f.write_str("secrets missing"),
            Undecrypted::BrokenSequence => f.write_str("broken sequence"),
            Undecrypted::DecryptionFailed => f.write_str("decryption failed"),
            Undecrypted::UnsupportedSuite(s) => write!(f, "unsupported cipher suite 0x{s:04x}"),
            Undecrypted::UnsupportedVersion(v) => write!(f, "unsupported version 0x{v:04x}"),
            Undecrypted::NoHandshake => f.write_str("no handshake seen"),
            Undecrypted::MalformedRecord => f.write_str("malformed record"),
        }
    }
}

/// What the TLS layer hands on to HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery<'a> {
    Data { dir: Direction, bytes: &'a [u8], frame: u64, ts: Timestamp },
    Gap { dir: Direction, len: u64, frame: u64, ts: Timestamp },
}

/// Record protection state of one direction.
#[derive(Debug)]
enum Protection {
    /// TLS 1.2 after ChangeCipherSpec.
    Sealed12(RecordCipher),
    /// TLS 1.2 after ChangeCipherSpec, an AES-CBC suite.
    Cbc12(CbcCipher),
    /// TLS 1.3 under the handshake traffic secret.
    Handshake13(RecordCipher),
    /// TLS 1.3 under application traffic secret N (kept to derive N+1 on KeyUpdate).
    App13 { cipher: RecordCipher, secret: Vec<u8> },
}

/// After a record: move to new keys (RFC 8446 §4.4.4 Finished ends the handshake keys, §4.6.3 KeyUpdate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Switch {
    None,
    ToApp,
    KeyUpdate,
}

#[derive(Debug, Default)]
struct Dir {
    framer: RecordFramer,
    hs: HandshakeReader,
    /// `None`: records are plaintext (before ChangeCipherSpec in 1.2, before the ServerHello in 1.3).
    prot: Option<Protection>,
}

/// Live: how long and how much a connection may wait for secrets not logged yet (module header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyWait {
    /// Capture time from the step that found the secrets missing.
    pub max: Duration,
    /// Bytes of records held by one connection (`Limits::max_tls_wait_bytes_per_conn`)...
    pub bytes_per_conn: usize,
    /// ...and by all of them (`Limits::max_tls_wait_bytes_total`), so traffic the key log will never
    /// cover cannot pile up.
    pub bytes_total: usize,
}

/// The negotiated parameters, once the ServerHello is read.
#[derive(Debug, Clone)]
struct Params {
    client: ClientHello,
    server: ServerHello,
    suite: Suite,
}

/// The connection's state machine.
#[derive(Debug)]
enum TlsState {
    /// Before the ServerHello (also after a HelloRetryRequest); the ClientHello once read.
    Hello { client: Option<ClientHello> },
    /// TLS 1.2: keys are made at each direction's ChangeCipherSpec.
    Tls12(Params),
    /// TLS 1.3: both directions moved to handshake keys at the ServerHello.
    Tls13 { params: Params, client_app: Vec<u8>, server_app: Vec<u8> },
    /// Live only: the secrets are not in the key log yet; records are held until they are.
    Waiting(Box<Waiting>),
    /// Nothing more can be decrypted; why.
    Dark(Undecrypted),
}

/// What to do once the secrets are there: the step that found them missing, done again.
#[derive(Debug)]
enum Resume {
    /// TLS 1.3 at the ServerHello.
    Start13(Params),
    /// TLS 1.2 at this direction's ChangeCipherSpec.
    Ccs12(Params, Direction),
}

impl Resume {
    fn ready(&self, keylog: &KeyLog) -> bool {
        match self {
            Resume::Start13(p) => keylog.get(&p.client.random).is_some_and(|s| {
                s.client_handshake.is_some() && s.server_handshake.is_some() && s.client_app0.is_some() && s.server_app0.is_some()
            }),
            Resume::Ccs12(p, _) => keylog.get(&p.client.random).is_some_and(|s| s.master.is_some()),
        }
    }
}

/// A record held while waiting for secrets.
#[derive(Debug)]
struct Held {
    dir: Direction,
    header: [u8; 5],
    // ALLOC: a record held for decryption, bounded by limits::max_tls_wait_bytes_per_conn and _total
    fragment: Vec<u8>,
    frame: u64,
    ts: Timestamp,
}

#[derive(Debug)]
struct Waiting {
    resume: Resume,
    /// The reason reported if the secrets never come.
    why: Undecrypted,
    since: Timestamp,
    held: Vec<Held>,
    bytes: usize,
}

/// One TLS connection.
#[derive(Debug)]
pub struct TlsConnection {
    state: TlsState,
    to_server: Dir,
    to_client: Dir,
    pub sni: String,
    pub alpn: Option<String>,
    pub version: u16,
    pub cipher_suite: u16,
    pub decrypted_bytes: u64,
    pub undecrypted_bytes: u64,
    pub early_data_bytes: u64,
    /// HTTP/2 negotiated (ALPN `h2`): the HTTP layer expects the preface (`http::switch`).
    pub http2: bool,
    /// Frame of the ClientHello.
    pub first_frame: u64,
    /// Live: how long and how much to wait for secrets not yet logged; `None` goes dark at once.
    key_wait: Option<KeyWait>,
    /// Times this connection waited for secrets, resumed once they came, and gave up at a byte cap.
    pub waits: u64,
    pub resumes: u64,
    pub wait_cap_hits: u64,
    /// Capture time of the latest bytes fed.
    now: Timestamp,
}

impl TlsConnection {
    fn new(first_frame: u64, key_wait: Option<KeyWait>) -> TlsConnection {
        TlsConnection {
            state: TlsState::Hello { client: None },
            to_server: Dir::default(),
            to_client: Dir::default(),
            sni: String::new(),
            alpn: None,
            version: 0,
            cipher_suite: 0,
            decrypted_bytes: 0,
            undecrypted_bytes: 0,
            early_data_bytes: 0,
            http2: false,
            first_frame,
            key_wait,
            waits: 0,
            resumes: 0,
            wait_cap_hits: 0,
            now: Timestamp::ZERO,
        }
    }

    /// Bytes of records held while waiting for secrets.
    fn held_bytes(&self) -> usize {
        match &self.state {
            TlsState::Waiting(w) => w.bytes,
            _ => 0,
        }
    }

    fn is_waiting(&self) -> bool {
        matches!(self.state, TlsState::Waiting(_))
    }

    /// The secrets are missing: wait for them (live) or go dark (file).
    fn stall(&mut self, why: Undecrypted, resume: Resume) {
        if self.key_wait.is_some() && !matches!(self.state, TlsState::Dark(_)) {
            self.waits += 1;
            self.state = TlsState::Waiting(Box::new(Waiting { resume, why, since: self.now, held: Vec::new(), bytes: 0 }));
        } else {
            self.go_dark(why);
        }
    }

    /// Stops waiting: the held records stay undecrypted, with the reason the wait was for.
    fn give_up(&mut self) {
        if let TlsState::Waiting(w) = &self.state {
            let why = w.why;
            self.go_dark(why);
        }
    }

    /// Holds a record while waiting, or gives up when the wait is over or the bytes too many.
    fn hold(&mut self, dir: Direction, rec: Record<'_>, frame: u64, ts: Timestamp) {
        let Some(kw) = self.key_wait else { return };
        let TlsState::Waiting(w) = &mut self.state else { return };
        let size = rec.fragment.len() + 5;
        let over_cap = w.bytes.saturating_add(size) > kw.bytes_per_conn;
        if ts.since(w.since) > kw.max || over_cap {
            self.wait_cap_hits += u64::from(over_cap);
            self.give_up();
            self.undecrypted_bytes = self.undecrypted_bytes.saturating_add(size as u64);
            return;
        }
        w.bytes += size;
        w.held.push(Held { dir, header: rec.header, fragment: rec.fragment.to_vec(), frame, ts });
    }

    /// Secrets were added: if they complete what this connection waits for, the step is done again and
    /// the held records go through in their order.
    fn resume<F: FnMut(Delivery<'_>)>(&mut self, keylog: &KeyLog, out: &mut F) {
        let TlsState::Waiting(w) = &self.state else { return };
        if !w.resume.ready(keylog) {
            return;
        }
        let TlsState::Waiting(w) = std::mem::replace(&mut self.state, TlsState::Hello { client: None }) else { return };
        let Waiting { resume, held, .. } = *w;
        self.resumes += 1;
        match resume {
            Resume::Start13(params) => self.start13(params, keylog),
            Resume::Ccs12(params, dir) => {
                self.state = TlsState::Tls12(params);
                self.change_cipher_spec12(dir, keylog);
            }
        }
        for h in held {
            self.record(h.dir, Record { header: h.header, fragment: &h.fragment }, h.frame, h.ts, keylog, out);
        }
    }

    /// Why the connection is dark, if it is.
    pub fn dark(&self) -> Option<Undecrypted> {
        match self.state {
            TlsState::Dark(r) => Some(r),
            _ => None,
        }
    }

    fn dir_mut(&mut self, d: Direction) -> &mut Dir {
        match d {
            Direction::ToServer => &mut self.to_server,
            Direction::ToClient => &mut self.to_client,
        }
    }

    fn go_dark(&mut self, why: Undecrypted) {
        let held = self.held_bytes() as u64;
        if !matches!(self.state, TlsState::Dark(_)) {
            self.state = TlsState::Dark(why);
            self.undecrypted_bytes = self.undecrypted_bytes.saturating_add(held);
        }
    }

    /// Feeds in-order stream bytes of one direction.
    pub fn data<F: FnMut(Delivery<'_>)>(&mut self, dir: Direction, bytes: &[u8], frame: u64, ts: Timestamp, keylog: &KeyLog, out: &mut F) {
        if let TlsState::Dark(_) = self.state {
            self.undecrypted_bytes = self.undecrypted_bytes.saturating_add(bytes.len() as u64);
            return;
        }
        self.now = self.now.max(ts);
        let mut framer = std::mem::take(&mut self.dir_mut(dir).framer);
        let verdict = framer.feed(bytes, &mut |rec| self.record(dir, rec, frame, ts, keylog, out));
        self.dir_mut(dir).framer = framer;
        if verdict == Framing::Invalid {
            self.go_dark(Undecrypted::MalformedRecord);
        }
    }

    /// Lost bytes: the record sequence is broken for good.
    pub fn gap(&mut self, len: u64) {
        self.go_dark(Undecrypted::BrokenSequence);
        self.undecrypted_bytes = self.undecrypted_bytes.saturating_add(len);
    }

    /// One record, in the state it arrives in (the transition function: every state is listed).
    fn record<F: FnMut(Delivery<'_>)>(&mut self, dir: Direction, rec: Record<'_>, frame: u64, ts: Timestamp, keylog: &KeyLog, out: &mut F) {
        let size = (rec.fragment.len() + 5) as u64;
        match &self.state {
            TlsState::Dark(_) => {
                self.undecrypted_bytes = self.undecrypted_bytes.saturating_add(size);
            }
            TlsState::Waiting(_) => self.hold(dir, rec, frame, ts),
            TlsState::Hello { .. } => match rec.content_type() {
                22 => self.clear_handshake(dir, rec.fragment, keylog),
                // RFC 8446 §4.2.10: 0-RTT data follows the ClientHello before any ServerHello; mcptap
                // does not decrypt it (no early traffic secret is used).
                23 => self.early_data_bytes = self.early_data_bytes.saturating_add(size),
                _ => {}
            },
            TlsState::Tls12(_) | TlsState::Tls13 { .. } => self.protected(dir, rec, frame, ts, keylog, out),
        }
    }

    /// A plaintext handshake record: ClientHello, ServerHello (and the 1.2 messages after it, skipped).
    fn clear_handshake(&mut self, dir: Direction, fragment: &[u8], keylog: &KeyLog) {
        let mut msgs: Vec<(u8, Vec<u8>)> = Vec::new();
        self.dir_mut(dir).hs.feed(fragment, &mut |t, body| {
            if t == handshake::CLIENT_HELLO || t == handshake::SERVER_HELLO {
                // ALLOC: a hello message body, bounded by the handshake reader's message cap
                msgs.push((t, body.to_vec()));
            }
        });
        for (t, body) in msgs {
            match (t, dir) {
                (handshake::CLIENT_HELLO, Direction::ToServer) => {
                    if let TlsState::Hello { client } = &mut self.state {
                        if let Some(ch) = handshake::client_hello(&body) {
                            // RFC 8446 §4.1.2: the second ClientHello after a HelloRetryRequest repeats
                            // the random; keep the first.
                            if client.is_none() {
                                self.sni = ch.sni.clone();
                                *client = Some(ch);
                            }
                        }
                    }
                }
                (handshake::SERVER_HELLO, Direction::ToClient) => {
                    if let Some(sh) = handshake::server_hello(&body) {
                        self.server_hello(sh, keylog);
                    }
                }
                _ => {}
            }
        }
    }

    fn server_hello(&mut self, sh: ServerHello, keylog: &KeyLog) {
        let TlsState::Hello { client } = &mut self.state else { return };
        if sh.retry {
            return; // RFC 8446 §4.1.4: the real ServerHello follows the second ClientHello.
        }
        let Some(ch) = client.take() else {
            self.go_dark(Undecrypted::NoHandshake);
            return;
        };
        self.version = sh.version;
        self.cipher_suite = sh.cipher_suite;
        if let Some(a) = &sh.alpn {
            self.set_alpn(a.clone());
        }
        let Some(suite) = cipher::suite(sh.cipher_suite) else {
            return self.go_dark(Undecrypted::UnsupportedSuite(sh.cipher_suite));
        };
        let params = Params { client: ch, server: sh, suite };
        match params.server.version {
            0x0303 => self.state = TlsState::Tls12(params),
            0x0304 => self.start13(params, keylog),
            v => self.go_dark(Undecrypted::UnsupportedVersion(v)),
        }
    }

    fn set_alpn(&mut self, a: String) {
        if a == "h2" {
            self.http2 = true;
        }
        self.alpn = Some(a);
    }

    fn lookup<'k>(&self, keylog: &'k KeyLog, random: &[u8; 32]) -> Result<&'k keylog::Secrets, Undecrypted> {
        if keylog.is_empty() {
            return Err(Undecrypted::NoKeyLog);
        }
        keylog.get(random).ok_or(Undecrypted::NoMatchingRandom)
    }

    /// RFC 8446 §7.3: handshake traffic keys protect everything after the ServerHello in both directions.
    fn start13(&mut self, params: Params, keylog: &KeyLog) {
        let secrets = match self.lookup(keylog, &params.client.random) {
            Ok(s) => s,
            Err(why) => return self.stall(why, Resume::Start13(params)),
        };
        let (Some(chs), Some(shs), Some(cap), Some(sap)) =
            (&secrets.client_handshake, &secrets.server_handshake, &secrets.client_app0, &secrets.server_app0)
        else {
            return self.stall(Undecrypted::SecretsMissing, Resume::Start13(params));
        };
        let Suite::Aead(aead, hash) = params.suite else {
            return self.go_dark(Undecrypted::UnsupportedSuite(params.server.cipher_suite));
        };
        let mk = |s: &[u8]| keys::tls13_traffic_keys(hash, s, aead.key_len()).and_then(|k| RecordCipher::new(aead, &k, Layer::Tls13));
        let (Some(c), Some(s)) = (mk(chs), mk(shs)) else {
            return self.go_dark(Undecrypted::SecretsMissing); // a secret of the wrong length for the hash
        };
        self.to_server.prot = Some(Protection::Handshake13(c));
        self.to_client.prot = Some(Protection::Handshake13(s));
        self.state = TlsState::Tls13 { params, client_app: cap.clone(), server_app: sap.clone() };
    }

    /// RFC 5246 §7.1: ChangeCipherSpec switches the sender's direction to the negotiated keys.
    fn change_cipher_spec12(&mut self, dir: Direction, keylog: &KeyLog) {
        let TlsState::Tls12(p) = &self.state else { return };
        let master = match self.lookup(keylog, &p.client.random) {
            Ok(s) => s.master.clone(),
            Err(why) => return self.stall(why, Resume::Ccs12(p.clone(), dir)),
        };
        let Some(master) = master else {
            return self.stall(Undecrypted::SecretsMissing, Resume::Ccs12(p.clone(), dir));
        };
        let to_server = dir == Direction::ToServer;
        let prot = match p.suite {
            Suite::Aead(aead, hash) => {
                let (c, s) = keys::tls12_keys(hash, &master, &p.client.random, &p.server.random, aead.key_len(), aead.tls12_iv_len());
                RecordCipher::new(aead, if to_server { &c } else { &s }, Layer::Tls12).map(Protection::Sealed12)
            }
            Suite::Cbc(cbc) => {
                let (c, s) = keys::tls12_cbc_keys(cbc.prf, &master, &p.client.random, &p.server.random, cbc.mac.output_len(), cbc.key_len);
                let k = if to_server { c } else { s };
                CbcCipher::new(cbc, &k.key, &k.mac, p.server.encrypt_then_mac).map(Protection::Cbc12)
            }
        };
        match prot {
            Some(prot) => self.dir_mut(dir).prot = Some(prot),
            None => self.go_dark(Undecrypted::SecretsMissing),
        }
    }

    /// A record after the ServerHello: plaintext handshake (1.2), ChangeCipherSpec, or protected.
    fn protected<F: FnMut(Delivery<'_>)>(&mut self, dir: Direction, rec: Record<'_>, frame: u64, ts: Timestamp, keylog: &KeyLog, out: &mut F) {
        let is13 = matches!(self.state, TlsState::Tls13 { .. });
        let size = (rec.fragment.len() + 5) as u64;
        if self.dir_mut(dir).prot.is_none() {
            match (rec.content_type(), is13) {
                (20, false) => self.change_cipher_spec12(dir, keylog),
                // RFC 8446 §5: ChangeCipherSpec in 1.3 is middlebox compatibility only.
                (20, true) => {}
                (22, _) => self.clear_handshake(dir, rec.fragment, keylog),
                (23, true) => self.early_data_bytes = self.early_data_bytes.saturating_add(size),
                _ => {}
            }
            return;
        }
        if is13 && rec.content_type() == 20 {
            return;
        }
        let opened = match self.dir_mut(dir).prot.as_mut() {
            Some(Protection::Sealed12(c) | Protection::Handshake13(c) | Protection::App13 { cipher: c, .. }) => {
                c.open(&rec.header, rec.fragment)
            }
            Some(Protection::Cbc12(c)) => c.open(&rec.header, rec.fragment),
            None => return,
        };
        let Some(opened) = opened else {
            // RFC 8446 §4.2.10: a server that rejects 0-RTT skips records that fail to decrypt under the
            // handshake key; so does mcptap, for the client's early data.
            let early = is13
                && dir == Direction::ToServer
                && matches!(self.to_server.prot, Some(Protection::Handshake13(_)))
                && matches!(&self.state, TlsState::Tls13 { params, .. } if params.client.early_data);
            if early {
                self.early_data_bytes = self.early_data_bytes.saturating_add(size);
            } else {
                self.go_dark(Undecrypted::DecryptionFailed);
                self.undecrypted_bytes = self.undecrypted_bytes.saturating_add(size);
            }
            return;
        };
        let mut switch = Switch::None;
        match opened.content_type {
            22 => {
                let mut alpn = None;
                self.dir_mut(dir).hs.feed(&opened.plaintext, &mut |t, body| match t {
                    handshake::ENCRYPTED_EXTENSIONS => alpn = handshake::encrypted_extensions_alpn(body),
                    handshake::FINISHED if is13 => switch = Switch::ToApp,
                    handshake::KEY_UPDATE if is13 => switch = Switch::KeyUpdate,
                    // NewSessionTicket and the rest carry nothing the decryptor needs.
                    _ => {}
                });
                if let Some(a) = alpn {
                    self.set_alpn(a);
                }
            }
            23 => {
                self.decrypted_bytes = self.decrypted_bytes.saturating_add(opened.plaintext.len() as u64);
                if !opened.plaintext.is_empty() {
                    out(Delivery::Data { dir, bytes: &opened.plaintext, frame, ts });
                }
            }
            _ => {} // alert (close_notify), heartbeat
        }
        self.switch(dir, switch);
    }

    fn switch(&mut self, dir: Direction, switch: Switch) {
        if switch == Switch::None {
            return;
        }
        let TlsState::Tls13 { params, client_app, server_app } = &self.state else { return };
        let Suite::Aead(aead, hash) = params.suite else { return };
        let app0 = match dir {
            Direction::ToServer => client_app.clone(),
            Direction::ToClient => server_app.clone(),
        };
        let next = match (switch, self.dir_mut(dir).prot.take()) {
            (Switch::None, _) => return,
            (Switch::ToApp, _) => Some(app0),
            // RFC 8446 §4.6.3: after sending KeyUpdate, the sender protects its traffic with the next
            // generation of keys (§7.2).
            (Switch::KeyUpdate, Some(Protection::App13 { secret, .. })) => keys::tls13_next_secret(hash, &secret),
            (Switch::KeyUpdate, _) => None,
        };
        let prot = next.and_then(|secret| {
            let k = keys::tls13_traffic_keys(hash, &secret, aead.key_len())?;
            Some(Protection::App13 { cipher: RecordCipher::new(aead, &k, Layer::Tls13)?, secret })
        });
        match prot {
            Some(p) => self.dir_mut(dir).prot = Some(p),
            None => self.go_dark(Undecrypted::SecretsMissing),
        }
    }
}

/// How a connection's bytes are read.
#[derive(Debug)]
enum Transport {
    /// No byte seen yet.
    Undecided,
    /// Plaintext: straight to HTTP (HTTP/1.1 or HTTP/2: `http::switch` decides).
    Plain,
    Tls(Box<TlsConnection>),
}

#[derive(Debug, Clone, Copy)]
struct Endpoints {
    client: SocketAddr,
    server: SocketAddr,
}

/// Counters for the summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsStats {
    pub connections: u64,
    pub decrypted: u64,
    pub undecrypted: BTreeMap<String, u64>,
    pub decrypted_bytes: u64,
    pub undecrypted_bytes: u64,
    pub early_data_bytes: u64,
    pub http2_connections: u64,
    pub keylog_secrets: u64,
    pub keylog_malformed: u64,
    /// Live: times a connection waited for secrets not logged yet, resumed when they came, and gave up
    /// at a byte cap (the rest gave up at the time limit or the connection's end).
    pub key_waits: u64,
    pub key_wait_resumes: u64,
    pub key_wait_cap_hits: u64,
}

#[derive(Debug, Clone, Default)]
struct Agg {
    connections: u64,
    bytes: u64,
    client: Option<SocketAddr>,
    sni: String,
    frames: Vec<u64>,
    first_ts: Option<Timestamp>,
}

impl Agg {
    fn add(&mut self, ep: Endpoints, sni: &str, bytes: u64, frame: u64, ts: Timestamp) {
        self.connections += 1;
        self.bytes = self.bytes.saturating_add(bytes);
        self.client.get_or_insert(ep.client);
        if self.sni.is_empty() {
            self.sni = sni.to_string();
        }
        if self.frames.len() < 8 && frame > 0 {
            self.frames.push(frame);
        }
        self.first_ts.get_or_insert(ts);
    }
}

/// One connection's TLS layer, kept in the connection's layer stack (`stack::Layers`): undecided until
/// its first bytes, then plaintext or a TLS state machine.
#[derive(Debug)]
pub struct TlsConn {
    ep: Endpoints,
    transport: Transport,
    /// Capture time of the connection's first packet.
    ts: Timestamp,
    /// HTTP/2 the HTTP layer could not analyse: reason and the frame where analysis stopped.
    h2_unanalysed: Option<(&'static str, u64)>,
}

impl TlsConn {
    /// A new connection's TLS layer, undecided until its first bytes.
    pub fn new(client: SocketAddr, server: SocketAddr, ts: Timestamp) -> TlsConn {
        TlsConn { ep: Endpoints { client, server }, transport: Transport::Undecided, ts, h2_unanalysed: None }
    }

    /// The connection's bytes are plaintext (decided on its first bytes).
    pub fn is_plain(&self) -> bool {
        matches!(self.transport, Transport::Plain)
    }

    /// The TLS layer of a CONNECT tunnel opened on this connection: undecided until the tunnel's first
    /// bytes, as a new connection's.
    pub fn restarted(&self) -> TlsConn {
        TlsConn::new(self.ep.client, self.ep.server, self.ts)
    }

    /// TLS negotiated HTTP/2 on this connection (ALPN `h2`).
    pub fn alpn_h2(&self) -> bool {
        matches!(&self.transport, Transport::Tls(t) if t.http2)
    }

    /// The HTTP layer could not analyse this connection's HTTP/2 (`reason`, from `frame`): tallied for the
    /// `http2_seen` coverage notice when the connection closes.
    pub fn http2_unanalysed(&mut self, reason: &'static str, frame: u64) {
        self.h2_unanalysed.get_or_insert((reason, frame));
    }
}

/// The TLS layer's run-wide state: the key log, the live key-wait budget, and the coverage tallies per
/// server. Each connection's own state is a [`TlsConn`] its layer stack owns; the methods here take it.
#[derive(Debug, Default)]
pub struct TlsLayer {
    keylog: KeyLog,
    dark: BTreeMap<(SocketAddr, Undecrypted), Agg>,
    /// HTTP/2 connections the HTTP layer could not analyse, by server and reason.
    http2: BTreeMap<(SocketAddr, &'static str), Agg>,
    stats: TlsStats,
    /// Live: see the module header.
    key_wait: Option<KeyWait>,
    /// Connections waiting for secrets, and the bytes they hold.
    waiting: BTreeMap<ConnId, usize>,
    held_total: usize,
}

impl TlsLayer {
    pub fn new(keylog: KeyLog) -> TlsLayer {
        TlsLayer { keylog, ..TlsLayer::default() }
    }

    /// Key-log text found in the capture itself (pcapng Decryption Secrets Blocks).
    pub fn add_secrets(&mut self, text: &[u8]) {
        self.keylog.add_text(text);
    }

    /// Live capture: a connection whose secrets are not logged yet waits for them, within `wait`, instead
    /// of going dark (see the module header).
    pub fn wait_for_keys(&mut self, wait: KeyWait) {
        self.key_wait = Some(wait);
    }

    /// Some connection waits for secrets: the key log should be looked at again.
    pub fn waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// The connections waiting for secrets, in connection order.
    pub fn waiting_conns(&self) -> impl Iterator<Item = ConnId> + '_ {
        self.waiting.keys().copied()
    }

    /// Key-log lines appended since the last look; then each of `waiting_conns` is `resume`d.
    pub fn add_live_secrets(&mut self, text: &[u8]) {
        self.keylog.add_text(text);
    }

    /// A waiting connection whose secrets are now complete passes its held records on to `out`.
    pub fn resume<F: FnMut(Delivery<'_>)>(&mut self, conn: ConnId, c: &mut TlsConn, out: &mut F) {
        if let Transport::Tls(t) = &mut c.transport {
            t.resume(&self.keylog, out);
        }
        self.track_held(conn, c);
    }

    /// Brings `waiting` and `held_total` up to date with one connection, and enforces the total cap.
    fn track_held(&mut self, conn: ConnId, c: &mut TlsConn) {
        let before = self.waiting.remove(&conn).unwrap_or(0);
        self.held_total = self.held_total.saturating_sub(before);
        let Transport::Tls(t) = &mut c.transport else { return };
        if !t.is_waiting() {
            return;
        }
        if self.key_wait.is_some_and(|kw| self.held_total.saturating_add(t.held_bytes()) > kw.bytes_total) {
            t.wait_cap_hits += 1;
            t.give_up();
            return;
        }
        self.held_total += t.held_bytes();
        self.waiting.insert(conn, t.held_bytes());
    }

    /// One direction of a connection ended: HTTP is told next, so a connection still waiting for its
    /// secrets gives up now rather than deliver after the end.
    pub fn end(&mut self, conn: ConnId, c: &mut TlsConn) {
        if self.waiting.contains_key(&conn) {
            if let Transport::Tls(t) = &mut c.transport {
                t.give_up();
            }
            self.track_held(conn, c);
        }
    }

    pub fn stats(&self) -> TlsStats {
        let mut s = self.stats.clone();
        s.keylog_secrets = self.keylog.secret_lines;
        s.keylog_malformed = self.keylog.malformed_lines;
        s
    }

    /// In-order bytes of a connection: decides the transport on the first bytes, then passes plaintext
    /// on (decrypted when TLS).
    #[allow(clippy::too_many_arguments)]
    pub fn data<F: FnMut(Delivery<'_>)>(&mut self, conn: ConnId, c: &mut TlsConn, dir: Direction, bytes: &[u8], frame: u64, ts: Timestamp, out: &mut F) {
        if let Transport::Undecided = c.transport {
            c.transport = classify(dir, bytes, frame, self.key_wait);
            if let Transport::Tls(_) = c.transport {
                self.stats.connections += 1;
            }
        }
        match &mut c.transport {
            Transport::Undecided | Transport::Plain => out(Delivery::Data { dir, bytes, frame, ts }),
            Transport::Tls(t) => {
                let was_waiting = t.is_waiting();
                t.data(dir, bytes, frame, ts, &self.keylog, out);
                if was_waiting || t.is_waiting() {
                    self.track_held(conn, c);
                }
            }
        }
    }

    /// Lost bytes of a connection; the gap is always passed on.
    #[allow(clippy::too_many_arguments)]
    pub fn gap<F: FnMut(Delivery<'_>)>(&mut self, conn: ConnId, c: &mut TlsConn, dir: Direction, len: u64, frame: u64, ts: Timestamp, out: &mut F) {
        if let Transport::Tls(t) = &mut c.transport {
            t.gap(len);
        }
        self.end(conn, c);
        out(Delivery::Gap { dir, len, frame, ts });
    }

    /// The connection is gone: its outcome goes into the tallies.
    pub fn close(&mut self, conn: ConnId, mut c: TlsConn) {
        // A connection still waiting for secrets gives up first, so it is tallied as undecrypted.
        self.end(conn, &mut c);
        let TlsConn { ep, transport, ts, h2_unanalysed: h2 } = c;
        let mut sni = String::new();
        match transport {
            Transport::Undecided | Transport::Plain => {}
            Transport::Tls(t) => {
                sni.clone_from(&t.sni);
                self.stats.decrypted_bytes += t.decrypted_bytes;
                self.stats.undecrypted_bytes += t.undecrypted_bytes;
                self.stats.early_data_bytes += t.early_data_bytes;
                self.stats.key_waits += t.waits;
                self.stats.key_wait_resumes += t.resumes;
                self.stats.key_wait_cap_hits += t.wait_cap_hits;
                // A handshake that never finished (no ServerHello) has nothing to decrypt and nothing dark.
                let dark = match &t.state {
                    TlsState::Dark(why) => Some(*why),
                    TlsState::Hello { .. } => None,
                    _ => {
                        self.stats.decrypted += 1;
                        None
                    }
                };
                if let Some(why) = dark {
                    *self.stats.undecrypted.entry(why.to_string()).or_default() += 1;
                    self.dark.entry((ep.server, why)).or_default().add(ep, &t.sni, t.undecrypted_bytes, t.first_frame, ts);
                }
            }
        }
        if let Some((reason, frame)) = h2 {
            self.stats.http2_connections += 1;
            self.http2.entry((ep.server, reason)).or_default().add(ep, &sni, 0, frame, ts);
        }
    }

    /// End of capture, after every connection closed: the coverage notices, one per server and reason
    /// (sorted: deterministic), for the session stage to turn into facts.
    pub fn finish<F: FnMut(Coverage)>(&mut self, ts: Timestamp, out: &mut F) {
        let notice = |what: Uncovered, server: SocketAddr, a: &Agg| Coverage {
            what,
            server: Some(server),
            client: a.client,
            sni: a.sni.clone(),
            connections: a.connections,
            bytes: a.bytes,
            ts: a.first_ts.unwrap_or(ts),
            frames: {
                let mut f = a.frames.clone();
                f.sort_unstable();
                f
            },
        };
        for ((server, why), a) in &self.dark {
            out(notice(Uncovered::TlsUndecrypted(*why), *server, a));
        }
        for ((server, reason), a) in &self.http2 {
            out(notice(Uncovered::Http2(reason), *server, a));
        }
    }
}

/// RFC 8446 §5.1 / §4.1.2: a client's TLS stream starts with a handshake record (type 22, major version 3)
/// holding a ClientHello (type 1). A stream that starts with another TLS record was picked up midstream.
fn classify(dir: Direction, bytes: &[u8], frame: u64, key_wait: Option<KeyWait>) -> Transport {
    match bytes {
        [22, 3, _, _, _, 1, ..] | [22, 3] | [22, 3, _] | [22, 3, _, _] | [22, 3, _, _, _] if dir == Direction::ToServer => {
            Transport::Tls(Box::new(TlsConnection::new(frame, key_wait)))
        }
        [20..=23, 3, 0..=4, ..] => {
            let mut t = TlsConnection::new(frame, key_wait);
            t.go_dark(Undecrypted::NoHandshake);
            Transport::Tls(Box::new(t))
        }
        _ => Transport::Plain,
    }
}

impl fmt::Display for TlsStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dark: u64 = self.undecrypted.values().sum();
        let reasons: Vec<String> = self.undecrypted.iter().map(|(k, v)| format!("{v} {k}")).collect();
        write!(
            f,
            "{} connections ({} decrypted, {} undecrypted{}), {} bytes decrypted, {} bytes undecrypted",
            self.connections,
            self.decrypted,
            dark,
            if reasons.is_empty() { String::new() } else { format!(": {}", reasons.join(", ")) },
            self.decrypted_bytes,
            self.undecrypted_bytes
        )?;
        if self.early_data_bytes > 0 {
            write!(f, ", {} bytes of 0-RTT early data skipped", self.early_data_bytes)?;
        }
        if self.http2_connections > 0 {
            write!(f, ", {} HTTP/2 connections not analysed", self.http2_connections)?;
        }
        write!(f, "; key log: {} secrets, {} malformed lines", self.keylog_secrets, self.keylog_malformed)?;
        if self.key_waits > 0 {
            write!(
                f,
                "; waited for secrets {} times: {} resumed, {} gave up ({} at a byte cap)",
                self.key_waits,
                self.key_wait_resumes,
                self.key_waits.saturating_sub(self.key_wait_resumes),
                self.key_wait_cap_hits
            )?;
        }
        Ok(())
    }
}

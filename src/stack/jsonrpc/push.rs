//! The push scanner: what `scan` reads from a payload, read from bytes fed as they arrive, in chunks cut
//! anywhere (inside a string, an escape, a UTF-8 sequence, a number, a literal, a key). `finish` decides
//! exactly as `super::parse` on the concatenation would (the serde quirks listed in `scan.rs` included), but
//! the body is never kept: a large `tools/list` result is skipped as it streams past, and an error is known
//! (`failed`) at the byte that makes it certain, so the rest of a doomed body costs nothing.
//!
//! The grammar is RFC 8259's (§2 structure and whitespace, §6 numbers, §7 strings, §8.2 UTF-8), read the
//! way serde_json reads it. `scan` keeps its place in the Rust call stack (`record` calls `object` calls a
//! field reader); here that place is data, so a chunk can end anywhere:
//! - `St`, the lexical state: which token or punctuation comes next, and for a token cut by a chunk
//!   boundary its partial state (the literal's matched length, the number's grammar state, the string's
//!   escape state and the first bytes of a UTF-8 sequence);
//! - `Want`, what the value being read is for (an id, a string member, a struct, a value to skip...),
//!   carried by the token so its end knows where the value goes;
//! - a stack of the typed containers open (`Frame`: the batch, a message, `params`, `_meta`...), bounded
//!   by the schema at six, and below a skipped value the bit stack `scan::Brackets`, so depth costs one
//!   bit a level and nothing is recursive on the input.
//!
//! Kept: the fields `scan` keeps (in a `scan::Wire`), the key being read up to the longest known name (a
//! longer one cannot be known, so only its validity is followed), and the text of a number read for its
//! value (it is handed to `Scan::number` whole, so it classifies exactly as `scan` does).

use std::borrow::Cow;
use std::mem;

use super::scan::{skip_plain, special, utf8_error, Brackets, Num, Scan, Wire};
use super::{convert, ClientInfo, Id, IdOrOther, Meta, Params, ParseProblem, Payload, StringOrOther};

type R<T> = Result<T, &'static str>;

/// Open typed containers at most: batch, message, `params`, `_meta`, `clientInfo`, and the value of
/// one of its string members read as any value.
const DEPTH: usize = 6;

/// The longest member name matched (`io.modelcontextprotocol/protocolVersion`).
const KEY: usize = 39;

/// Which `clientInfo`: of `params` or of `params._meta`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Owner {
    Params,
    Meta,
}

/// The structs `scan::record` reads (serde's derive: named members or members by position).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rec {
    Message,
    Params,
    Client(Owner),
    Meta,
    Error,
}

impl Rec {
    fn names(self) -> &'static [&'static str] {
        match self {
            Rec::Message => &["jsonrpc", "id", "method", "params", "result", "error"],
            Rec::Params => &["protocolVersion", "name", "uri", "clientInfo", "_meta", "requestId"],
            Rec::Client(_) => &["name"],
            Rec::Meta => &["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientInfo"],
            Rec::Error => &["code", "message"],
        }
    }

    /// How member `k` is read; `None` past the last member.
    #[inline]
    fn field(self, k: usize) -> Option<Want> {
        Some(match (self, k) {
            (Rec::Message, 0) => Want::JsonRpc,
            (Rec::Message, 1) => Want::Id,
            (Rec::Message, 2) => Want::Opt(Opt::Method),
            (Rec::Message, 3) => Want::Rec(Rec::Params),
            (Rec::Message, 4) => Want::Result,
            (Rec::Message, 5) => Want::Rec(Rec::Error),
            (Rec::Params, 0) => Want::Opt(Opt::Version),
            (Rec::Params, 1) => Want::Soo(Soo::Name),
            (Rec::Params, 2) => Want::Soo(Soo::Uri),
            (Rec::Params, 3) => Want::Rec(Rec::Client(Owner::Params)),
            (Rec::Params, 4) => Want::Rec(Rec::Meta),
            (Rec::Params, 5) => Want::ReqId,
            (Rec::Client(owner), 0) => Want::Soo(Soo::ClientName(owner)),
            (Rec::Meta, 0) => Want::Soo(Soo::MetaVersion),
            (Rec::Meta, 1) => Want::Rec(Rec::Client(Owner::Meta)),
            (Rec::Error, 0) => Want::Code,
            (Rec::Error, 1) => Want::Soo(Soo::Message),
            _ => return None,
        })
    }

    /// Written as an array of `given` members, are the missing ones optional? Only `jsonrpc` and `method`
    /// of a message are not (an Option without `#[serde(default)]`).
    fn complete(self, given: u8) -> bool {
        self != Rec::Message || given >= 3
    }
}

/// Optional string members: null is absent, anything but a string fails the payload.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Opt {
    Method,
    Version,
}

/// `StringOrOther` members: any value but a string is kept as "not a string".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Soo {
    Name,
    Uri,
    ClientName(Owner),
    MetaVersion,
    Message,
    /// `result.protocolVersion`: null is "not a string" here, and a repeat overwrites.
    ResultVersion,
}

/// What the value being read is for (the field readers of `scan`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Want {
    Message,
    /// `jsonrpc`: null is absent, anything else is skipped.
    JsonRpc,
    Id,
    /// `params.requestId`: an id, null is absent, anything else is kept as "not an id".
    ReqId,
    Code,
    Opt(Opt),
    Soo(Soo),
    /// `params`, `clientInfo`, `_meta`, `error`: null is absent.
    Rec(Rec),
    Result,
    /// `scan::any_skipped`: numbers must fit an f64, strings and the keys of an object must be UTF-8.
    Any,
    /// `scan::skip_value`: grammar only.
    Skip,
}

/// An open typed container.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Batch,
    Rec(Rec),
    /// The `result` object: only `protocolVersion` is read.
    Result,
    /// An array or object read by `Want::Any`: elements and values skipped.
    Any,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: Kind,
    object: bool,
    /// A record: the members seen, a bit each (object), or how many were given (array).
    seen: u8,
}

/// Where a number is in the grammar (RFC 8259 §6), after the bytes consumed so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Digits {
    Start,
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

/// What a string's text is checked for and where it goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sink {
    /// Skipped (serde's `ignore_str`): escapes checked, no raw control character, no UTF-8 check.
    Skip,
    /// Read and dropped: UTF-8, surrogate escapes paired.
    Drop,
    /// A typed object's key: read, and its first `KEY` bytes kept to match the member names.
    Key,
    /// A string value kept (`text`).
    Keep,
}

/// What the string is, for when it closes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Then {
    Value(Want),
    Key,
    SkipKey,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Esc {
    Text,
    /// After a backslash.
    Backslash,
    /// In `\uXXXX`, `got` digits read; `high` is the leading surrogate this one must complete.
    Hex { n: u16, got: u8, high: Option<u16> },
    /// After a leading surrogate (read strings): `\u` must follow at once.
    PairBackslash(u16),
    PairU(u16),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Str {
    sink: Sink,
    then: Then,
    esc: Esc,
    /// A UTF-8 sequence cut by the chunk boundary: its first `have` bytes of `need`.
    pend: [u8; 4],
    have: u8,
    need: u8,
}

/// Where a skipped value is, between its tokens.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SkipAt {
    Value,
    /// Just inside a container (not yet on `skip`).
    First { object: bool },
    Key,
    Colon,
    /// A value in the container on top of `skip` ended.
    After,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    /// Before the first byte that is not ASCII whitespace (`parse` chooses batch or message there);
    /// `ff`: a form feed was among them, which `parse` calls whitespace but JSON does not.
    Lead { ff: bool },
    /// Whitespace, then a value for the want.
    Value(Want),
    Lit { word: &'static [u8], at: usize, want: Want },
    Num { at: Digits, want: Want },
    Str(Str),
    /// Just inside the top typed container: its end, or its first element or key.
    First,
    /// Whitespace, then a key of the top typed object (after a comma).
    Key,
    Colon(Want),
    /// A value of the top typed container ended: a comma or its end.
    After,
    /// In a skipped value (`skip`: the containers open in it).
    Skip(SkipAt),
    /// The payload's value ended: only whitespace may follow.
    Trailing,
    Failed,
}

/// A payload read as it arrives: `feed` it the bytes in order, then `finish`.
pub struct Push {
    st: St,
    frames: [Frame; DEPTH],
    depth: usize,
    skip: Brackets,
    /// The message being read.
    wire: Wire,
    /// A batch: the messages read so far.
    // ALLOC: one `Wire` per message of a batch (what `scan::batch` returns too)
    done: Vec<Wire>,
    batch: bool,
    // ALLOC: the text of the kept string or of the number being read
    text: Vec<u8>,
    key: [u8; KEY],
    /// Bytes of `key` used; past `KEY` when the key is longer than any name.
    key_len: usize,
    /// Bytes fed before the current chunk, and where the error was, for the message.
    at: usize,
    error: (&'static str, usize),
}

impl std::fmt::Debug for Push {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Push").field("state", &self.st).field("depth", &self.depth).field("fed", &self.at).finish_non_exhaustive()
    }
}

impl Default for Push {
    fn default() -> Push {
        Push {
            st: St::Lead { ff: false },
            frames: [Frame { kind: Kind::Batch, object: false, seen: 0 }; DEPTH],
            depth: 0,
            skip: Brackets::default(),
            wire: Wire::default(),
            done: Vec::new(),
            batch: false,
            text: Vec::new(),
            key: [0; KEY],
            key_len: 0,
            at: 0,
            error: ("", 0),
        }
    }
}

/// JSON whitespace (RFC 8259 §2), then the next byte (not consumed); `None` at the chunk's end.
fn ws(b: &[u8], i: &mut usize) -> Option<u8> {
    while let Some(&c) = b.get(*i) {
        if !matches!(c, b' ' | b'\n' | b'\t' | b'\r') {
            return Some(c);
        }
        *i += 1;
    }
    None
}

fn hex(c: u8) -> R<u16> {
    Ok(u16::from(match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => return Err("invalid escape"),
    }))
}

/// The number grammar (RFC 8259 §6), one byte on: the next state, or `None` when `c` is not part of the
/// number, which ends before it.
fn digit(at: Digits, c: u8) -> R<Option<Digits>> {
    Ok(Some(match (at, c) {
        (Digits::Start, b'-') => Digits::Minus,
        (Digits::Start | Digits::Minus, b'0') => Digits::Zero,
        (Digits::Start | Digits::Minus | Digits::Int, b'0'..=b'9') => Digits::Int,
        (Digits::Zero | Digits::Int, b'.') => Digits::Dot,
        (Digits::Dot | Digits::Frac, b'0'..=b'9') => Digits::Frac,
        (Digits::Zero | Digits::Int | Digits::Frac, b'e' | b'E') => Digits::E,
        (Digits::E, b'+' | b'-') => Digits::ESign,
        (Digits::E | Digits::ESign | Digits::Exp, b'0'..=b'9') => Digits::Exp,
        // A leading zero may not be followed by a digit.
        (Digits::Zero | Digits::Int | Digits::Frac | Digits::Exp, _) if !c.is_ascii_digit() => return Ok(None),
        _ => return Err("invalid number"),
    }))
}

/// How a skipped string from its quote went in one chunk.
#[derive(Debug, PartialEq, Eq)]
enum Skipped {
    /// Closed: the index after its closing quote.
    End(usize),
    /// The chunk ended in its text (`Esc::Text`) or just after a backslash (`Esc::Backslash`), every byte
    /// before checked: the string state takes over at the chunk's end, as it would have got there.
    Cut(Esc),
    /// The chunk ended inside a `\\u` escape's digits: the string state reads the string again from its
    /// quote, so the digits are read as digits.
    Again,
}

/// A skipped string in `b` from its quote at `from` (errors up to where it or `b` ends).
#[inline]
fn skip_string(b: &[u8], from: usize) -> R<Skipped> {
    let mut j = from + 1;
    loop {
        let Some(k) = special(b.get(j..).unwrap_or_default()) else { return Ok(Skipped::Cut(Esc::Text)) };
        j += k;
        match b.get(j) {
            Some(b'"') => return Ok(Skipped::End(j + 1)),
            Some(b'\\') => {}
            _ => return Err("control character in a string"),
        }
        match b.get(j + 1) {
            None => return Ok(Skipped::Cut(Esc::Backslash)),
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => j += 2,
            Some(b'u') => {
                let Some(h) = b.get(j + 2..j + 6) else { return Ok(Skipped::Again) };
                for &c in h {
                    hex(c)?;
                }
                j += 6;
            }
            Some(_) => return Err("invalid escape"),
        }
        j = skip_plain(b, j);
    }
}

/// A skipped number whole in `b` from `from`: where it ends; `None` when `b` ends first (it may go on).
fn skip_number(b: &[u8], from: usize) -> R<Option<usize>> {
    let mut at = Digits::Start;
    for (j, &c) in b.iter().enumerate().skip(from) {
        match digit(at, c)? {
            Some(next) => at = next,
            None => return Ok(Some(j)),
        }
    }
    Ok(None)
}

/// `word` whole in `b` at `from`: where it ends; `None` when `b` ends first.
fn literal(b: &[u8], from: usize, word: &[u8]) -> R<Option<usize>> {
    match b.get(from..from + word.len()) {
        Some(s) if s == word => Ok(Some(from + word.len())),
        Some(_) => Err("expected a literal"),
        None => Ok(None),
    }
}

impl Push {
    pub fn new() -> Push {
        Push::default()
    }

    /// The next bytes of the payload, cut anywhere. After an error they are not looked at.
    pub fn feed(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() && self.st != St::Failed {
            if let Err(what) = self.step(bytes, &mut i) {
                self.error = (what, self.at + i);
                self.st = St::Failed;
            }
        }
        self.at += bytes.len();
    }

    /// The payload is not JSON-RPC whatever follows: `finish` will say `NotJson`.
    pub fn failed(&self) -> bool {
        self.st == St::Failed
    }

    /// The decision on everything fed: what `super::parse` gives on the concatenation.
    pub fn finish(self) -> Result<Payload, ParseProblem> {
        match self.st {
            St::Lead { .. } => Err(ParseProblem::Empty),
            St::Trailing if self.batch => {
                let messages: super::Messages = self.done.into_iter().filter_map(convert).collect();
                if messages.is_empty() {
                    return Err(ParseProblem::NotJsonRpc);
                }
                Ok(Payload { messages, batch: true })
            }
            St::Trailing => {
                let m = convert(self.wire).ok_or(ParseProblem::NotJsonRpc)?;
                Ok(Payload { messages: smallvec::smallvec![m], batch: false })
            }
            St::Failed => Err(ParseProblem::NotJson(format!("{} at byte {}", self.error.0, self.error.1))),
            _ => Err(ParseProblem::NotJson(format!("end of input at byte {}", self.at))),
        }
    }

    /// Reads from `b[*i..]` in the current state: at least one byte, or a change of state.
    fn step(&mut self, b: &[u8], i: &mut usize) -> R<()> {
        match self.st {
            St::Lead { mut ff } => {
                while let Some(&c) = b.get(*i) {
                    if c.is_ascii_whitespace() {
                        ff |= c == 0x0c;
                        *i += 1;
                        continue;
                    }
                    if ff {
                        // `scan` then reads JSON whitespace only, and meets the form feed.
                        return Err("expected a value");
                    }
                    if c == b'[' {
                        *i += 1;
                        self.batch = true;
                        return self.open(Kind::Batch, false);
                    }
                    return self.start(Want::Message, c, b, i);
                }
                self.st = St::Lead { ff };
            }
            St::Value(Want::Skip) => self.skip_run(b, i, SkipAt::Value)?,
            St::Value(want) => {
                if let Some(c) = ws(b, i) {
                    self.start(want, c, b, i)?;
                }
            }
            St::Lit { word, mut at, want } => {
                while let Some(&w) = word.get(at) {
                    let Some(&c) = b.get(*i) else {
                        self.st = St::Lit { word, at, want };
                        return Ok(());
                    };
                    if c != w {
                        return Err("expected a literal");
                    }
                    *i += 1;
                    at += 1;
                }
                self.literal_done(want, word);
            }
            St::Num { at, want } => self.number(b, i, at, want)?,
            St::Str(mut s) => {
                if self.string(b, i, &mut s)? {
                    self.string_done(s.then, None)?;
                } else {
                    self.st = St::Str(s);
                }
            }
            St::First => {
                let Some(c) = ws(b, i) else { return Ok(()) };
                let object = self.top()?.object;
                if c == if object { b'}' } else { b']' } {
                    *i += 1;
                    return self.close();
                }
                if object {
                    if c != b'"' {
                        return Err("expected a key");
                    }
                    self.open_str(b, i, Sink::Key, Then::Key)?;
                } else {
                    let want = self.next_element()?;
                    self.start(want, c, b, i)?;
                }
            }
            St::Key => match ws(b, i) {
                None => {}
                Some(b'"') => self.open_str(b, i, Sink::Key, Then::Key)?,
                Some(_) => return Err("expected a key"),
            },
            St::Colon(want) => match ws(b, i) {
                None => {}
                Some(b':') => {
                    *i += 1;
                    self.st = St::Value(want);
                }
                Some(_) => return Err("expected ':'"),
            },
            St::After => {
                let Some(c) = ws(b, i) else { return Ok(()) };
                let object = self.top()?.object;
                *i += 1;
                match c {
                    b',' if object => self.st = St::Key,
                    b',' => self.st = St::Value(self.next_element()?),
                    b'}' if object => self.close()?,
                    b']' if !object => self.close()?,
                    _ => return Err("expected ',' or the end of a container"),
                }
            }
            St::Skip(at) => self.skip_run(b, i, at)?,
            St::Trailing => {
                if ws(b, i).is_some() {
                    return Err("trailing characters");
                }
            }
            St::Failed => *i = b.len(),
        }
        Ok(())
    }

    /// A value for `want` starts with `c`, at `b[*i]`: its reader begins, or it fails.
    fn start(&mut self, want: Want, c: u8, b: &[u8], i: &mut usize) -> R<()> {
        match (want, c) {
            (Want::Message, b'{' | b'[') => {
                // `wire` is empty: nothing was read before, and a batch takes each message it ends.
                *i += 1;
                self.open(Kind::Rec(Rec::Message), c == b'{')
            }
            (Want::Message, _) => Err("expected an object"),
            (Want::Skip, _) => self.start_skip(c, b, i),
            // Any result answers, null included (`scan::result`).
            (Want::Result, _) => {
                self.wire.result = Some(Default::default());
                if c == b'{' {
                    *i += 1;
                    return self.open(Kind::Result, true);
                }
                self.start(Want::Any, c, b, i)
            }
            // Parameters by position: nothing named to read (`scan::params`).
            (Want::Rec(Rec::Params), b'[') => {
                self.begin(Rec::Params);
                self.start(Want::Any, c, b, i)
            }
            (_, b'n') => {
                *i += 1;
                self.st = St::Lit { word: b"null", at: 1, want };
                Ok(())
            }
            (Want::JsonRpc, _) => {
                self.wire.jsonrpc = true;
                self.start_skip(c, b, i)
            }
            (Want::ReqId, b'"') => self.open_str(b, i, Sink::Keep, Then::Value(want)),
            (Want::ReqId, b'-' | b'0'..=b'9') => {
                self.st = St::Num { at: Digits::Start, want };
                Ok(())
            }
            (Want::ReqId, _) => {
                self.params().request_id = Some(IdOrOther(None));
                self.start(Want::Any, c, b, i)
            }
            (Want::Soo(soo), _) if c != b'"' => {
                self.set(soo, StringOrOther(None));
                self.start(Want::Any, c, b, i)
            }
            (Want::Any, b'"') => self.open_str(b, i, Sink::Drop, Then::Value(want)),
            (Want::Id | Want::Opt(_) | Want::Soo(_), b'"') => self.open_str(b, i, Sink::Keep, Then::Value(want)),
            (Want::Any | Want::Id | Want::Code, b'-' | b'0'..=b'9') => {
                self.st = St::Num { at: Digits::Start, want };
                Ok(())
            }
            (Want::Any, b't') => {
                *i += 1;
                self.st = St::Lit { word: b"true", at: 1, want };
                Ok(())
            }
            (Want::Any, b'f') => {
                *i += 1;
                self.st = St::Lit { word: b"false", at: 1, want };
                Ok(())
            }
            (Want::Any, b'[' | b'{') => {
                *i += 1;
                self.open(Kind::Any, c == b'{')
            }
            (Want::Rec(rec), b'[' | b'{') => {
                *i += 1;
                self.begin(rec);
                self.open(Kind::Rec(rec), c == b'{')
            }
            _ => Err("unexpected value"),
        }
    }

    /// A skipped value starts with `c` (`scan::skip_value`).
    fn start_skip(&mut self, c: u8, b: &[u8], i: &mut usize) -> R<()> {
        let want = Want::Skip;
        match c {
            b'"' => return self.open_str(b, i, Sink::Skip, Then::Value(want)),
            b'-' | b'0'..=b'9' => self.st = St::Num { at: Digits::Start, want },
            b't' | b'f' | b'n' => {
                let word: &'static [u8] = match c {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                *i += 1;
                self.st = St::Lit { word, at: 1, want };
            }
            b'[' | b'{' => {
                *i += 1;
                self.st = St::Skip(SkipAt::First { object: c == b'{' });
            }
            _ => return Err("expected a value"),
        }
        Ok(())
    }

    /// A skipped string that `b` cut, checked up to its end: the string state from there, as `open_str`
    /// and `string` would have left it after reading the same bytes again.
    fn cut_str(&mut self, b: &[u8], i: &mut usize, esc: Esc, then: Then) -> R<()> {
        *i = b.len();
        self.key_len = 0;
        self.text.clear();
        self.st = St::Str(Str { sink: Sink::Skip, then, esc, pend: [0; 4], have: 0, need: 0 });
        Ok(())
    }

    /// A string opens at `b[*i]`.
    fn open_str(&mut self, b: &[u8], i: &mut usize, sink: Sink, then: Then) -> R<()> {
        *i += 1;
        // Whole in this chunk and without escapes, as most are: read in place, copied only if kept.
        let rest = b.get(*i..).unwrap_or_default();
        if let Some(k) = special(rest) {
            if let (Some(b'"'), Some(text)) = (rest.get(k), rest.get(..k)) {
                if sink != Sink::Skip && utf8_error(text).is_some() {
                    return Err("invalid UTF-8 in a string");
                }
                *i += k + 1;
                return self.string_done(then, Some(text));
            }
        }
        self.key_len = 0;
        self.text.clear();
        self.st = St::Str(Str { sink, then, esc: Esc::Text, pend: [0; 4], have: 0, need: 0 });
        Ok(())
    }

    fn open(&mut self, kind: Kind, object: bool) -> R<()> {
        let frame = self.frames.get_mut(self.depth).ok_or("nested too deep")?;
        *frame = Frame { kind, object, seen: 0 };
        self.depth += 1;
        self.st = St::First;
        Ok(())
    }

    fn top(&mut self) -> R<&mut Frame> {
        self.depth.checked_sub(1).and_then(|d| self.frames.get_mut(d)).ok_or("no open container")
    }

    /// The top typed array's next element: how it is read.
    fn next_element(&mut self) -> R<Want> {
        let top = self.top()?;
        match top.kind {
            Kind::Batch => Ok(Want::Message),
            Kind::Rec(rec) => {
                let want = rec.field(usize::from(top.seen)).ok_or("too many elements")?;
                top.seen += 1;
                Ok(want)
            }
            Kind::Result | Kind::Any => Ok(Want::Skip),
        }
    }

    /// The top typed container ended (its closing byte consumed).
    fn close(&mut self) -> R<()> {
        let top = *self.top()?;
        if let Kind::Rec(rec) = top.kind {
            if !top.object && !rec.complete(top.seen) {
                return Err("too few elements");
            }
            if rec == Rec::Message && self.batch {
                self.done.push(mem::take(&mut self.wire));
            }
        }
        self.depth -= 1;
        self.value_done(false);
        Ok(())
    }

    /// A value ended: within a skipped container, or one of the top typed container, or the payload.
    fn value_done(&mut self, skipping: bool) {
        self.st = if skipping && self.skip.last().is_some() {
            St::Skip(SkipAt::After)
        } else if self.depth == 0 {
            St::Trailing
        } else {
            St::After
        };
    }

    fn literal_done(&mut self, want: Want, word: &[u8]) {
        if word == b"null" {
            match want {
                Want::Id => self.wire.id = Some(Id::Null),
                Want::Soo(Soo::ResultVersion) => self.set(Soo::ResultVersion, StringOrOther(None)),
                // Elsewhere null is absent, which the member already is: given once, or the payload fails.
                _ => {}
            }
        }
        self.value_done(want == Want::Skip);
    }

    fn number(&mut self, b: &[u8], i: &mut usize, mut at: Digits, want: Want) -> R<()> {
        let from = *i;
        let mut ended = false;
        while let Some(&c) = b.get(*i) {
            match digit(at, c)? {
                Some(next) => at = next,
                None => {
                    ended = true;
                    break;
                }
            }
            *i += 1;
        }
        let part = b.get(from..*i).unwrap_or_default();
        if ended && self.text.is_empty() {
            // The whole number is in this chunk: read where it lies.
            return self.number_done(want, Some(part));
        }
        if want != Want::Skip {
            self.text.extend_from_slice(part);
        }
        if !ended {
            self.st = St::Num { at, want };
            return Ok(());
        }
        self.number_done(want, None)
    }

    /// `scan::skip_value`'s loop, over the tokens of a skipped value that this chunk holds whole; a token
    /// the chunk cuts is handed to the token states of `step`, a chunk ending between tokens leaves `at`.
    fn skip_run(&mut self, b: &[u8], i: &mut usize, mut at: SkipAt) -> R<()> {
        loop {
            let Some(c) = ws(b, i) else {
                self.st = St::Skip(at);
                return Ok(());
            };
            match at {
                SkipAt::Value => {
                    let end = match c {
                        b'"' => match skip_string(b, *i)? {
                            Skipped::End(end) => Some(end),
                            Skipped::Cut(esc) => return self.cut_str(b, i, esc, Then::Value(Want::Skip)),
                            Skipped::Again => None,
                        },
                        b'-' | b'0'..=b'9' => skip_number(b, *i)?,
                        b't' => literal(b, *i, b"true")?,
                        b'f' => literal(b, *i, b"false")?,
                        b'n' => literal(b, *i, b"null")?,
                        b'[' | b'{' => {
                            *i += 1;
                            at = SkipAt::First { object: c == b'{' };
                            continue;
                        }
                        _ => return Err("expected a value"),
                    };
                    let Some(end) = end else { return self.start_skip(c, b, i) };
                    *i = end;
                }
                SkipAt::First { object } => {
                    if c != if object { b'}' } else { b']' } {
                        self.skip.push(object);
                        at = if object { SkipAt::Key } else { SkipAt::Value };
                        continue;
                    }
                    *i += 1;
                }
                SkipAt::Key => {
                    if c != b'"' {
                        return Err("expected a key");
                    }
                    let end = match skip_string(b, *i)? {
                        Skipped::End(end) => end,
                        Skipped::Cut(esc) => return self.cut_str(b, i, esc, Then::SkipKey),
                        Skipped::Again => return self.open_str(b, i, Sink::Skip, Then::SkipKey),
                    };
                    *i = end;
                    at = SkipAt::Colon;
                    continue;
                }
                SkipAt::Colon => {
                    if c != b':' {
                        return Err("expected ':'");
                    }
                    *i += 1;
                    at = SkipAt::Value;
                    continue;
                }
                SkipAt::After => {
                    let object = self.skip.last() == Some(true);
                    *i += 1;
                    match c {
                        b',' => {
                            at = if object { SkipAt::Key } else { SkipAt::Value };
                            continue;
                        }
                        b'}' if object => self.skip.pop(),
                        b']' if !object => self.skip.pop(),
                        _ => return Err("expected ',' or the end of a container"),
                    }
                }
            }
            // A value ended: the skipped one, or one inside it.
            if self.skip.last().is_none() {
                self.value_done(false);
                return Ok(());
            }
            at = SkipAt::After;
        }
    }

    /// A number ended; read for its value unless skipped, by `scan`'s own reader.
    /// `whole`: the number's text when one chunk held it, else it is in `text`.
    fn number_done(&mut self, want: Want, whole: Option<&[u8]>) -> R<()> {
        if want != Want::Skip {
            let n = Scan::new(whole.unwrap_or(&self.text)).number().map_err(|_| "number out of range")?;
            self.text.clear();
            match (want, n) {
                (Want::Id, n) => self.wire.id = Some(n.into_id()),
                (Want::ReqId, n) => self.params().request_id = Some(IdOrOther(Some(n.into_id()))),
                (Want::Code, Num::I64(n)) => self.error_mut().0 = Some(n),
                (Want::Code, Num::U64(n)) => self.error_mut().0 = Some(i64::try_from(n).map_err(|_| "error code out of range")?),
                (Want::Code, Num::F64(_)) => return Err("error code is not an integer"),
                _ => {}
            }
        }
        self.value_done(want == Want::Skip);
        Ok(())
    }

    /// Reads string text from `b[*i..]`; true when the closing quote was consumed.
    fn string(&mut self, b: &[u8], i: &mut usize, s: &mut Str) -> R<bool> {
        loop {
            match s.esc {
                Esc::Text => {
                    if s.have < s.need {
                        // The rest of a UTF-8 sequence the last chunk cut: continuation bytes only.
                        while s.have < s.need {
                            let Some(&c) = b.get(*i) else { return Ok(false) };
                            if c & 0xc0 != 0x80 {
                                return Err("invalid UTF-8 in a string");
                            }
                            if let Some(p) = s.pend.get_mut(usize::from(s.have)) {
                                *p = c;
                            }
                            s.have += 1;
                            *i += 1;
                        }
                        let seq = s.pend.get(..usize::from(s.need)).unwrap_or_default();
                        if std::str::from_utf8(seq).is_err() {
                            return Err("invalid UTF-8 in a string");
                        }
                        self.sink(s.sink, seq);
                        (s.have, s.need) = (0, 0);
                    }
                    if s.sink == Sink::Skip {
                        // A skipped string's text and valid escapes, 64 bytes a step (`skip_plain`):
                        // most of a long one, which comes a segment at a time.
                        *i = skip_plain(b, *i);
                    }
                    let rest = b.get(*i..).unwrap_or_default();
                    let stop = special(rest);
                    let span = rest.get(..stop.unwrap_or(rest.len())).unwrap_or_default();
                    *i += span.len();
                    if s.sink != Sink::Skip {
                        if let Some(e) = utf8_error(span) {
                            // Only a sequence cut by the chunk's end may be incomplete: the bytes that
                            // stop a span are ASCII.
                            if e.error_len().is_some() || stop.is_some() {
                                return Err("invalid UTF-8 in a string");
                            }
                            let (whole, tail) = span.split_at(e.valid_up_to());
                            self.sink(s.sink, whole);
                            s.need = match tail.first() {
                                Some(0xc0..=0xdf) => 2,
                                Some(0xe0..=0xef) => 3,
                                _ => 4,
                            };
                            s.have = 0;
                            for (p, &c) in s.pend.iter_mut().zip(tail) {
                                *p = c;
                                s.have += 1;
                            }
                            return Ok(false);
                        }
                        self.sink(s.sink, span);
                    }
                    match stop.and_then(|k| rest.get(k)) {
                        None => return Ok(false),
                        Some(b'"') => {
                            *i += 1;
                            return Ok(true);
                        }
                        Some(b'\\') => {
                            *i += 1;
                            s.esc = Esc::Backslash;
                        }
                        Some(_) => return Err("control character in a string"),
                    }
                }
                Esc::Backslash => {
                    let Some(&c) = b.get(*i) else { return Ok(false) };
                    *i += 1;
                    let ch = match c {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            s.esc = Esc::Hex { n: 0, got: 0, high: None };
                            continue;
                        }
                        _ => return Err("invalid escape"),
                    };
                    self.push_char(s.sink, ch);
                    s.esc = Esc::Text;
                }
                Esc::Hex { mut n, mut got, high } => {
                    while got < 4 {
                        let Some(&c) = b.get(*i) else {
                            s.esc = Esc::Hex { n, got, high };
                            return Ok(false);
                        };
                        n = (n << 4) | hex(c)?;
                        got += 1;
                        *i += 1;
                    }
                    s.esc = Esc::Text;
                    if s.sink == Sink::Skip {
                        continue;
                    }
                    let ch = match high {
                        None if (0xdc00..=0xdfff).contains(&n) => return Err("lone surrogate in an escape"),
                        None if (0xd800..=0xdbff).contains(&n) => {
                            s.esc = Esc::PairBackslash(n);
                            continue;
                        }
                        None => char::from_u32(u32::from(n)),
                        Some(h) if (0xdc00..=0xdfff).contains(&n) => {
                            char::from_u32((((u32::from(h) - 0xd800) << 10) | (u32::from(n) - 0xdc00)) + 0x1_0000)
                        }
                        Some(_) => return Err("unpaired surrogate in an escape"),
                    };
                    self.push_char(s.sink, ch.ok_or("invalid escape")?);
                }
                Esc::PairBackslash(h) => match b.get(*i) {
                    None => return Ok(false),
                    Some(b'\\') => {
                        *i += 1;
                        s.esc = Esc::PairU(h);
                    }
                    Some(_) => return Err("unpaired surrogate in an escape"),
                },
                Esc::PairU(h) => match b.get(*i) {
                    None => return Ok(false),
                    Some(b'u') => {
                        *i += 1;
                        s.esc = Esc::Hex { n: 0, got: 0, high: Some(h) };
                    }
                    Some(_) => return Err("unpaired surrogate in an escape"),
                },
            }
        }
    }

    #[inline]
    fn sink(&mut self, sink: Sink, bytes: &[u8]) {
        match sink {
            Sink::Keep => self.text.extend_from_slice(bytes),
            Sink::Key => {
                let end = self.key_len.saturating_add(bytes.len());
                match self.key.get_mut(self.key_len..end) {
                    Some(to) => {
                        to.copy_from_slice(bytes);
                        self.key_len = end;
                    }
                    // Longer than any name: it cannot match, only its validity is still read.
                    None => self.key_len = KEY + 1,
                }
            }
            Sink::Skip | Sink::Drop => {}
        }
    }

    #[inline]
    fn push_char(&mut self, sink: Sink, c: char) {
        if matches!(sink, Sink::Keep | Sink::Key) {
            self.sink(sink, c.encode_utf8(&mut [0; 4]).as_bytes());
        }
    }

    /// A string closed; `whole`: its text when read in place, else it is in `text` or `key`.
    fn string_done(&mut self, then: Then, whole: Option<&[u8]>) -> R<()> {
        let want = match then {
            Then::SkipKey => {
                self.st = St::Skip(SkipAt::Colon);
                return Ok(());
            }
            Then::Key => return self.key_done(whole),
            Then::Value(Want::Skip) => {
                self.value_done(true);
                return Ok(());
            }
            Then::Value(want) => want,
        };
        if want == Want::Opt(Opt::Method) {
            // A known method is not copied.
            let name = match whole {
                Some(text) => std::str::from_utf8(text).map(Cow::Borrowed).ok(),
                None => String::from_utf8(mem::take(&mut self.text)).map(Cow::Owned).ok(),
            };
            self.wire.method = Some(super::method_name(name.ok_or("invalid UTF-8 in a string")?));
        } else if want != Want::Any {
            // ALLOC: the kept string
            let text = match whole {
                Some(text) => String::from_utf8(text.to_vec()),
                None => String::from_utf8(mem::take(&mut self.text)),
            };
            let text = text.map_err(|_| "invalid UTF-8 in a string")?;
            match want {
                Want::Id => self.wire.id = Some(Id::Str(text)),
                Want::ReqId => self.params().request_id = Some(IdOrOther(Some(Id::Str(text)))),
                Want::Opt(Opt::Version) => self.params().protocol_version = Some(text),
                Want::Soo(soo) => self.set(soo, StringOrOther(Some(text))),
                _ => {}
            }
        }
        self.value_done(false);
        Ok(())
    }

    /// A key of the top typed object was read: which member, and is it given twice?
    fn key_done(&mut self, whole: Option<&[u8]>) -> R<()> {
        let kept = self.key;
        let key = whole.or_else(|| kept.get(..self.key_len));
        let d = self.depth.checked_sub(1).ok_or("no open container")?;
        let top = self.frames.get_mut(d).ok_or("no open container")?;
        let want = match top.kind {
            Kind::Rec(rec) => match key.and_then(|key| rec.names().iter().position(|n| n.as_bytes() == key)) {
                Some(k) => {
                    let bit = 1u8 << k;
                    if top.seen & bit != 0 {
                        return Err("duplicate member");
                    }
                    top.seen |= bit;
                    rec.field(k).ok_or("unknown member")?
                }
                None => Want::Skip,
            },
            // Repeats allowed: serde's visitor there is a loop that overwrites.
            Kind::Result if key == Some(&b"protocolVersion"[..]) => Want::Soo(Soo::ResultVersion),
            _ => Want::Skip,
        };
        self.st = St::Colon(want);
        Ok(())
    }

    /// A struct member begins (not null): the member is present from here on.
    fn begin(&mut self, rec: Rec) {
        match rec {
            Rec::Message => {}
            Rec::Params => self.wire.params = Some(Params::default()),
            Rec::Client(owner) => *self.client_slot(owner) = Some(ClientInfo::default()),
            Rec::Meta => self.params().meta = Some(Meta::default()),
            Rec::Error => self.wire.error = Some((None, None)),
        }
    }

    fn set(&mut self, soo: Soo, v: StringOrOther) {
        let slot = match soo {
            Soo::Name => &mut self.params().name,
            Soo::Uri => &mut self.params().uri,
            Soo::ClientName(owner) => &mut self.client_slot(owner).get_or_insert_with(ClientInfo::default).name,
            Soo::MetaVersion => &mut self.params().meta.get_or_insert_with(Meta::default).protocol_version,
            Soo::Message => &mut self.error_mut().1,
            Soo::ResultVersion => &mut self.wire.result.get_or_insert_with(Default::default).protocol_version,
        };
        *slot = Some(v);
    }

    // The members below were made present by `begin` when their struct opened; `get_or_insert` only
    // spares an unwrap.
    fn params(&mut self) -> &mut Params {
        self.wire.params.get_or_insert_with(Params::default)
    }

    fn client_slot(&mut self, owner: Owner) -> &mut Option<ClientInfo> {
        match owner {
            Owner::Params => &mut self.params().client_info,
            Owner::Meta => &mut self.params().meta.get_or_insert_with(Meta::default).client_info,
        }
    }

    fn error_mut(&mut self) -> &mut (Option<i64>, Option<StringOrOther>) {
        self.wire.error.get_or_insert((None, None))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::super::tests::Gen;
    use super::super::{oracle, parse, Id, Message, Params, ParseProblem, Payload, StringOrOther};
    use super::Push;

    #[test]
    fn a_skipped_string_says_how_the_chunk_left_it() {
        use super::{skip_string, Esc, Skipped};
        let long = |tail: &str| format!("\"{}\\n{}{tail}", "a".repeat(70), "b".repeat(70));
        assert_eq!(skip_string(long("\" ,").as_bytes(), 0), Ok(Skipped::End(144)));
        // Cut in the text, past a valid escape and a step: the state is text.
        assert_eq!(skip_string(long("").as_bytes(), 0), Ok(Skipped::Cut(Esc::Text)));
        // Cut just after a backslash: the next chunk's first byte is escaped.
        assert_eq!(skip_string(long("\\").as_bytes(), 0), Ok(Skipped::Cut(Esc::Backslash)));
        // Cut inside `\u`'s digits: read again from the quote.
        assert_eq!(skip_string(long("\\u0").as_bytes(), 0), Ok(Skipped::Again));
        // An error before the cut is the chunk's.
        assert_eq!(skip_string(long("\\x").as_bytes(), 0), Err("invalid escape"));
        assert_eq!(skip_string(long("\u{1}").as_bytes(), 0), Err("control character in a string"));
    }

    fn pushed(chunks: &[&[u8]]) -> Result<Payload, ParseProblem> {
        let mut p = Push::new();
        for c in chunks {
            p.feed(c);
        }
        p.finish()
    }

    /// A decision with the error message blanked (each scanner words its own). Stricter than
    /// `oracle::comparable`, which also blanks float ids: `Push` reads numbers with `scan`'s own reader,
    /// so its ids must be `parse`'s to the last digit.
    fn same(r: Result<Payload, ParseProblem>) -> Result<Payload, ParseProblem> {
        r.map_err(|e| match e {
            ParseProblem::NotJson(_) => ParseProblem::NotJson(String::new()),
            e => e,
        })
    }

    /// Every cut into two chunks, every cut into three around each byte, and one byte at a time: each
    /// decides as `parse` on the whole. Returns the decision fed byte by byte.
    fn every_split(whole: &[u8]) -> Result<Payload, ParseProblem> {
        let want = same(parse(whole));
        for cut in 0..=whole.len() {
            let (a, b) = whole.split_at(cut);
            assert_eq!(same(pushed(&[a, b])), want, "cut at {cut}: {}", String::from_utf8_lossy(whole));
            if cut < whole.len() {
                let (b, c) = b.split_at(1);
                assert_eq!(same(pushed(&[a, &[], b, c])), want, "byte {cut} alone: {}", String::from_utf8_lossy(whole));
            }
        }
        let bytes: Vec<&[u8]> = whole.chunks(1).collect();
        let got = pushed(&bytes);
        assert_eq!(same(got.clone()), want, "byte by byte: {}", String::from_utf8_lossy(whole));
        got
    }

    fn request_id(r: &Result<Payload, ParseProblem>) -> &Id {
        match r.as_ref().unwrap().messages.first() {
            Some(Message::Request { id, .. }) => id,
            m => panic!("{m:?}"),
        }
    }

    #[test]
    fn surrogate_pair_split_anywhere() {
        let r = every_split(br#"{"jsonrpc":"2.0","id":"\ud83d\ude00","method":"x"}"#);
        assert_eq!(request_id(&r), &Id::Str("\u{1f600}".into()));
        // Read strings must pair their surrogates, skipped ones need not; either way, cut anywhere.
        for bad in [&br#"{"jsonrpc":"2.0","id":"\ud83d","method":"x"}"#[..], br#"{"jsonrpc":"2.0","id":"\ude00\ud83d","method":"x"}"#, br#"{"jsonrpc":"2.0","id":"\ud83d\u0041","method":"x"}"#] {
            assert!(matches!(every_split(bad), Err(ParseProblem::NotJson(_))));
        }
        assert!(every_split(br#"{"jsonrpc":"2.0","id":1,"method":"x","other":"\ud83d"}"#).is_ok());
    }

    #[test]
    fn utf8_split_inside_a_kept_string() {
        let r = every_split("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"caf\u{e9} \u{1f600}\u{20ac}\"}".as_bytes());
        assert_eq!(r.unwrap().messages[0].method(), Some("caf\u{e9} \u{1f600}\u{20ac}"));
        // Invalid sequences (overlong, surrogate, truncated before an escape or the quote) in read strings
        // fail however they are cut; in a skipped string they pass.
        for bad in [&b"\xe0\x80\x80"[..], b"\xed\xa0\x80", b"\xf0\x9f\x98", b"\xf0\x9f\x98\\n", b"\xc3", b"\x80", b"\xf5\x80\x80\x80"] {
            let mut p = br#"{"jsonrpc":"2.0","id":1,"method":"a"#.to_vec();
            p.extend_from_slice(bad);
            p.extend_from_slice(br#""}"#);
            assert!(matches!(every_split(&p), Err(ParseProblem::NotJson(_))), "{bad:?}");
            let mut p = br#"{"jsonrpc":"2.0","id":1,"method":"x","y":"a"#.to_vec();
            p.extend_from_slice(bad);
            p.extend_from_slice(br#""}"#);
            assert!(every_split(&p).is_ok(), "{bad:?}");
        }
    }

    #[test]
    fn numbers_split_anywhere() {
        let r = every_split(br#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"x"}"#);
        assert!(matches!(request_id(&r), Id::Other(s) if s == "18446744073709552000"));
        let r = every_split(br#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"x"}"#);
        assert_eq!(request_id(&r), &Id::Num(i64::MIN));
        let r = every_split(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#);
        assert_eq!(r.unwrap().messages[0], Message::Error { id: Id::Num(1), code: -32601, message: "no".into() });
        for bad in [&br#"{"jsonrpc":"2.0","id":1e400,"method":"x"}"#[..], br#"{"jsonrpc":"2.0","id":01,"method":"x"}"#, br#"{"jsonrpc":"2.0","id":1.,"method":"x"}"#, br#"{"jsonrpc":"2.0","id":1,"error":{"code":1.5}}"#] {
            assert!(matches!(every_split(bad), Err(ParseProblem::NotJson(_))));
        }
        // A skipped number only needs the grammar.
        assert!(every_split(br#"{"jsonrpc":"2.0","id":1,"result":{"x":1e400}}"#).is_ok());
    }

    #[test]
    fn literals_and_keys_split_anywhere() {
        let r = every_split(br#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":true,"uri":null}}"#);
        match &r.unwrap().messages[0] {
            Message::Request { id, params, .. } => {
                assert_eq!(id, &Id::Null);
                assert_eq!(params.name, Some(StringOrOther(None)));
                assert_eq!(params.uri, None);
            }
            m => panic!("{m:?}"),
        }
        let r = every_split(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"c"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#);
        match &r.unwrap().messages[0] {
            Message::Request { params, .. } => {
                assert_eq!(params.protocol_version.as_deref(), Some("2025-06-18"));
                assert_eq!(params.client_info.as_ref().unwrap().name, Some(StringOrOther(Some("c".into()))));
                assert_eq!(params.meta.as_ref().unwrap().protocol_version, Some(StringOrOther(Some("2026-07-28".into()))));
            }
            m => panic!("{m:?}"),
        }
        // Escaped and repeated keys, a key longer than any name, a result's repeated protocolVersion.
        assert!(matches!(every_split(br#"{"jsonrpc":"2.0","id":1,"met\u0068od":"x","method":"y"}"#), Err(ParseProblem::NotJson(_))));
        let r = every_split(br#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"a","io.modelcontextprotocol/protocolVersionX":1,"protocolVersion":null}}"#);
        assert!(matches!(&r.unwrap().messages[0], Message::Response { result, .. } if result.protocol_version == Some(StringOrOther(None))));
        for bad in [&br#"{"jsonrpc":"2.0","id":tru,"method":"x"}"#[..], br#"{"jsonrpc":"2.0","id":nulll,"method":"x"}"#, br#" {"jsonrpc":"2.0","method":"x"} x"#, b"\x0c{}"] {
            assert!(matches!(every_split(bad), Err(ParseProblem::NotJson(_))));
        }
        assert_eq!(every_split(b" \x0c\r\n"), Err(ParseProblem::Empty));
        assert_eq!(every_split(br#"[{"jsonrpc":"2.0","id":1,"result":{}},["2.0",2,"m"]] "#).unwrap().messages.len(), 2);
        // The deepest typed nesting (`DEPTH`): batch, message, params, _meta, clientInfo, a name read as any
        // value; by name and by position (`params` itself only by name: an array is parameters by position).
        let deepest = every_split(br#"[{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":[[1],{"a":2}]}}}}]"#);
        let positional = every_split(br#"[["2.0",1,"m",{"_meta":[null,["n"]]}]]"#);
        for r in [deepest, positional] {
            match &r.unwrap().messages[0] {
                Message::Request { params, .. } => {
                    let client = params.meta.as_ref().unwrap().client_info.as_ref().unwrap();
                    assert!(client.name.is_some());
                }
                m => panic!("{m:?}"),
            }
        }
    }

    #[test]
    fn a_null_result_answers_and_parameters_by_position_name_nothing() {
        // JSON-RPC 2.0 libraries as their docs show them (samples/ecosystem/nonmcp3-jayson.pcap): `[1, 2]`
        // params and a `null` result are JSON-RPC (§4.2, §5), read as such by the scanner, the push scanner
        // at every cut, and the serde oracle alike. A result and an error: the error (as before).
        let cases: [(&[u8], &str); 5] = [
            (br#"{"jsonrpc":"2.0","id":3,"result":null}"#, "response"),
            (br#"{"jsonrpc":"2.0","id":1,"method":"add","params":[1,2]}"#, "request"),
            (br#"{"jsonrpc":"2.0","method":"log","params":["x",{"a":[null]}]}"#, "notification"),
            (br#"[{"jsonrpc":"2.0","id":1,"method":"add","params":[]},{"jsonrpc":"2.0","id":1,"result":null}]"#, "request"),
            (br#"{"jsonrpc":"2.0","id":4,"result":null,"error":{"code":-32000,"message":"m"}}"#, "error"),
        ];
        for (body, kind) in cases {
            let got = every_split(body);
            assert_eq!(oracle::comparable(oracle::parse(body)), oracle::comparable(got.clone()), "{}", String::from_utf8_lossy(body));
            let m = &got.unwrap_or_else(|e| panic!("{e:?}: {}", String::from_utf8_lossy(body))).messages[0];
            let (is, params) = match m {
                Message::Response { result, .. } => ("response", result.protocol_version.is_none()),
                Message::Request { params, .. } => ("request", *params == Params::default()),
                Message::Notification { params, .. } => ("notification", *params == Params::default()),
                Message::Error { code, .. } => ("error", *code == -32000),
            };
            assert_eq!((is, params), (kind, true), "{}", String::from_utf8_lossy(body));
        }
        // Positional params still need valid JSON, and a scalar is no params.
        assert!(every_split(br#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1,}"#).is_err());
        assert!(every_split(br#"{"jsonrpc":"2.0","id":1,"method":"m","params":7}"#).is_err());
    }

    #[test]
    fn depth_200_fed_byte_by_byte() {
        for (open, close) in [("[", "]"), ("{\"k\":", "}")] {
            // Skipped (the result), and read as any value (a name that is not a string).
            for head in [r#"{"jsonrpc":"2.0","id":1,"result":{"x":"#, r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"#] {
                let mut s = String::from(head);
                s.push_str(&open.repeat(200));
                s.push('1');
                s.push_str(&close.repeat(200));
                s.push_str("}}");
                let whole = s.as_bytes();
                let want = parse(whole);
                assert!(want.is_ok());
                let bytes: Vec<&[u8]> = whole.chunks(1).collect();
                assert_eq!(pushed(&bytes), want);
                // One bracket too many closes nothing it opened.
                let mut extra = s.clone().into_bytes();
                extra.insert(head.len(), open.as_bytes()[0]);
                assert!(matches!(pushed(&extra.chunks(1).collect::<Vec<_>>()), Err(ParseProblem::NotJson(_))));
            }
        }
        // Never closed: an error at the end, not a crash.
        let mut p = Push::new();
        p.feed(br#"{"jsonrpc":"2.0","id":1,"result":"#);
        for _ in 0..100_000 {
            p.feed(b"[");
        }
        assert!(!p.failed());
        assert!(matches!(p.finish(), Err(ParseProblem::NotJson(_))));
    }

    #[test]
    fn failure_is_known_at_the_byte_that_makes_it_certain() {
        let mut p = Push::new();
        p.feed(br#"{"jsonrpc":"2.0","id":1,"id""#);
        assert!(p.failed());
        p.feed(b"anything");
        assert!(matches!(p.finish(), Err(ParseProblem::NotJson(m)) if m.starts_with("duplicate member")));
    }

    /// Typical MCP messages: a tools/list result of a few KB, an initialize request, a small tools/call.
    fn typical() -> Vec<(&'static str, Vec<u8>)> {
        let mut tools = String::from(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":["#);
        for k in 0..12 {
            if k > 0 {
                tools.push(',');
            }
            tools.push_str(&format!(
                r#"{{"name":"tool_{k}","title":"Tool number {k}","description":"Searches the index for documents matching a query and returns the best \"hits\" with their scores.\nUse it when the user asks about files.","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string","description":"What to look for"}},"limit":{{"type":"integer","minimum":1,"maximum":100,"default":10}},"filters":{{"type":"array","items":{{"type":"string","enum":["a","b","c"]}}}}}},"required":["query"],"additionalProperties":false}},"annotations":{{"readOnlyHint":true,"openWorldHint":false}}}}"#
            ));
        }
        tools.push_str("]}}");
        vec![
            ("tools/list result", tools.into_bytes()),
            ("initialize request", br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{}},"clientInfo":{"name":"claude-code","title":"Claude Code","version":"1.0.71"}}}"#.to_vec()),
            ("tools/call request", br#"{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"search","arguments":{"query":"streaming json parser","limit":10},"_meta":{"progressToken":17}}}"#.to_vec()),
        ]
    }

    /// `cargo test --release --lib push_speed -- --ignored --nocapture`: nanoseconds per message, `parse` and
    /// `Push` fed whole and in 1400-byte segments, the best of 15 interleaved rounds (the machine is shared).
    /// Prints, asserts nothing: timings are the machine's.
    #[test]
    #[ignore]
    fn push_speed() {
        use std::hint::black_box;
        use std::time::Instant;
        fn time(n: u32, f: &mut dyn FnMut()) -> f64 {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            t.elapsed().as_nanos() as f64 / f64::from(n)
        }
        for (name, m) in typical() {
            let n = (5_000_000 / m.len()) as u32;
            assert_eq!(pushed(&[&m]), parse(&m));
            let mut best = [f64::MAX; 3];
            for _ in 0..15 {
                let t = [
                    time(n, &mut || drop(black_box(parse(black_box(&m))))),
                    time(n, &mut || {
                        let mut p = Push::new();
                        p.feed(black_box(&m));
                        drop(black_box(p.finish()));
                    }),
                    time(n, &mut || {
                        let mut p = Push::new();
                        for seg in black_box(&m).chunks(1400) {
                            p.feed(seg);
                        }
                        drop(black_box(p.finish()));
                    }),
                ];
                for (b, t) in best.iter_mut().zip(t) {
                    *b = b.min(t);
                }
            }
            let [a, b, c] = best;
            println!("{name} ({} B): parse {a:.0} ns, push whole {b:.0} ns ({:.2}x), push in 1400 B segments {c:.0} ns ({:.2}x)", m.len(), b / a, c / a);
        }
    }

    /// Cuts `whole` into chunks: one byte each, whole, or at a few random points, with empty feeds between.
    fn cuts<'a>(g: &mut Gen, whole: &'a [u8]) -> Vec<&'a [u8]> {
        match g.next(8) {
            0 => whole.chunks(1).collect(),
            1 => vec![whole],
            _ => {
                let mut at: Vec<usize> = (0..g.next(6) + 1).map(|_| g.next(whole.len() + 1)).collect();
                at.push(whole.len());
                at.sort_unstable();
                let mut out = Vec::new();
                let mut from = 0;
                for to in at {
                    out.push(&whole[from..to]);
                    from = to;
                }
                out
            }
        }
    }

    #[test]
    fn pushed_in_pieces_decides_as_parse() {
        let mut g = Gen(0x9e37_79b9_7f4a_7c15);
        let (mut ok, mut not_json, mut cut_inside) = (0, 0, 0);
        for case in 0..200_000 {
            let mut whole = g.payload();
            if g.next(20) == 0 {
                // Leading whitespace as `parse` sees it (a form feed too), where batch or message is chosen.
                whole.insert(0, [b' ', b'\n', 0x0c][g.next(3)]);
            }
            let chunks = cuts(&mut g, &whole);
            let mut p = Push::new();
            for c in &chunks {
                p.feed(c);
            }
            let failed = p.failed();
            let (got, want) = (same(p.finish()), same(parse(&whole)));
            assert_eq!(oracle::comparable(got.clone()), oracle::comparable(want.clone()));
            assert_eq!(got, want, "case {case}, chunks {:?}", chunks.iter().map(|c| String::from_utf8_lossy(c)).collect::<Vec<_>>());
            assert!(!failed || matches!(want, Err(ParseProblem::NotJson(_))), "case {case}: failed early, but {want:?}");
            cut_inside += usize::from(chunks.len() > 1);
            match want {
                Ok(_) => ok += 1,
                Err(ParseProblem::NotJson(_)) => not_json += 1,
                _ => {}
            }
        }
        // Both sides of the grammar were exercised, mostly cut.
        assert!(ok > 10_000 && not_json > 50_000 && cut_inside > 150_000, "{ok} decoded, {not_json} not JSON, {cut_inside} cut");
    }

    proptest::proptest! {
        #[test]
        fn pushed_bytes_never_panic_and_decide_as_parse(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..256), cut in 0usize..256) {
            let cut = cut.min(bytes.len());
            let (a, b) = bytes.split_at(cut);
            proptest::prop_assert_eq!(same(pushed(&[a, b])), same(parse(&bytes)));
        }
    }
}

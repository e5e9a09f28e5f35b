//! Server-sent events: the `text/event-stream` parser of WHATWG HTML §9.2.6 "Interpreting an event
//! stream", fed the decoded body of a response incrementally, emitting each event as soon as the empty
//! line that dispatches it arrives (the transaction stays open; nothing waits for the stream to end).
//!
//! Owns: line splitting (CRLF, LF or CR — including a CR at the end of one feed whose LF starts the
//! next), the optional leading BOM, comments, the `event`/`data`/`id`/`retry` fields and dispatch.
//! Must not: decode JSON, know HTTP framing, or keep state across events other than the line state
//! (the browser's "last event ID" is not carried over: [`SseEvent::id`] is this event's own `id:`).
//!
//! Deliberate divergence from the browser algorithm (§9.2.6 "dispatch the event": "If the data buffer
//! is an empty string, ... return"): we dispatch every block that had at least one recognised field
//! (`event`, `data`, a valid `id`, a valid `retry`), even with no data, because the analyzer must see
//! MCP 2025-11-25 priming events (`id: X` + empty `data:`) and id-only or retry-only events.
//! `has_data` says whether any `data` line was present, so `data: ""` and "no data" stay apart.
//!
//! Memory: the bytes of one event (`data` with its `\n` joiners, `event`, `id`) are capped at
//! `Limits::max_sse_event_bytes`; past it accumulation stops, the event is marked `truncated` and one
//! [`SseItem::TooLarge`] is reported, and the event is still dispatched at its empty line.
//!
//! Parser contract: [`SseParser::feed`] returns `(consumed, item)`; `item == None` means every input byte
//! was consumed and more is needed.

use std::borrow::Cow;

use memchr::{memchr, memchr2};

use super::{lossy, SseEvent};

/// Something the stream produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem<'a> {
    /// A dispatched event, its text borrowed from the parser until it is fed again.
    Event(SseEvent<'a>),
    /// A complete `:` comment line (keep-alive).
    Comment,
    /// A blank line that ends no block of lines (it follows a blank line or starts the stream): no
    /// event (§9.2.6: nothing is dispatched while no field was given), but bytes that keep the stream
    /// alive for proxies' and clients' idle timers, as some servers send instead of comments
    /// (rust-mcp-sdk 2.0's HTTP+SSE stream: a newline every 12 s).
    Blank,
    /// The current event just crossed the size cap (reported once per event).
    TooLarge,
}

/// A recognised field, with the per-line state it needs while its value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Event,
    Data,
    /// `nul`: the value contained U+0000, so the field is ignored (§9.2.6 "id").
    Id {
        nul: bool,
    },
    /// `value` so far (saturating), `digits`: at least one digit, `ok`: only ASCII digits so far.
    Retry {
        value: u64,
        digits: bool,
        ok: bool,
    },
    /// Unknown field name: ignored (§9.2.6 "Otherwise: The field is ignored").
    Other,
}

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// Longest recognised field name (`event`, `retry`).
const NAME_MAX: usize = 5;

/// Where the parser is in the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SseState {
    /// Stream start: `matched` bytes of a UTF-8 BOM seen (§9.2.6: "One leading U+FEFF BYTE ORDER
    /// MARK character must be ignored if any are present").
    Bom { matched: u8 },
    /// At the start of a line.
    LineStart,
    /// A CR ended the last line; an LF right after it belongs to the same line ending.
    AfterCr,
    /// Inside a comment line (starts with `:`).
    Comment,
    /// Reading a field name; `name` keeps the first bytes, `len` counts them all.
    Name { name: [u8; NAME_MAX], len: usize },
    /// Just after the colon: a single leading space of the value is dropped.
    ValueStart(Field),
    /// Reading a field value up to the end of the line.
    Value(Field),
}

/// The name kept by the byte-wise `Name` state; a name longer than the buffer is never a recognised
/// one, so it maps to the empty name (no field line has an empty name: that line is a comment).
fn short_name(name: &[u8; NAME_MAX], len: usize) -> &[u8] {
    if len <= NAME_MAX {
        name.get(..len).unwrap_or_default()
    } else {
        &[]
    }
}

/// Data buffer capacity kept between events; a larger one (a big event) is released after dispatch.
const DATA_KEEP: usize = 64 << 10;

/// What the data buffer first reserves: a JSON-RPC message is rarely shorter, so it does not grow from a few
/// bytes by doubling.
const DATA_FIRST: usize = 4 << 10;

/// Data buffers a thread keeps for its next parsers ([`spare`]).
const SPARE_BUFFERS: usize = 8;

/// Data buffers of finished parsers, kept for the next ones on the same thread: most event streams answer
/// one POST and end, so without them each allocated its buffer afresh and grew it by doubling (copying what
/// it held) to the size of its largest event, on every response. An allocator's thread cache in
/// miniature: a buffer holds no state once cleared, so which parser gets which cannot change what is
/// read. At most [`SPARE_BUFFERS`] of at most [`DATA_KEEP`] bytes each a thread (512 KiB); a thread is
/// one analysis (one thread, or one `--threads` worker), whose parsers are the only users.
mod spare {
    use std::cell::RefCell;

    thread_local! {
        static SPARE: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    }

    /// A kept buffer (empty, with its capacity), or a new empty one.
    pub(super) fn take() -> Vec<u8> {
        SPARE.with(|s| s.borrow_mut().pop()).unwrap_or_default()
    }

    /// Keeps `buf` for a later parser if it is not too large and there is room.
    pub(super) fn give(mut buf: Vec<u8>) {
        if buf.capacity() == 0 || buf.capacity() > super::DATA_KEEP {
            return;
        }
        buf.clear();
        SPARE.with(|s| {
            let mut s = s.borrow_mut();
            if s.len() < super::SPARE_BUFFERS {
                // ALLOC: the list of kept buffers, SPARE_BUFFERS entries at most.
                s.push(buf);
            }
        });
    }

    #[cfg(test)]
    pub(super) fn kept() -> Vec<usize> {
        SPARE.with(|s| s.borrow().iter().map(Vec::capacity).collect())
    }
}

/// An event type or id: inline up to the length of a UUID (36), so a stream's parser does not allocate for them.
type Short = smallvec::SmallVec<[u8; 36]>;

/// Incremental `text/event-stream` parser for one response body.
#[derive(Debug, Clone)]
pub struct SseParser {
    state: SseState,
    max_event_bytes: usize,
    // ALLOC: the pending event's data / event type / id buffers, bounded by limits::max_sse_event_bytes
    // (together, via `size`).
    data: Vec<u8>,
    event: Short,
    id: Short,
    /// The `id` line being read; swapped into `id` when the line turns out valid.
    id_line: Short,
    id_set: bool,
    retry: Option<u64>,
    has_data: bool,
    /// A recognised field was seen since the last dispatch.
    has_field: bool,
    /// A line other than a blank one (a field of any name, a comment) came since the last blank line: the
    /// next blank line ends that block, and only a blank line that ends none is reported as `Blank`.
    block: bool,
    /// Bytes counted against the cap for the pending event.
    size: usize,
    truncated: bool,
    /// The last event dispatched, lent out by `feed` with its text still in the buffers: its flags, and
    /// that the buffers are cleared when the parser is fed again.
    lent: Option<Lent>,
}

impl SseItem<'_> {
    /// The item with an event's text copied out of the parser.
    pub fn into_owned(self) -> SseItem<'static> {
        match self {
            SseItem::Event(e) => SseItem::Event(e.into_owned()),
            SseItem::Comment => SseItem::Comment,
            SseItem::Blank => SseItem::Blank,
            SseItem::TooLarge => SseItem::TooLarge,
        }
    }
}

/// The flags of the event lent out (its text is in the buffers).
#[derive(Debug, Clone, Copy)]
struct Lent {
    id_set: bool,
    retry: Option<u64>,
    has_data: bool,
    truncated: bool,
}

impl Drop for SseParser {
    fn drop(&mut self) {
        spare::give(std::mem::take(&mut self.data));
    }
}

impl SseParser {
    pub fn new(max_event_bytes: usize) -> Self {
        SseParser {
            state: SseState::Bom { matched: 0 },
            max_event_bytes,
            data: Vec::new(),
            event: Short::new(),
            id: Short::new(),
            id_line: Short::new(),
            id_set: false,
            retry: None,
            has_data: false,
            has_field: false,
            block: false,
            size: 0,
            truncated: false,
            lent: None,
        }
    }

    /// Whether a half-received event (fields not yet dispatched) would be lost if the stream ended now
    /// (§9.2.6: "If the file ends in the middle of an event, before the final empty line, the
    /// incomplete event is not dispatched").
    pub fn has_pending_event(&self) -> bool {
        self.has_field || matches!(self.state, SseState::Name { .. } | SseState::ValueStart(_) | SseState::Value(_))
    }

    /// The transition function. Consumes input until an item is produced or the input is exhausted.
    pub fn feed(&mut self, input: &[u8]) -> (usize, Option<SseItem<'_>>) {
        if self.lent.take().is_some() {
            self.clear_text();
        }
        let mut pos = 0usize;
        while let Some(rest) = input.get(pos..).filter(|r| !r.is_empty()) {
            let Some(&b) = rest.first() else { break };
            match self.state {
                SseState::Bom { matched } => {
                    let m = usize::from(matched);
                    if BOM.get(m) == Some(&b) {
                        pos += 1;
                        self.state = if m + 1 == BOM.len() {
                            SseState::LineStart
                        } else {
                            SseState::Bom { matched: matched.saturating_add(1) }
                        };
                    } else if m == 0 {
                        self.state = SseState::LineStart;
                    } else {
                        // Not a BOM after all: the bytes matched so far start an (unknown) field name.
                        self.block = true;
                        let mut name = [0u8; NAME_MAX];
                        for (slot, byte) in name.iter_mut().zip(BOM.iter().take(m)) {
                            *slot = *byte;
                        }
                        self.state = SseState::Name { name, len: m };
                    }
                }
                SseState::AfterCr => {
                    if b == b'\n' {
                        pos += 1;
                    }
                    self.state = SseState::LineStart;
                }
                SseState::LineStart => match b {
                    // §9.2.6: "If the line is empty (a blank line): Dispatch the event".
                    b'\r' | b'\n' => {
                        pos += 1;
                        self.state = if b == b'\r' { SseState::AfterCr } else { SseState::LineStart };
                        let ends_block = std::mem::take(&mut self.block);
                        if self.dispatch() {
                            return (pos, self.lent_event().map(SseItem::Event));
                        }
                        if !ends_block {
                            return (pos, Some(SseItem::Blank));
                        }
                    }
                    // §9.2.6: "If the line starts with a U+003A COLON character (:): Ignore the line."
                    b':' => {
                        pos += 1;
                        self.block = true;
                        self.state = SseState::Comment;
                    }
                    _ => {
                        self.block = true;
                        // Fast path: the whole line is in this input (the usual case) — split it once
                        // instead of walking the byte-wise states. Same result, by construction: the
                        // byte-wise states below do exactly this across feeds.
                        if let Some(eol) = memchr2(b'\r', b'\n', rest) {
                            let (line, _) = rest.split_at_checked(eol).unwrap_or((rest, &[]));
                            let (name, value) = match memchr(b':', line) {
                                Some(c) => {
                                    let (name, after) = line.split_at_checked(c).unwrap_or((line, &[]));
                                    let value = after.get(1..).unwrap_or_default();
                                    (name, value.strip_prefix(b" ").unwrap_or(value))
                                }
                                None => (line, &[][..]),
                            };
                            let (field, t1) = self.start_field(name);
                            let (field, t2) = self.append_value(field, value);
                            self.finish_field(field);
                            pos = self.end_line(input, pos.saturating_add(eol));
                            if t1 || t2 {
                                return (pos, Some(SseItem::TooLarge));
                            }
                        } else {
                            self.state = SseState::Name { name: [0; NAME_MAX], len: 0 };
                        }
                    }
                },
                SseState::Comment => match memchr2(b'\r', b'\n', rest) {
                    Some(i) => {
                        pos = pos.saturating_add(i);
                        pos = self.end_line(input, pos);
                        return (pos, Some(SseItem::Comment));
                    }
                    None => pos = input.len(),
                },
                SseState::Name { mut name, len } => match b {
                    // §9.2.6: field name up to the first colon, the value after it.
                    b':' => {
                        pos += 1;
                        let (field, too_large) = self.start_field(short_name(&name, len));
                        self.state = SseState::ValueStart(field);
                        if too_large {
                            return (pos, Some(SseItem::TooLarge));
                        }
                    }
                    // §9.2.6: a line without a colon is a field name with an empty value.
                    b'\r' | b'\n' => {
                        let (field, too_large) = self.start_field(short_name(&name, len));
                        self.finish_field(field);
                        pos = self.end_line(input, pos);
                        if too_large {
                            return (pos, Some(SseItem::TooLarge));
                        }
                    }
                    _ => {
                        pos += 1;
                        if let Some(slot) = name.get_mut(len) {
                            *slot = b;
                        }
                        self.state = SseState::Name { name, len: len.saturating_add(1) };
                    }
                },
                SseState::ValueStart(field) => {
                    // §9.2.6: "If value starts with a U+0020 SPACE character, remove it from value."
                    if b == b' ' {
                        pos += 1;
                    }
                    self.state = SseState::Value(field);
                }
                SseState::Value(field) => {
                    let eol = memchr2(b'\r', b'\n', rest);
                    let (chunk, _) = rest.split_at_checked(eol.unwrap_or(rest.len())).unwrap_or((rest, &[]));
                    let (field, too_large) = self.append_value(field, chunk);
                    pos = pos.saturating_add(chunk.len());
                    self.state = SseState::Value(field);
                    if too_large {
                        // The line end (if any) is handled on the next call, from `Value`.
                        return (pos, Some(SseItem::TooLarge));
                    }
                    if eol.is_some() {
                        self.finish_field(field);
                        pos = self.end_line(input, pos);
                    }
                }
            }
        }
        (input.len(), None)
    }

    /// Consumes the line terminator at `input[pos]` (CR or LF) and sets the next state.
    fn end_line(&mut self, input: &[u8], pos: usize) -> usize {
        self.state = match input.get(pos) {
            Some(b'\r') => SseState::AfterCr,
            _ => SseState::LineStart,
        };
        pos.saturating_add(1)
    }

    /// Room left under the cap for `want` more bytes; marks truncation. Returns (allowed, newly truncated).
    fn budget(&mut self, want: usize) -> (usize, bool) {
        let room = self.max_event_bytes.saturating_sub(self.size);
        let allowed = want.min(room);
        self.size = self.size.saturating_add(allowed);
        if allowed < want && !self.truncated {
            self.truncated = true;
            return (allowed, true);
        }
        (allowed, false)
    }

    /// A field name is complete: classify it and prepare its buffer. Returns the field and whether the
    /// event just crossed the cap (the `\n` joining data lines counts).
    fn start_field(&mut self, name: &[u8]) -> (Field, bool) {
        // Names are compared byte for byte (case-sensitive, §9.2.6).
        match name {
            b"event" => {
                self.event.clear();
                self.has_field = true;
                (Field::Event, false)
            }
            b"data" => {
                // §9.2.6 appends each value and a LF, then drops the final LF at dispatch: the same as
                // joining the lines with `\n`, which is what we store.
                let mut too_large = false;
                if self.has_data {
                    let (n, t) = self.budget(1);
                    too_large = t;
                    if n == 1 {
                        // ALLOC: data joiner, bounded by limits::max_sse_event_bytes (budget above).
                        self.data.push(b'\n');
                    }
                }
                self.has_data = true;
                self.has_field = true;
                (Field::Data, too_large)
            }
            b"id" => {
                self.id_line.clear();
                (Field::Id { nul: false }, false)
            }
            b"retry" => (Field::Retry { value: 0, digits: false, ok: true }, false),
            _ => (Field::Other, false),
        }
    }

    /// Appends part of a field value (no line terminator inside). Returns the updated field and whether
    /// the event just crossed the cap.
    fn append_value(&mut self, field: Field, chunk: &[u8]) -> (Field, bool) {
        let mut too_large = false;
        let field = match field {
            Field::Data => {
                let (n, t) = self.budget(chunk.len());
                too_large |= t;
                let part = chunk.get(..n).unwrap_or(&[]);
                if self.data.capacity() == 0 && !part.is_empty() {
                    self.data = spare::take();
                    // ALLOC: event data, DATA_FIRST or the cap if smaller (nothing for a kept buffer at
                    // least that large).
                    self.data.reserve(DATA_FIRST.min(self.max_event_bytes).max(part.len()));
                }
                // ALLOC: event data, bounded by limits::max_sse_event_bytes (budget above).
                self.data.extend_from_slice(part);
                Field::Data
            }
            Field::Event => {
                let (n, t) = self.budget(chunk.len());
                too_large |= t;
                // ALLOC: event type, bounded by limits::max_sse_event_bytes (budget above).
                self.event.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
                Field::Event
            }
            Field::Id { nul } => {
                let (n, t) = self.budget(chunk.len());
                too_large |= t;
                // ALLOC: event id, bounded by limits::max_sse_event_bytes (budget above).
                self.id_line.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
                Field::Id { nul: nul || memchr(0, chunk).is_some() }
            }
            Field::Retry { mut value, mut digits, mut ok } => {
                // §9.2.6 "retry": only ASCII digits; interpreted in base ten.
                for &c in chunk {
                    if c.is_ascii_digit() && ok {
                        value = value.saturating_mul(10).saturating_add(u64::from(c - b'0'));
                        digits = true;
                    } else {
                        ok = false;
                    }
                }
                Field::Retry { value, digits, ok }
            }
            Field::Other => Field::Other,
        };
        (field, too_large)
    }

    /// The field's line ended: commit it (§9.2.6 "process the field").
    fn finish_field(&mut self, field: Field) {
        match field {
            // `event` and `data` took effect when their name was read (an empty value counts).
            Field::Event | Field::Data => {}
            Field::Id { nul } => {
                if !nul {
                    std::mem::swap(&mut self.id, &mut self.id_line);
                    self.id_set = true;
                    self.has_field = true;
                }
                self.id_line.clear();
            }
            Field::Retry { value, digits, ok } => {
                if digits && ok {
                    self.retry = Some(value);
                    self.has_field = true;
                }
            }
            Field::Other => {}
        }
    }

    /// Blank line: emit the pending event if it had a recognised field, then reset.
    /// §9.2.6 "dispatch the event": an event goes out if a recognised field was seen. Its text stays in the
    /// buffers, lent out until the next `feed` (no copy per event; the buffers keep their capacity).
    fn dispatch(&mut self) -> bool {
        let dispatched = self.has_field;
        if dispatched {
            self.lent = Some(Lent { id_set: self.id_set, retry: self.retry, has_data: self.has_data, truncated: self.truncated });
        } else {
            self.clear_text();
        }
        self.id_line.clear();
        self.id_set = false;
        self.retry = None;
        self.has_data = false;
        self.has_field = false;
        self.size = 0;
        self.truncated = false;
        dispatched
    }

    /// The event `dispatch` lent out.
    fn lent_event(&self) -> Option<SseEvent<'_>> {
        let l = self.lent?;
        Some(SseEvent {
            event: (!self.event.is_empty()).then(|| lossy(&self.event)),
            data: Cow::Borrowed(&self.data),
            has_data: l.has_data,
            id: l.id_set.then(|| lossy(&self.id)),
            retry: l.retry,
            truncated: l.truncated,
        })
    }

    fn clear_text(&mut self) {
        if self.data.capacity() > DATA_KEEP {
            self.data = Vec::new();
        } else {
            self.data.clear();
        }
        self.event.clear();
        self.id.clear();
    }
}


#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn run_cap(pieces: &[&[u8]], cap: usize) -> Vec<SseItem<'static>> {
        let mut p = SseParser::new(cap);
        let mut items = Vec::new();
        for piece in pieces {
            let mut rest: &[u8] = piece;
            loop {
                let (n, item) = p.feed(rest);
                assert!(n <= rest.len());
                rest = &rest[n..];
                match item {
                    Some(it) => items.push(it.into_owned()),
                    None => {
                        assert!(rest.is_empty(), "None must mean all input consumed");
                        break;
                    }
                }
            }
        }
        items
    }

    fn run(pieces: &[&[u8]]) -> Vec<SseItem<'static>> {
        run_cap(pieces, 1 << 20)
    }

    fn ev(data: &str) -> SseEvent<'static> {
        let data = data.to_string();
        SseEvent { data: data.into_bytes().into(), has_data: true, ..Default::default() }
    }

    fn events(items: &[SseItem<'static>]) -> Vec<SseEvent<'static>> {
        items
            .iter()
            .filter_map(|i| match i {
                SseItem::Event(e) => Some(e.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_finished_parsers_data_buffer_serves_the_next_one_empty() {
        // Each test runs on its own thread, so the kept buffers are this test's alone.
        let big = "x".repeat(20_000);
        let first = run(&[format!("data: {big}\n\n").as_bytes()]);
        assert_eq!(events(&first), vec![ev(&big)]);
        let kept = spare::kept();
        assert!(matches!(kept.as_slice(), [c] if *c >= 20_000), "{kept:?}");
        // The next parser starts from that buffer: none of the earlier event's bytes show.
        let other = "y".repeat(30_000);
        let mut p = SseParser::new(1 << 20);
        let (_, item) = p.feed(b"data: ok\n\n");
        assert_eq!(item.map(SseItem::into_owned), Some(SseItem::Event(ev("ok"))));
        assert!(spare::kept().is_empty(), "taken by the parser that needed one");
        drop(p);
        let second = run(&[b"data: a\n\n", format!("data: {other}\n\ndata: b\n\n").as_bytes()]);
        assert_eq!(events(&second), vec![ev("a"), ev(&other), ev("b")]);
    }

    #[test]
    fn kept_data_buffers_are_few_and_not_large() {
        let large = "z".repeat(DATA_KEEP + 1);
        assert_eq!(events(&run(&[format!("data: {large}\n\n").as_bytes()])), vec![ev(&large)]);
        assert!(spare::kept().is_empty(), "a buffer over DATA_KEEP is released");
        // So is one a stream dropped in the middle of its event.
        let mut p = SseParser::new(1 << 20);
        let _ = p.feed(format!("data: {large}").as_bytes());
        assert!(p.has_pending_event());
        drop(p);
        assert!(spare::kept().is_empty(), "a buffer over DATA_KEEP, dropped mid-event, is released");
        // A parser that never read data has no buffer to give.
        drop(SseParser::new(1 << 20));
        assert!(spare::kept().is_empty());
        let parsers: Vec<SseParser> = (0..SPARE_BUFFERS + 2)
            .map(|_| {
                let mut p = SseParser::new(1 << 20);
                let _ = p.feed(b"data: {}\n\n");
                p
            })
            .collect();
        drop(parsers);
        assert_eq!(spare::kept().len(), SPARE_BUFFERS);
    }

    #[test]
    fn long_ids_and_types_spill_from_inline_storage_intact() {
        let id = "i".repeat(36) + &"d".repeat(64);
        let kind = "k".repeat(37);
        let text = format!("event: {kind}\nid: {id}\ndata: x\n\nid: 7\ndata: y\n\n");
        let got = events(&run(&[text.as_bytes()]));
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].event.as_deref(), got[0].id.as_deref()), (Some(kind.as_str()), Some(id.as_str())));
        assert_eq!((got[1].event.as_deref(), got[1].id.as_deref(), &*got[1].data_text()), (None, Some("7"), "y"));
    }

    #[test]
    fn sse_lf_crlf_cr_line_endings() {
        let want = vec![SseItem::Event(ev("a")), SseItem::Event(ev("b"))];
        assert_eq!(run(&[b"data: a\n\ndata: b\n\n"]), want);
        assert_eq!(run(&[b"data: a\r\n\r\ndata: b\r\n\r\n"]), want);
        assert_eq!(run(&[b"data: a\r\rdata: b\r\r"]), want);
        // Mixed in one stream.
        assert_eq!(run(&[b"data: a\r\n\rdata: b\n\r\n"]), want);
    }

    #[test]
    fn sse_cr_then_lf_in_next_feed_is_one_line_end() {
        // "data: a\r" | "\ndata: b\r\n\r\n": the LF completes the CRLF; no blank line in between.
        let items = run(&[b"data: a\r", b"\ndata: b\r\n\r\n"]);
        assert_eq!(events(&items), vec![ev("a\nb")]);
        // And a CR | CR split is two line ends: a dispatch.
        let items = run(&[b"data: a\r", b"\rdata: b\r\r"]);
        assert_eq!(events(&items), vec![ev("a"), ev("b")]);
    }

    #[test]
    fn sse_multi_line_data_joined_with_lf() {
        assert_eq!(events(&run(&[b"data: {\"a\":\ndata:1}\ndata\n\n"])), vec![ev("{\"a\":\n1}\n")]);
    }

    #[test]
    fn sse_only_one_leading_space_is_stripped() {
        assert_eq!(events(&run(&[b"data:  two\n\ndata:none\n\n"])), vec![ev(" two"), ev("none")]);
    }

    #[test]
    fn sse_comments_are_reported_and_do_not_dispatch() {
        let items = run(&[b": keep-alive\n\n:\r\n\r\n"]);
        assert_eq!(items, vec![SseItem::Comment, SseItem::Comment]);
        // A comment inside an event does not break it.
        let items = run(&[b"data: a\n: ping\ndata: b\n\n"]);
        assert_eq!(items, vec![SseItem::Comment, SseItem::Event(ev("a\nb"))]);
    }

    #[test]
    fn sse_blank_lines_that_dispatch_nothing_are_reported() {
        // rust-mcp-sdk 2.0 keeps its HTTP+SSE stream alive with bare newlines, not comments.
        assert_eq!(run(&[b"\n", b"\n", b"\r\n\r"]), vec![SseItem::Blank; 4]);
        // The blank line that ends a block (an event, a comment, fields that dispatch nothing) is only its end.
        assert_eq!(run(&[b"data: a\n\n\n"]), vec![SseItem::Event(ev("a")), SseItem::Blank]);
        assert_eq!(run(&[b": ping\n\n\n"]), vec![SseItem::Comment, SseItem::Blank]);
        assert_eq!(run(&[b"id: \0\n\n", b"\n"]), vec![SseItem::Blank]);
    }

    #[test]
    fn sse_event_id_retry_fields() {
        let items = run(&[b"event: message\nid: 42\nretry: 1500\ndata: x\n\n"]);
        assert_eq!(
            events(&items),
            vec![SseEvent {
                event: Some("message".into()),
                data: b"x".to_vec().into(),
                has_data: true,
                id: Some("42".into()),
                retry: Some(1500),
                truncated: false
            }]
        );
    }

    #[test]
    fn sse_id_is_per_event_not_carried_over() {
        let got = events(&run(&[b"id: 1\ndata: a\n\ndata: b\n\n"]));
        assert_eq!(got[0].id.as_deref(), Some("1"));
        assert_eq!(got[1].id, None);
    }

    #[test]
    fn sse_last_field_wins_and_empty_event_is_default() {
        let got = events(&run(&[b"event: a\nevent: b\nid: 1\nid: 2\ndata: x\n\nevent:\ndata: y\n\n"]));
        assert_eq!(got[0].event.as_deref(), Some("b"));
        assert_eq!(got[0].id.as_deref(), Some("2"));
        assert_eq!(got[1].event, None);
    }

    #[test]
    fn sse_bad_retry_is_ignored() {
        let got = run(&[b"retry: 12a\ndata: x\n\nretry: \ndata: y\n\nretry:99999999999999999999999\n\n"]);
        let got = events(&got);
        assert_eq!(got[0].retry, None);
        assert_eq!(got[1].retry, None);
        assert_eq!(got[2].retry, Some(u64::MAX), "saturates");
        assert!(!got[2].has_data);
    }

    #[test]
    fn sse_bom_is_ignored_only_at_start() {
        assert_eq!(events(&run(&[b"\xEF\xBB\xBFdata: a\n\n"])), vec![ev("a")]);
        assert_eq!(events(&run(&[b"\xEF", b"\xBB", b"\xBFdata: a\n\n"])), vec![ev("a")]);
        // A second BOM is part of the name: an unknown field, so nothing is dispatched.
        assert_eq!(run(&[b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n"]), vec![]);
        // A broken BOM prefix starts an unknown field name.
        assert_eq!(run(&[b"\xEF\xBBdata: a\n\n"]), vec![]);
        assert_eq!(events(&run(&[b"\xEF\xBB\ndata: a\n\n"])), vec![ev("a")]);
    }

    #[test]
    fn sse_id_with_nul_is_ignored() {
        let got = events(&run(&[b"id: a\0b\ndata: x\n\n"]));
        assert_eq!(got, vec![ev("x")]);
        // An id-only event whose id is ignored has no field: nothing is dispatched.
        assert_eq!(run(&[b"id: \0\n\n"]), vec![]);
    }

    #[test]
    fn sse_priming_event_is_dispatched_with_empty_data() {
        let got = run(&[b"id: 1\ndata: \n\n"]);
        assert_eq!(
            got,
            vec![SseItem::Event(SseEvent {
                id: Some("1".into()),
                has_data: true,
                data: b"".to_vec().into(),
                ..Default::default()
            })]
        );
        // `data:` without space and bare `data` are empty data lines too.
        assert!(events(&run(&[b"id: 1\ndata:\n\n"]))[0].has_data);
        assert!(events(&run(&[b"id: 1\ndata\n\n"]))[0].has_data);
    }

    #[test]
    fn sse_id_only_and_retry_only_events_are_dispatched() {
        let got = events(&run(&[b"id: 7\n\nretry: 10\n\n"]));
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].id.as_deref(), Some("7"));
        assert!(!got[0].has_data);
        assert_eq!(got[1].retry, Some(10));
        // An empty id is still an id field.
        assert_eq!(events(&run(&[b"id\n\n"]))[0].id.as_deref(), Some(""));
    }

    #[test]
    fn sse_unknown_fields_and_blank_lines_alone_do_not_dispatch() {
        let blanks = vec![SseItem::Blank; 3];
        assert_eq!(run(&[b"\n\n\r\nfoo: bar\n\nDATA: x\n\n"]), blanks);
    }

    #[test]
    fn sse_long_unknown_field_name_is_not_misread() {
        assert_eq!(run(&[b"dataX: 1\n\nretryy: 5\n\n"]), vec![]);
    }

    #[test]
    fn sse_event_cap_truncates_once_and_still_dispatches() {
        let items = run_cap(&[b"data: 0123456789\ndata: abc\n\ndata: ok\n\n"], 8);
        assert_eq!(items.len(), 3);
        assert_eq!(items[0], SseItem::TooLarge);
        match &items[1] {
            SseItem::Event(e) => {
                assert!(e.truncated);
                assert_eq!(e.data_text(), "01234567");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(items[2], SseItem::Event(ev("ok")), "the cap is per event");
    }

    #[test]
    fn sse_cap_counts_data_joiner_and_other_fields() {
        let items = run_cap(&[b"data: 1234\ndata: x\n\n"], 4);
        assert_eq!(items[0], SseItem::TooLarge);
        assert_eq!(events(&items)[0].data_text(), "1234");
        let items = run_cap(&[b"event: abcdef\nid: 123456\n\n"], 4);
        assert_eq!(items[0], SseItem::TooLarge);
        let e = &events(&items)[0];
        assert_eq!(e.event.as_deref(), Some("abcd"));
        assert_eq!(e.id.as_deref(), Some(""));
        assert!(e.truncated);
    }

    #[test]
    fn sse_pending_event_is_visible() {
        let mut p = SseParser::new(100);
        assert!(!p.has_pending_event());
        p.feed(b"data: a");
        assert!(p.has_pending_event());
        p.feed(b"\n");
        assert!(p.has_pending_event());
        p.feed(b"\n");
        assert!(!p.has_pending_event());
        p.feed(b": comment\n");
        assert!(!p.has_pending_event());
    }

    #[test]
    fn sse_invalid_utf8_is_replaced() {
        assert_eq!(events(&run(&[b"data: \xFFok\n\n"]))[0].data_text(), "\u{FFFD}ok");
    }

    const FIXTURES: &[&[u8]] = &[
        b"\xEF\xBB\xBFevent: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\"}\r\n\r\n",
        b"id: 1\ndata: \n\n: ping\r\rdata: a\rdata: b\r\rretry: 20\n\n",
        b"data: a\r\n\r\ndata:b\n\ndata\n\n:c\nid: x\0y\nevent\n\n",
        b"data: 0123456789\nevent: long-name\n\nid: 1\n\n",
    ];

    #[test]
    fn sse_split_at_every_offset_gives_identical_items() {
        for cap in [1 << 20, 12] {
            for fx in FIXTURES {
                let whole = run_cap(&[fx], cap);
                assert!(!whole.is_empty());
                for i in 0..=fx.len() {
                    let (a, b) = fx.split_at(i);
                    assert_eq!(run_cap(&[a, b], cap), whole, "split at {i}");
                }
            }
        }
    }

    #[test]
    fn sse_split_at_every_pair_of_offsets_gives_identical_items() {
        for fx in FIXTURES {
            let whole = run(&[fx]);
            for i in 0..=fx.len() {
                for j in i..=fx.len() {
                    assert_eq!(run(&[&fx[..i], &fx[i..j], &fx[j..]]), whole, "split at {i},{j}");
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn sse_arbitrary_bytes_never_panic_and_split_invariant(
            data in proptest::collection::vec(proptest::sample::select(b"data:id\0retry 9event\r\n\xEF\xBB\xBFx".to_vec()), 0..300),
            cut in 0usize..300,
        ) {
            let cut = cut.min(data.len());
            proptest::prop_assert_eq!(run_cap(&[&data], 16), run_cap(&[&data[..cut], &data[cut..]], 16));
        }
    }
}

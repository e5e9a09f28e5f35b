//! Header fields and message heads as the HTTP layers hand them up (HTTP/1.1 and HTTP/2 alike): fields
//! kept in wire order in one string, the few names every message is asked for indexed as a head is built,
//! and the words (methods, reason phrases) and repeated texts kept without a copy.

use std::borrow::Cow;
use std::sync::Arc;

/// Header fields in wire order, names lower-cased (RFC 9110 §5.1: names are case-insensitive). Stored as
/// one string of names and values back to back plus their end offsets, so a head costs two allocations
/// whatever its number of fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headers {
    text: String,
    /// Per field: where its name ends and where its value ends in `text` (its name starts where the
    /// previous value ended).
    ends: Ends,
    /// Per name of [`KNOWN`]: the index of its first field, [`ABSENT`] if none.
    first: [u32; KNOWN.len()],
}

impl Default for Headers {
    fn default() -> Self {
        Headers::with_capacity(0, 0)
    }
}

/// The names the layers above ask every message for (some fourteen lookups a message, each a walk of
/// every field comparing names: 1.7 % of a run's instructions). A head notes the first field of each
/// as it is built, and a lookup of one of them starts there.
const KNOWN: [&str; 10] = [
    "host",
    "content-type",
    "content-length",
    "transfer-encoding",
    "content-encoding",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
    "mcp-method",
    "mcp-name",
];

/// No field of that name.
const ABSENT: u32 = u32::MAX;

/// The slot of a lower-case name in [`KNOWN`]. Inlined into a lookup of a name written in the code, it
/// folds away.
#[inline]
fn known_slot(lower_name: &[u8]) -> Option<usize> {
    KNOWN.iter().position(|k| k.as_bytes() == lower_name)
}

/// Field ends, inline for the fields an MCP request or response carries (a head costs one allocation, its
/// text); offsets fit u32 because a head is capped far below 4 GiB (`limits::max_header_bytes`).
type Ends = smallvec::SmallVec<[(u32, u32); 12]>;

/// An offset into a head's text.
fn offset(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Notes field `index`, named `lower`, as the first of its name if the name is one of [`KNOWN`] and has
/// none yet.
fn note_first(first: &mut [u32; KNOWN.len()], lower: &[u8], index: usize) {
    if let Some(slot) = known_slot(lower).and_then(|k| first.get_mut(k)) {
        if *slot == ABSENT {
            // An index past u32 (never: heads are capped far below) is looked for from the start.
            *slot = u32::try_from(index).unwrap_or(0);
        }
    }
}

impl Headers {
    /// Headers from (name, value) pairs; names are lower-cased.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Headers {
        let mut h = Headers::default();
        for (n, v) in pairs {
            h.push_name(n);
            h.push_value(v);
        }
        h
    }

    /// Empty headers with room for `fields` fields of `bytes` bytes of names and values in total.
    pub(crate) fn with_capacity(fields: usize, bytes: usize) -> Headers {
        Headers { text: String::with_capacity(bytes), ends: Ends::with_capacity(fields), first: [ABSENT; KNOWN.len()] }
    }

    /// Headers from `fields` (name, value) of `bytes` bytes in all, copied as they are (names lower-cased)
    /// and checked as UTF-8 once, whole: `None` if the text is not valid.
    pub(crate) fn from_utf8_fields<'a>(fields: impl Iterator<Item = (&'a [u8], &'a [u8])>, count: usize, bytes: usize) -> Option<Headers> {
        // ALLOC: the head's text and its field offsets, as `with_capacity`.
        let mut text = Vec::with_capacity(bytes);
        let mut ends = Ends::with_capacity(count);
        let mut first = [ABSENT; KNOWN.len()];
        for (name, value) in fields {
            let start = text.len();
            text.extend_from_slice(name);
            let lower = text.get_mut(start..)?;
            lower.make_ascii_lowercase();
            note_first(&mut first, lower, ends.len());
            let name_end = offset(text.len());
            text.extend_from_slice(value);
            ends.push((name_end, offset(text.len())));
        }
        Some(Headers { text: String::from_utf8(text).ok()?, ends, first })
    }

    /// Starts a field with its name (lower-cased); [`Headers::push_value`] must follow.
    pub(crate) fn push_name(&mut self, name: &str) {
        let start = self.text.len();
        self.text.push_str(name);
        if let Some(n) = self.text.get_mut(start..) {
            n.make_ascii_lowercase();
            note_first(&mut self.first, n.as_bytes(), self.ends.len());
        }
        let name_end = offset(self.text.len());
        self.ends.push((name_end, name_end));
    }

    /// Appends to the value of the field started last.
    pub(crate) fn push_value(&mut self, part: &str) {
        self.text.push_str(part);
        let end = offset(self.text.len());
        if let Some(last) = self.ends.last_mut() {
            last.1 = end;
        }
    }

    /// Fields as (lower-case name, value), in wire order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&(name_end, value_end)| {
            let (name_end, value_end) = (name_end as usize, value_end as usize);
            let name = self.text.get(start..name_end).unwrap_or_default();
            let value = self.text.get(name_end..value_end).unwrap_or_default();
            start = value_end;
            (name, value)
        })
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// First value of a header, by lower-case name.
    #[inline]
    pub fn get(&self, lower_name: &str) -> Option<&str> {
        self.values(lower_name).next()
    }

    /// Every value of a header, by lower-case name, in wire order. A name of [`KNOWN`] is looked for from
    /// its first field on (none if it has none). Names are compared as bytes, length first, and only a
    /// match is cut out as text: cutting each name and value as `str` (two char-boundary checks each) cost
    /// more than the compare.
    #[inline]
    pub fn values<'a, 'n>(&'a self, lower_name: &'n str) -> impl Iterator<Item = &'a str> + use<'a, 'n> {
        let (bytes, want) = (self.text.as_bytes(), lower_name.as_bytes());
        let from = match known_slot(want).and_then(|k| self.first.get(k)) {
            Some(&ABSENT) => self.ends.len(),
            Some(&i) => i as usize,
            None => 0,
        };
        // Where the field `from` starts: where the one before it ended.
        let mut start = from.checked_sub(1).and_then(|i| self.ends.get(i)).map_or(0, |&(_, value_end)| value_end as usize);
        self.ends.get(from..).unwrap_or_default().iter().filter_map(move |&(name_end, value_end)| {
            let (name_end, value_end) = (name_end as usize, value_end as usize);
            let found = name_end.checked_sub(start) == Some(want.len()) && bytes.get(start..name_end) == Some(want);
            start = value_end;
            if found { self.text.get(name_end..value_end) } else { None }
        })
    }

    /// The media type as sent, without its parameters (`Text/Event-Stream; charset=utf-8` ->
    /// `Text/Event-Stream`): compare it without case. Cut at the first `;` found byte by byte: a short
    /// value, read four times a response, where a `str` search for a `char` cost a hundred instructions
    /// and more.
    pub fn media_type_raw(&self) -> Option<&str> {
        self.get("content-type").map(|v| {
            let cut = v.bytes().position(|b| b == b';').and_then(|at| v.get(..at));
            cut.unwrap_or(v).trim()
        })
    }

    /// The media type is `lower` (compared without case, parameters ignored), without allocating.
    pub fn media_type_is(&self, lower: &str) -> bool {
        self.media_type_raw().is_some_and(|m| m.eq_ignore_ascii_case(lower))
    }

    /// The media type (`content_type` without the copy for the common ones, which come back as static
    /// text).
    pub fn media_type(&self) -> Option<Cow<'static, str>> {
        const COMMON: &[&str] = &["application/json", "text/event-stream", "text/plain", "text/html"];
        self.media_type_raw().map(|m| {
            match COMMON.iter().find(|k| k.eq_ignore_ascii_case(m)) {
                Some(k) => Cow::Borrowed(*k),
                None => Cow::Owned(m.to_ascii_lowercase()),
            }
        })
    }

    pub fn content_type(&self) -> Option<String> {
        self.media_type().map(Cow::into_owned)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestHead {
    /// A registered method is not copied ([`token`]).
    pub method: Cow<'static, str>,
    /// Request target as sent (path and query): shared, so the layers above keep it without a copy.
    pub target: Arc<str>,
    /// HTTP minor version (1 for HTTP/1.1).
    pub version: u8,
    pub headers: Headers,
}

impl RequestHead {
    /// Path without the query string.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
}

/// A word that is nearly always one of a few (a method, a reason phrase, an MCP method name): those as
/// static text, so keeping one costs no allocation; anything else owned (copied if it was borrowed).
pub fn token<'a>(word: impl Into<Cow<'a, str>>, known: &[&'static str]) -> Cow<'static, str> {
    let word = word.into();
    match known.iter().find(|k| **k == word) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(word.into_owned()),
    }
}

/// The last text of a field a connection repeats (a request target, `Host`, a session id): the next
/// occurrence of the same text shares it instead of a copy of its own.
#[derive(Debug, Default)]
pub struct Interned(Option<Arc<str>>);

impl Interned {
    /// `text` shared: the last one when equal, else a new one that becomes the last.
    pub fn intern(&mut self, text: &str) -> Arc<str> {
        match &self.0 {
            Some(last) if **last == *text => Arc::clone(last),
            _ => {
                // ALLOC: one per change of the field's text on a connection
                let new: Arc<str> = Arc::from(text);
                self.0 = Some(Arc::clone(&new));
                new
            }
        }
    }
}

/// The methods of RFC 9110 §9 and PATCH (RFC 5789).
pub const METHODS: &[&str] = &["POST", "GET", "DELETE", "PUT", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE"];

/// The reason phrases MCP servers send most (RFC 9110 §15).
pub const REASONS: &[&str] = &[
    "OK",
    "Accepted",
    "",
    "No Content",
    "Created",
    "Bad Request",
    "Unauthorized",
    "Forbidden",
    "Not Found",
    "Method Not Allowed",
    "Not Acceptable",
    "Conflict",
    "Unsupported Media Type",
    "Too Many Requests",
    "Internal Server Error",
    "Bad Gateway",
    "Service Unavailable",
    "Gateway Timeout",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseHead {
    pub status: u16,
    /// A common phrase is not copied ([`token`]).
    pub reason: Cow<'static, str>,
    pub version: u8,
    pub headers: Headers,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn lookups_answer_as_a_walk_of_every_field_does() {
        // Heads of every known name, repeated, absent, in any case and place, among names that are
        // one byte off (a prefix, an extension) and unknown ones; built field by field (as HTTP/2 and
        // tests do) and from a parsed head's bytes. Every lookup answers as comparing every field does.
        let names = [
            "host", "Host", "content-type", "CONTENT-TYPE", "content-typ", "content-types", "content-length",
            "transfer-encoding", "Content-Encoding", "mcp-session-id", "Mcp-Session-Id", "mcp-protocol-version",
            "last-event-id", "mcp-method", "mcp-name", "mcp-names", "accept", "x-other", "hos", "",
        ];
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut rnd = move || crate::keyed::xorshift(&mut seed);
        for round in 0..2_000 {
            let fields: Vec<(String, String)> = (0..rnd() % 14)
                .map(|i| (names[(rnd() % names.len() as u64) as usize].to_string(), format!("v{round}.{i}")))
                .collect();
            let pairs = Headers::from_pairs(fields.iter().map(|(n, v)| (n.as_str(), v.as_str())));
            let bytes = fields.iter().map(|(n, v)| n.len() + v.len()).sum();
            let parsed =
                Headers::from_utf8_fields(fields.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())), fields.len(), bytes).unwrap();
            assert_eq!(pairs, parsed);
            for h in [&pairs, &parsed] {
                for name in names.iter().map(|n| n.to_ascii_lowercase()) {
                    let walk: Vec<&str> = h.iter().filter(|(n, _)| *n == name).map(|(_, v)| v).collect();
                    assert_eq!(h.values(&name).collect::<Vec<_>>(), walk, "{name} in {fields:?}");
                    assert_eq!(h.get(&name), walk.first().copied(), "{name} in {fields:?}");
                }
            }
        }
    }

    #[test]
    fn the_media_type_is_the_value_up_to_its_first_semicolon_trimmed() {
        for v in [
            "application/json", " Text/Event-Stream ; charset=utf-8", ";x", "a;b;c", "", " ", "text/plain\u{a0};q",
            "t\u{e9}xt/pl\u{e4}in; x=\u{1f600}", "application/json;", "\u{2003}text/html\u{2003}",
        ] {
            let h = Headers::from_pairs([("x-before", "1"), ("content-type", v), ("content-type", "second/one")]);
            let want = v.split(';').next().unwrap().trim();
            assert_eq!(h.media_type_raw(), Some(want), "{v:?}");
            assert!(h.media_type_is(&want.to_ascii_uppercase()), "{v:?}");
            assert_eq!(h.media_type().as_deref(), Some(want.to_ascii_lowercase().as_str()));
        }
        assert_eq!(Headers::from_pairs([("x-content-type", "a/b")]).media_type_raw(), None);
    }

    #[test]
    fn registered_words_are_static_and_others_kept() {
        use std::borrow::Cow;
        assert!(matches!(token("POST", METHODS), Cow::Borrowed("POST")));
        assert!(matches!(token("Accepted", REASONS), Cow::Borrowed("Accepted")));
        // Case matters for a method (RFC 9110 §9.1); any other word is kept as sent.
        assert!(matches!(token("post", METHODS), Cow::Owned(ref m) if m == "post"));
        assert!(matches!(token("MKCOL", METHODS), Cow::Owned(ref m) if m == "MKCOL"));
        let h = Headers::from_pairs([("Content-Type", "Application/JSON; charset=utf-8"), ("X-Other", "v")]);
        assert!(matches!(h.media_type(), Some(Cow::Borrowed("application/json"))));
        let h = Headers::from_pairs([("content-type", "Application/X-Custom+json")]);
        assert_eq!(h.media_type().as_deref(), Some("application/x-custom+json"));
        // Names are lower-cased, values kept; more fields than are kept inline still read back.
        let many: Vec<(String, String)> = (0..40).map(|i| (format!("X-F{i}"), format!("V{i}"))).collect();
        let h = Headers::from_pairs(many.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        assert_eq!((h.len(), h.get("x-f0"), h.get("x-f39")), (40, Some("V0"), Some("V39")));
    }

    #[test]
    fn header_values_are_found_by_whole_name_in_wire_order() {
        // Names that are prefixes or extensions of each other, empty values, a repeated field, and a
        // value that looks like a name: only whole names match, every value of one comes back in order.
        let h = Headers::from_pairs([
            ("Content", "a"),
            ("Content-Length", "10"),
            ("content-length-x", "b"),
            ("Transfer-Encoding", "gzip"),
            ("X-Empty", ""),
            ("transfer-encoding", "chunked"),
            ("Content-Lengt", "content-length"),
        ]);
        assert_eq!(h.values("transfer-encoding").collect::<Vec<_>>(), ["gzip", "chunked"]);
        assert_eq!(h.values("content-length").collect::<Vec<_>>(), ["10"]);
        assert_eq!((h.get("content"), h.get("content-lengt"), h.get("x-empty")), (Some("a"), Some("content-length"), Some("")));
        assert_eq!((h.get("Content-Length"), h.get("content-length-"), h.get("")), (None, None, None));
        // The same answers as a walk over every field.
        for name in ["content", "content-length", "content-length-x", "transfer-encoding", "x-empty", "content-lengt", "nope"] {
            let walked: Vec<&str> = h.iter().filter(|(n, _)| *n == name).map(|(_, v)| v).collect();
            assert_eq!(h.values(name).collect::<Vec<_>>(), walked, "{name}");
        }
    }
}

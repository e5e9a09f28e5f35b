//! The JSON-RPC scanner: one pass over a payload that reads the keys the MCP layer needs (`jsonrpc`,
//! `id`, `method`, `params.{protocolVersion,name,uri,clientInfo.name,_meta,requestId}`, `result.protocolVersion`,
//! `error.{code,message}`) and skips everything else without building a value or copying a byte: a string
//! is skipped by finding its closing quote sixteen bytes at a time ([`special`]), and past an escape 64 at a
//! time over escapes that are valid as they stand ([`skip_plain`]); a subtree by counting brackets. Only the
//! few strings it keeps are copied.
//!
//! It accepts and rejects exactly what the serde decoding it replaced did (RFC 8259 grammar as
//! serde_json reads it, and serde's derive rules for the typed fields), so no verdict moved: the serde
//! decoder is kept as the test oracle (`oracle.rs`) and a differential property test compares the two.
//! The rules that are serde's rather than JSON's, kept on purpose:
//! - strings the scanner keeps, and every object key outside a skipped subtree, must be valid UTF-8 with
//!   paired surrogate escapes; a skipped string only needs valid escapes and no raw control character;
//! - a number the scanner reads (an id, an error code, a scalar where a string was expected) must fit an
//!   f64; a skipped number only needs the grammar;
//! - a known member given twice is an error (`"id"` twice), except `result.protocolVersion` (the last wins);
//! - `null` where an optional member is expected counts as absent, except `result` (JSON-RPC 2.0 §5: a
//!   result is whatever the method returns, null included, so `"result": null` answers its request) and
//!   `result.protocolVersion`, where it is a value that is not a string;
//! - a struct may be written as an array, its members by position (serde's derive accepts both), except
//!   `params`: JSON-RPC 2.0 §4.2 passes parameters by position in an array, which says nothing of MCP's
//!   named ones (they are read as absent, and the message stands).
//!
//! Not mirrored: a float id is kept as Rust formats the f64 it parses to, which can differ from serde's
//! in the last digit of numbers with more than 15 significant digits; ids are only compared with ids
//! formatted the same way.

use std::borrow::Cow;

use super::{ClientInfo, Id, IdOrOther, Meta, Params, ResultInfo, StringOrOther};

/// What a message object gave, before it is judged JSON-RPC (`super::convert`).
#[derive(Default)]
pub(super) struct Wire {
    pub(super) jsonrpc: bool,
    pub(super) id: Option<Id>,
    pub(super) method: Option<Cow<'static, str>>,
    pub(super) params: Option<Params>,
    pub(super) result: Option<ResultInfo>,
    /// `error`: (code, message).
    pub(super) error: Option<(Option<i64>, Option<StringOrOther>)>,
}

type R<T> = Result<T, String>;

/// Where a string's text stops: the first quote, backslash or raw control character. The first eight
/// bytes one word at a time (SWAR: a byte is flagged when it is below 0x20 or equals `"` or a backslash;
/// borrows only flag bytes above a flagged one, so the lowest flag is exact): keys and most values end
/// there. Longer text sixteen bytes a step with SIMD (`wide`: SSE2 on every x86-64, NEON on aarch64), the
/// flagged lanes gathered into a bitmask whose lowest bit is the answer; text that does not fill a last
/// block is read as the sixteen bytes that end it, which overlap bytes already known to be plain.
pub(super) fn special(s: &[u8]) -> Option<usize> {
    let Some((first, rest)) = s.split_first_chunk::<8>() else {
        return s.iter().position(|&c| flagged(c));
    };
    if let Some(k) = word_special(*first) {
        return Some(k);
    }
    let mut blocks = rest.chunks_exact(16);
    let mut at = 8;
    for b in &mut blocks {
        if let Some(k) = block_special(b) {
            return Some(at + k);
        }
        at += 16;
    }
    let tail = blocks.remainder();
    match s.len().checked_sub(16) {
        _ if tail.is_empty() => None,
        // The bytes before the tail are plain: the last sixteen may overlap them.
        Some(last) => s.get(last..).and_then(block_special).map(|k| last + k),
        None => tail.iter().position(|&c| flagged(c)).map(|k| at + k),
    }
}

/// Where a skipped string's careful loop picks up again after an escape: from `from` (in the string's
/// text, not the second byte of an escape), 64 bytes at a time, over plain text and escapes that are
/// valid as they stand (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, and `\u` with four hex digits);
/// the index of the first byte the loop must look at itself: a quote or control character that no escape
/// takes, a backslash whose escape is anything else or runs past `b`, or the start of the last bytes that
/// do not fill a block. An escape that a block's last byte opens moves the next block past its second
/// byte, so no block starts inside an escape and nothing is carried from one block to the next. The loop then
/// finds that byte first and decides it as before, so a skipped string is accepted, rejected and ended
/// exactly as it was; only the loop's restart after each escape is gone. That restart cost more than the
/// text between escapes, which in the JSON that servers put in strings (tool output, embedded JSON) comes
/// every hundred bytes or so: on the bench capture a skipped string was restarted six times on average.
pub(super) fn skip_plain(b: &[u8], from: usize) -> usize {
    let mut p = from;
    'blocks: while let Some(block) = b.get(p..p + 64) {
        let mut stops = block_stops(block);
        while stops != 0 {
            let k = stops.trailing_zeros() as usize;
            let at = p + k;
            if b.get(at) != Some(&b'\\') {
                return at;
            }
            match b.get(at + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                    // The escaped byte is text, whatever it is.
                    if k == 63 {
                        p = at + 2;
                        continue 'blocks;
                    }
                    stops &= !(1u64 << (k + 1));
                }
                Some(b'u') if b.get(at + 2..at + 6).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) => {}
                _ => return at,
            }
            stops &= stops - 1;
        }
        p += 64;
    }
    p
}

/// The quotes, backslashes and control characters of a 64-byte block, one bit each. A block with none,
/// as most of a long text is, is told by one bitmask of the four lanes' plain bytes together.
fn block_stops(block: &[u8]) -> u64 {
    use wide::i8x16;
    let lanes = |i: usize| -> i8x16 {
        let v = block.get(i * 16..i * 16 + 16).and_then(|c| <[u8; 16]>::try_from(c).ok()).unwrap_or_default();
        plain_lanes(v)
    };
    let (a, b, c, d) = (lanes(0), lanes(1), lanes(2), lanes(3));
    if (a & b & c & d).to_bitmask() == 0xffff {
        return 0;
    }
    let bits = |v: i8x16| u64::from(!(v.to_bitmask() as u16));
    bits(a) | bits(b) << 16 | bits(c) << 32 | bits(d) << 48
}

/// The lanes of `block` that do not stop string text. A quote (0x22) is a control character's neighbour:
/// flipping bit 1 maps it to 0x20 and the control characters onto themselves, so `v ^ 0x02 > 0x20`
/// (unsigned) rules out both at once, and only the backslash needs a test of its own. SSE2's one byte
/// comparison is signed greater-than, so the test is written as it: `v ^ 0x82 > 0x20 ^ 0x80` (signed).
/// A lane then takes five instructions, where a test for each of the three stops took eight.
fn plain_lanes(block: [u8; 16]) -> wide::i8x16 {
    use wide::i8x16;
    let v = i8x16::new(block.map(|c| i8::from_ne_bytes([c])));
    let above = (v ^ i8x16::splat(i8::from_ne_bytes([0x82]))).simd_gt(i8x16::splat(i8::from_ne_bytes([0xa0])));
    above & !v.simd_eq(i8x16::splat(i8::from_ne_bytes([b'\\'])))
}

/// The UTF-8 error of string text, if it has one. ASCII text, as nearly every member name and kept value
/// is, is decided inline: a `str::from_utf8` call costs more than that check on a few bytes.
pub(super) fn utf8_error(text: &[u8]) -> Option<std::str::Utf8Error> {
    if text.is_ascii() {
        return None;
    }
    std::str::from_utf8(text).err()
}

/// The first flagged lane of a 16-byte block.
fn block_special(b: &[u8]) -> Option<usize> {
    let stops = !plain_lanes(<[u8; 16]>::try_from(b).ok()?).to_bitmask() & 0xffff;
    (stops != 0).then(|| stops.trailing_zeros() as usize)
}

/// A byte that stops string text, tested alone (text shorter than a block).
fn flagged(c: u8) -> bool {
    (c == b'"') | (c == b'\\') | (c < 0x20)
}

/// The first flagged byte of a word (SWAR: see `special`).
fn word_special(b: [u8; 8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let x = u64::from_le_bytes(b);
    // Below 0x21 after bit 1 is flipped: a control character or a quote (see `plain_lanes`).
    let t = x ^ (ONES * 0x02);
    let hit = t.wrapping_sub(ONES * 0x21) & !t & HIGH | zero(x ^ (ONES * u64::from(b'\\')));
    (hit != 0).then(|| (hit.trailing_zeros() / 8) as usize)
}

/// The open containers of a skipped subtree, one bit each (set: an object): the first 128 levels in a
/// word, so skipping a value allocates nothing unless it nests deeper than that.
#[derive(Default)]
pub(super) struct Brackets {
    depth: usize,
    near: u128,
    // ALLOC: only below 128 levels of nesting, one byte per level, bounded by the body's size
    deep: Vec<bool>,
}

impl Brackets {
    pub(super) fn push(&mut self, object: bool) {
        if self.depth < 128 {
            self.near = (self.near & !(1 << self.depth)) | (u128::from(object) << self.depth);
        } else {
            self.deep.push(object);
        }
        self.depth += 1;
    }

    pub(super) fn last(&self) -> Option<bool> {
        match self.depth {
            0 => None,
            d if d <= 128 => Some(self.near >> (d - 1) & 1 == 1),
            _ => self.deep.last().copied(),
        }
    }

    pub(super) fn pop(&mut self) {
        if self.depth > 128 {
            self.deep.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }
}

/// A number read for its value, as serde_json classifies it.
pub(super) enum Num {
    U64(u64),
    I64(i64),
    F64(f64),
}

impl Num {
    /// A number read where an id goes: an integer that fits i64 is one, any other number is kept as its text.
    pub(super) fn into_id(self) -> Id {
        match self {
            Num::U64(n) => i64::try_from(n).map(Id::Num).unwrap_or_else(|_| Id::Other(n.to_string())),
            Num::I64(n) => Id::Num(n),
            Num::F64(f) => Id::Other(f.to_string()),
        }
    }
}

pub(super) struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    pub(super) fn new(b: &'a [u8]) -> Scan<'a> {
        Scan { b, i: 0 }
    }

    fn err<T>(&self, what: &str) -> R<T> {
        Err(format!("{what} at byte {}", self.i))
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// JSON whitespace (RFC 8259 §2), then the next byte.
    fn ws(&mut self) -> Option<u8> {
        while let Some(c @ (b' ' | b'\n' | b'\t' | b'\r')) = self.peek() {
            let _ = c;
            self.i += 1;
        }
        self.peek()
    }

    /// Nothing but whitespace left.
    pub(super) fn end(&mut self) -> R<()> {
        match self.ws() {
            None => Ok(()),
            Some(_) => self.err("trailing characters"),
        }
    }

    fn literal(&mut self, word: &[u8]) -> R<()> {
        match self.b.get(self.i..self.i + word.len()) {
            Some(s) if s == word => {
                self.i += word.len();
                Ok(())
            }
            _ => self.err("expected a literal"),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - start
    }

    /// The number grammar (RFC 8259 §6); returns whether it had a fraction or an exponent.
    fn number_grammar(&mut self) -> R<bool> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return self.err("invalid number");
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.err("invalid number"),
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.i += 1;
            float = true;
            if self.digits() == 0 {
                return self.err("invalid number");
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            float = true;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return self.err("invalid number");
            }
        }
        Ok(float)
    }

    /// A number read for its value: an integer that fits u64 (or i64, negative) stays one, anything
    /// else is an f64, which must be finite.
    pub(super) fn number(&mut self) -> R<Num> {
        let start = self.i;
        let float = self.number_grammar()?;
        let text = self.b.get(start..self.i).unwrap_or_default();
        let text = std::str::from_utf8(text).unwrap_or_default();
        if !float {
            if let Some(digits) = text.strip_prefix('-') {
                if let Ok(n) = digits.parse::<u64>() {
                    // serde_json: -0 and values below i64::MIN become floats.
                    let neg = (n as i64).wrapping_neg();
                    if neg < 0 {
                        return Ok(Num::I64(neg));
                    }
                }
            } else if let Ok(n) = text.parse::<u64>() {
                return Ok(Num::U64(n));
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Num::F64(f)),
            _ => self.err("number out of range"),
        }
    }

    /// Skips a string (the opening quote at `i`): escapes checked, no raw control character, no UTF-8
    /// check (serde_json's `ignore_str`).
    #[inline]
    fn skip_string(&mut self) -> R<()> {
        self.i += 1;
        loop {
            let rest = self.b.get(self.i..).unwrap_or_default();
            let Some(k) = special(rest) else {
                self.i = self.b.len();
                return self.err("end of input in a string");
            };
            self.i += k;
            match rest.get(k) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => {}
                _ => return self.err("control character in a string"),
            }
            self.i += 1;
            match self.peek() {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 1,
                Some(b'u') => {
                    self.i += 1;
                    self.hex4()?;
                }
                None => return self.err("end of input in a string"),
                Some(_) => return self.err("invalid escape"),
            }
            self.i = skip_plain(self.b, self.i);
        }
    }

    #[inline]
    fn hex4(&mut self) -> R<u16> {
        let Some(h) = self.b.get(self.i..self.i + 4) else {
            self.i = self.b.len();
            return self.err("end of input in an escape");
        };
        let mut n: u16 = 0;
        for &c in h {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => return self.err("invalid escape"),
            };
            n = (n << 4) | u16::from(d);
        }
        self.i += 4;
        Ok(n)
    }

    /// A member name (the opening quote at `i`), read as `string` reads it and handed on as bytes, so
    /// that a name with no escape is only checked ([`utf8_error`]), never made a `str`: names are only
    /// compared with the ASCII names the schema knows.
    fn key(&mut self) -> R<Cow<'a, [u8]>> {
        let rest = self.b.get(self.i + 1..).unwrap_or_default();
        if let Some(k) = special(rest) {
            if let (Some(b'"'), Some(name)) = (rest.get(k), rest.get(..k)) {
                if utf8_error(name).is_none() {
                    self.i += k + 2;
                    return Ok(Cow::Borrowed(name));
                }
            }
        }
        Ok(match self.string()? {
            Cow::Borrowed(name) => Cow::Borrowed(name.as_bytes()),
            Cow::Owned(name) => Cow::Owned(name.into_bytes()),
        })
    }

    /// A string read for its value (the opening quote at `i`): UTF-8, escapes decoded, surrogates paired
    /// (serde_json's `parse_str`). Borrowed when it has no escape.
    fn string(&mut self) -> R<Cow<'a, str>> {
        self.i += 1;
        let mut owned: Option<String> = None;
        loop {
            let rest = self.b.get(self.i..).unwrap_or_default();
            let Some(k) = special(rest) else {
                self.i = self.b.len();
                return self.err("end of input in a string");
            };
            if rest.get(k).is_some_and(|&c| c < 0x20) {
                self.i += k;
                return self.err("control character in a string");
            }
            let span = rest.get(..k).unwrap_or_default();
            let Ok(text) = std::str::from_utf8(span) else {
                return self.err("invalid UTF-8 in a string");
            };
            self.i += k + 1;
            if rest.get(k) == Some(&b'"') {
                return Ok(match owned {
                    None => Cow::Borrowed(text),
                    Some(mut s) => {
                        s.push_str(text);
                        Cow::Owned(s)
                    }
                });
            }
            let s = owned.get_or_insert_with(String::new);
            s.push_str(text);
            let c = match self.peek() {
                Some(b'"') => '"',
                Some(b'\\') => '\\',
                Some(b'/') => '/',
                Some(b'b') => '\u{8}',
                Some(b'f') => '\u{c}',
                Some(b'n') => '\n',
                Some(b'r') => '\r',
                Some(b't') => '\t',
                Some(b'u') => {
                    self.i += 1;
                    let c = self.unicode_escape()?;
                    s.push(c);
                    continue;
                }
                None => return self.err("end of input in a string"),
                Some(_) => return self.err("invalid escape"),
            };
            self.i += 1;
            s.push(c);
        }
    }

    /// `\uXXXX` after the `u`, with its trailing surrogate if it is a leading one.
    fn unicode_escape(&mut self) -> R<char> {
        let n = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&n) {
            return self.err("lone surrogate in an escape");
        }
        if !(0xD800..=0xDBFF).contains(&n) {
            return char::from_u32(u32::from(n)).map_or_else(|| self.err("invalid escape"), Ok);
        }
        if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
            return self.err("unpaired surrogate in an escape");
        }
        self.i += 2;
        let n2 = self.hex4()?;
        if !(0xDC00..=0xDFFF).contains(&n2) {
            return self.err("unpaired surrogate in an escape");
        }
        let c = (((u32::from(n) - 0xD800) << 10) | (u32::from(n2) - 0xDC00)) + 0x1_0000;
        char::from_u32(c).map_or_else(|| self.err("invalid escape"), Ok)
    }

    /// Skips any value (serde's `IgnoredAny`): grammar only, any depth.
    fn skip_value(&mut self) -> R<()> {
        let mut stack = Brackets::default();
        loop {
            match self.ws() {
                Some(b'"') => self.skip_string()?,
                Some(b'-' | b'0'..=b'9') => {
                    self.number_grammar()?;
                }
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(open @ (b'[' | b'{')) => {
                    self.i += 1;
                    let object = open == b'{';
                    let close = if object { b'}' } else { b']' };
                    if self.ws() == Some(close) {
                        self.i += 1;
                    } else {
                        stack.push(object);
                        if object {
                            self.key_colon()?;
                        }
                        continue;
                    }
                }
                None => return self.err("end of input, expected a value"),
                Some(_) => return self.err("expected a value"),
            }
            // A value ended: close what ends here, or go on to the next member or element.
            loop {
                let Some(object) = stack.last() else { return Ok(()) };
                match self.ws() {
                    Some(b',') => {
                        self.i += 1;
                        if object {
                            self.ws();
                            self.key_colon()?;
                        }
                        break;
                    }
                    Some(b'}') if object => {
                        self.i += 1;
                        stack.pop();
                    }
                    Some(b']') if !object => {
                        self.i += 1;
                        stack.pop();
                    }
                    _ => return self.err("expected ',' or the end of a container"),
                }
            }
        }
    }

    /// In a skipped object: a key (not checked for UTF-8, as serde skips it) and its colon.
    #[inline]
    fn key_colon(&mut self) -> R<()> {
        if self.ws() != Some(b'"') {
            return self.err("expected a key");
        }
        self.skip_string()?;
        self.colon()
    }

    fn colon(&mut self) -> R<()> {
        if self.ws() != Some(b':') {
            return self.err("expected ':'");
        }
        self.i += 1;
        Ok(())
    }

    /// The members of an object read for some keys (the `{` at `i`): each key read as a string, handed
    /// with the scanner (at its value) to `member`, which reads or skips the value.
    fn object(&mut self, member: &mut dyn FnMut(&mut Scan<'a>, &[u8]) -> R<()>) -> R<()> {
        self.i += 1;
        if self.ws() == Some(b'}') {
            self.i += 1;
            return Ok(());
        }
        loop {
            if self.ws() != Some(b'"') {
                return self.err("expected a key");
            }
            let key = self.key()?;
            self.colon()?;
            member(self, &key)?;
            match self.ws() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return self.err("expected ',' or '}'"),
            }
        }
    }

    /// An array read element by element (the `[` at `i`): `element` reads or skips each.
    fn array(&mut self, element: &mut dyn FnMut(&mut Scan<'a>, usize) -> R<()>) -> R<()> {
        self.i += 1;
        if self.ws() == Some(b']') {
            self.i += 1;
            return Ok(());
        }
        let mut n = 0;
        loop {
            element(self, n)?;
            n += 1;
            match self.ws() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return self.err("expected ',' or ']'"),
            }
        }
    }

    /// A struct as serde's derive reads it: an object (named members, unknown ones skipped, a known one
    /// twice an error) or an array (members by position; a missing one must have a default, an extra
    /// one is an error). `field(scan, index)` reads the value of member `index` of `names`.
    fn record(&mut self, names: &[&str], defaults: &[bool], field: &mut dyn FnMut(&mut Scan<'a>, usize) -> R<()>) -> R<()> {
        match self.ws() {
            Some(b'{') => {
                let mut seen = 0u32;
                self.object(&mut |s, key| match names.iter().position(|n| n.as_bytes() == key) {
                    Some(k) => {
                        if seen & (1 << k) != 0 {
                            return s.err("duplicate member");
                        }
                        seen |= 1 << k;
                        field(s, k)
                    }
                    None => s.skip_value(),
                })
            }
            Some(b'[') => {
                let mut given = 0;
                self.array(&mut |s, k| {
                    if k >= names.len() {
                        return s.err("too many elements");
                    }
                    given = k + 1;
                    field(s, k)
                })?;
                if defaults.get(given..).unwrap_or_default().iter().all(|d| *d) {
                    Ok(())
                } else {
                    self.err("too few elements")
                }
            }
            _ => self.err("expected an object"),
        }
    }

    /// `null`, then `true`: the value is null (consumed).
    fn null(&mut self) -> R<bool> {
        if self.ws() == Some(b'n') {
            self.literal(b"null")?;
            return Ok(true);
        }
        Ok(false)
    }

    /// A JSON-RPC id: a string, a number or null (JSON-RPC 2.0 §4); anything else fails the payload.
    fn id(&mut self) -> R<Id> {
        match self.ws() {
            Some(b'n') => {
                self.literal(b"null")?;
                Ok(Id::Null)
            }
            Some(b'"') => Ok(Id::Str(self.string()?.into_owned())),
            Some(b'-' | b'0'..=b'9') => Ok(self.number()?.into_id()),
            _ => self.err("an id must be a string, a number or null"),
        }
    }

    /// An optional string member: null is absent, anything but a string fails the payload.
    fn opt_string(&mut self) -> R<Option<String>> {
        Ok(self.opt_str()?.map(Cow::into_owned))
    }

    /// `opt_string`, borrowed where the text has no escapes.
    fn opt_str(&mut self) -> R<Option<Cow<'a, str>>> {
        if self.null()? {
            return Ok(None);
        }
        match self.ws() {
            Some(b'"') => Ok(Some(self.string()?)),
            _ => self.err("expected a string"),
        }
    }

    /// A member that should be a string; any other value is kept as "not a string" (`StringOrOther`).
    fn string_or_other(&mut self) -> R<Option<StringOrOther>> {
        if self.null()? {
            return Ok(None);
        }
        Ok(Some(match self.ws() {
            Some(b'"') => StringOrOther(Some(self.string()?.into_owned())),
            _ => {
                self.any_skipped()?;
                StringOrOther(None)
            }
        }))
    }

    /// A member that should be an id (`notifications/cancelled`'s `requestId`): null is absent, a string or a
    /// number is the id, any other value is kept as "not an id" (`IdOrOther`).
    fn id_or_other(&mut self) -> R<Option<IdOrOther>> {
        if self.null()? {
            return Ok(None);
        }
        Ok(Some(match self.ws() {
            Some(b'"' | b'-' | b'0'..=b'9') => IdOrOther(Some(self.id()?)),
            _ => {
                self.any_skipped()?;
                IdOrOther(None)
            }
        }))
    }

    /// A value read as serde's `deserialize_any` reads one it then discards: numbers must fit an f64,
    /// an array's elements and an object's values are skipped, an object's keys are read as strings.
    fn any_skipped(&mut self) -> R<()> {
        match self.ws() {
            Some(b'"') => self.string().map(drop),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'[') => self.array(&mut |s, _| s.skip_value()),
            Some(b'{') => self.object(&mut |s, _| s.skip_value()),
            None => self.err("end of input, expected a value"),
            Some(_) => self.err("expected a value"),
        }
    }

    fn client_info(&mut self) -> R<Option<ClientInfo>> {
        if self.null()? {
            return Ok(None);
        }
        let mut info = ClientInfo::default();
        self.record(&["name"], &[true], &mut |s, _| {
            info.name = s.string_or_other()?;
            Ok(())
        })?;
        Ok(Some(info))
    }

    fn meta(&mut self) -> R<Option<Meta>> {
        if self.null()? {
            return Ok(None);
        }
        let mut meta = Meta::default();
        self.record(
            &["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientInfo"],
            &[true, true],
            &mut |s, k| {
                match k {
                    0 => meta.protocol_version = s.string_or_other()?,
                    _ => meta.client_info = s.client_info()?,
                }
                Ok(())
            },
        )?;
        Ok(Some(meta))
    }

    fn params(&mut self) -> R<Option<Params>> {
        if self.null()? {
            return Ok(None);
        }
        if self.ws() == Some(b'[') {
            // By position (JSON-RPC 2.0 §4.2, jayson's `[1, 2]`): no named member to read.
            self.any_skipped()?;
            return Ok(Some(Params::default()));
        }
        let mut p = Params::default();
        self.record(&["protocolVersion", "name", "uri", "clientInfo", "_meta", "requestId"], &[true; 6], &mut |s, k| {
            match k {
                0 => p.protocol_version = s.opt_string()?,
                1 => p.name = s.string_or_other()?,
                2 => p.uri = s.string_or_other()?,
                3 => p.client_info = s.client_info()?,
                4 => p.meta = s.meta()?,
                _ => p.request_id = s.id_or_other()?,
            }
            Ok(())
        })?;
        Ok(Some(p))
    }

    /// `result`: any value; of an object, only `protocolVersion` is read (the last one, if repeated).
    fn result(&mut self) -> R<Option<ResultInfo>> {
        if self.null()? {
            return Ok(Some(ResultInfo::default()));
        }
        let mut info = ResultInfo::default();
        match self.ws() {
            Some(b'{') => self.object(&mut |s, key| {
                if key == b"protocolVersion" {
                    // Read as a plain `StringOrOther` there, not an Option: null is "not a string".
                    info.protocol_version = Some(s.string_or_other()?.unwrap_or(StringOrOther(None)));
                    Ok(())
                } else {
                    s.skip_value()
                }
            })?,
            _ => self.any_skipped()?,
        }
        Ok(Some(info))
    }

    /// An error code: an integer that fits i64; null is absent.
    fn code(&mut self) -> R<Option<i64>> {
        if self.null()? {
            return Ok(None);
        }
        match self.ws() {
            Some(b'-' | b'0'..=b'9') => match self.number()? {
                Num::I64(n) => Ok(Some(n)),
                Num::U64(n) => i64::try_from(n).map(Some).or_else(|_| self.err("error code out of range")),
                Num::F64(_) => self.err("error code is not an integer"),
            },
            _ => self.err("error code is not a number"),
        }
    }

    fn error(&mut self) -> R<Option<(Option<i64>, Option<StringOrOther>)>> {
        if self.null()? {
            return Ok(None);
        }
        let (mut code, mut message) = (None, None);
        self.record(&["code", "message"], &[true, true], &mut |s, k| {
            match k {
                0 => code = s.code()?,
                _ => message = s.string_or_other()?,
            }
            Ok(())
        })?;
        Ok(Some((code, message)))
    }

    /// One message (an object, or serde's positional array).
    pub(super) fn message(&mut self) -> R<Wire> {
        let mut w = Wire::default();
        let names = ["jsonrpc", "id", "method", "params", "result", "error"];
        // By position, `jsonrpc` and `method` have no default (serde's derive: an Option without
        // `#[serde(default)]`).
        let defaults = [false, true, false, true, true, true];
        self.record(&names, &defaults, &mut |s, k| {
            match k {
                0 => {
                    // `"jsonrpc": null` is absent (an Option), so not JSON-RPC.
                    w.jsonrpc = !s.null()?;
                    if w.jsonrpc {
                        s.skip_value()?;
                    }
                }
                1 => w.id = Some(s.id()?),
                2 => w.method = s.opt_str()?.map(super::method_name),
                3 => w.params = s.params()?,
                4 => w.result = s.result()?,
                _ => w.error = s.error()?,
            }
            Ok(())
        })?;
        Ok(w)
    }

    /// A batch: an array of messages, in order.
    pub(super) fn batch(&mut self) -> R<Vec<Wire>> {
        if self.ws() != Some(b'[') {
            return self.err("expected an array");
        }
        let mut out = Vec::new();
        self.array(&mut |s, _| {
            out.push(s.message()?);
            Ok(())
        })?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing)]
    use super::special;

    proptest::proptest! {
        #[test]
        fn special_finds_the_first_quote_backslash_or_control_character(
            bytes in proptest::collection::vec(proptest::prop_oneof![0x20u8..=0xff, proptest::prelude::Just(b'"'), proptest::prelude::Just(b'\\'), 0u8..0x20], 0..80)
        ) {
            let naive = bytes.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20);
            proptest::prop_assert_eq!(special(&bytes), naive);
        }
    }

    /// A skipped string as the loop decided it before `skip_plain`, one stop byte at a time, from text at
    /// `i` (after the opening quote, or after an escape): where it ends, or the error as `Scan` gives it.
    fn bytewise(b: &[u8], mut i: usize) -> Result<usize, String> {
        let err = |what: &str, at: usize| Err(format!("{what} at byte {at}"));
        loop {
            let Some(k) = b[i..].iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20) else {
                return err("end of input in a string", b.len());
            };
            i += k;
            match b[i] {
                b'"' => return Ok(i + 1),
                b'\\' => i += 1,
                _ => return err("control character in a string", i),
            }
            match b.get(i) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 1,
                Some(b'u') => {
                    i += 1;
                    let Some(h) = b.get(i..i + 4) else { return err("end of input in an escape", b.len()) };
                    if !h.iter().all(u8::is_ascii_hexdigit) {
                        return err("invalid escape", i);
                    }
                    i += 4;
                }
                None => return err("end of input in a string", i),
                Some(_) => return err("invalid escape", i),
            }
        }
    }

    /// String text from pieces that put escapes, stops and runs of backslashes at every offset of a
    /// 64-byte step, and across steps.
    fn text() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::Just;
        use proptest::strategy::Strategy;
        let piece = proptest::prop_oneof![
            8 => proptest::collection::vec(b'a'..=b'z', 0..70),
            2 => Just(b"\\n".to_vec()),
            2 => Just(b"\\\"".to_vec()),
            2 => Just(b"\\\\".to_vec()),
            1 => Just(b"\\".to_vec()),
            1 => Just(b"\\u00e9".to_vec()),
            1 => Just(b"\\uD83D\\uDE00".to_vec()),
            1 => Just(b"\\u12".to_vec()),
            1 => Just(b"\\u0G00".to_vec()),
            1 => Just(b"\\x".to_vec()),
            1 => Just(b"\"".to_vec()),
            1 => Just(vec![0x01]),
            1 => Just(vec![0x1f]),
            1 => Just(vec![0xc3, 0xa9]),
            1 => Just(vec![0x7f, 0x20]),
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|ps| ps.concat())
    }

    proptest::proptest! {
        #[test]
        fn a_skipped_string_ends_and_fails_where_the_bytewise_loop_did(body in text(), tail in 0usize..3) {
            // A quote, the text, and sometimes a closing quote and more after it.
            let mut b = vec![b'"'];
            b.extend_from_slice(&body);
            b.extend_from_slice(&b"\" ,"[..tail]);
            let mut s = super::Scan::new(&b);
            let got = s.skip_string().map(|()| s.i);
            proptest::prop_assert_eq!(got, bytewise(&b, 1), "{}", String::from_utf8_lossy(&b));
        }

        #[test]
        fn skip_plain_stops_where_the_bytewise_loop_decides_the_same(body in text(), from in 0usize..400) {
            // From any byte of the text that is not an escape's second byte, as the loops call it.
            let mut b = body;
            b.push(b'"');
            let from = from.min(b.len() - 1);
            let escaped = b[..from].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1;
            proptest::prop_assume!(!escaped);
            let stop = super::skip_plain(&b, from);
            proptest::prop_assert!(stop >= from && stop <= b.len());
            proptest::prop_assert_eq!(bytewise(&b, stop), bytewise(&b, from));
        }
    }

    #[test]
    fn skip_plain_at_the_edges_of_a_step() {
        let plain = |n: usize| vec![b'a'; n];
        // An escaped quote whose backslash ends a step: the quote is text, the string goes on.
        // (Bytes after the closing quote put it in a whole step.)
        let mut b = plain(63);
        b.extend_from_slice(b"\\\"");
        b.extend_from_slice(&plain(100));
        b.push(b'"');
        b.extend_from_slice(&plain(64));
        assert_eq!(super::skip_plain(&b, 0), 165);
        // The same with no whole step after it: the loop is handed the text after the escape.
        let mut b = plain(63);
        b.extend_from_slice(b"\\\"");
        b.extend_from_slice(&plain(10));
        b.push(b'"');
        assert_eq!(super::skip_plain(&b, 0), 65);
        // `\u` with its hex digits across two steps, and an invalid one: handed its backslash.
        let mut b = plain(61);
        b.extend_from_slice(b"\\u00e9");
        b.extend_from_slice(&plain(100));
        b.push(b'"');
        assert_eq!(super::skip_plain(&b, 0), 128, "the start of the bytes that do not fill a step");
        b.extend_from_slice(&plain(64));
        assert_eq!(super::skip_plain(&b, 0), 167);
        let mut b = plain(61);
        b.extend_from_slice(b"\\u00g9");
        b.extend_from_slice(&plain(100));
        assert_eq!(super::skip_plain(&b, 0), 61);
        // A control character, an invalid escape, a backslash at the very end: each is the loop's.
        for (stop, at) in [(&b"\x01"[..], 70), (b"\\x", 5), (b"\\", 64)] {
            let mut b = plain(at);
            b.extend_from_slice(stop);
            if stop != b"\\" {
                b.extend_from_slice(&plain(100));
            }
            assert_eq!(super::skip_plain(&b, 0), at, "{:?} at {at}", String::from_utf8_lossy(stop));
        }
        // Fewer than 64 bytes: nothing to step over.
        assert_eq!(super::skip_plain(b"abc\\n\"", 0), 0);
    }

    #[test]
    fn brackets_remember_every_level_across_the_word_boundary() {
        // Objects at levels divisible by 3, arrays elsewhere, 300 deep: popped in reverse, each as pushed.
        let mut b = super::Brackets::default();
        for level in 0..300 {
            b.push(level % 3 == 0);
            assert_eq!(b.last(), Some(level % 3 == 0), "pushed level {level}");
        }
        for level in (50..300).rev() {
            assert_eq!(b.last(), Some(level % 3 == 0), "level {level}");
            b.pop();
        }
        // Reused levels take the new kind, whatever was there before.
        for level in 50..300 {
            b.push(level % 2 == 0);
        }
        for level in (0..300).rev() {
            let want = if level >= 50 { level % 2 == 0 } else { level % 3 == 0 };
            assert_eq!(b.last(), Some(want), "level {level}");
            b.pop();
        }
        assert_eq!(b.last(), None);
    }

    #[test]
    fn skip_plain_at_every_offset_and_byte() {
        // Each byte value at each position of a whole step, with a second step of plain text after it:
        // a flagged byte is the loop's (a backslash followed by plain text is an invalid escape), any
        // other is stepped over with the rest, up to the bytes that do not fill a step.
        for pos in 0..64 {
            for c in 0..=255u8 {
                let mut b = vec![b'a'; 130];
                b[pos] = c;
                let flagged = c == b'"' || c == b'\\' || c < 0x20;
                assert_eq!(super::skip_plain(&b, 0), if flagged { pos } else { 128 }, "byte {c:#x} at {pos}");
            }
        }
    }

    #[test]
    fn special_at_every_offset_and_byte() {
        // Each byte value at each position of a run of plain text: 12 bytes (the first word and a tail too
        // short for a block), 40 (the word and two whole blocks) and 43 (the word, two blocks and a tail
        // read as the last sixteen bytes, overlapping the second block). The flags must be exact. Then with
        // a quote closing the run: a byte wrongly flagged must not hide it.
        for len in [12, 40, 43] {
            for pos in 0..len {
                for c in 0..=255u8 {
                    let mut b = vec![b'a'; len];
                    b[pos] = c;
                    let flagged = c == b'"' || c == b'\\' || c < 0x20;
                    assert_eq!(special(&b), flagged.then_some(pos), "byte {c:#x} at {pos} of {len}");
                    b.push(b'"');
                    let want = Some(if flagged { pos } else { len });
                    assert_eq!(special(&b), want, "byte {c:#x} at {pos} of {len}, then a quote");
                }
            }
        }
    }
}

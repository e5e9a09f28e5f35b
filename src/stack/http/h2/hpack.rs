//! HPACK (RFC 7541) for one direction of an HTTP/2 connection: a decoder with its own dynamic table, fed
//! each complete header block in order. Decoding is done by the `loona-hpack` crate (README: Dependencies);
//! this file owns the passive-analyzer policy around it: the table size the peer may use, the header list
//! cap (an HPACK bomb decodes to far more than it costs on the wire), and what an error means.
//!
//! Must not: guess. RFC 7541 §2.2: the dynamic table is state shared by the two ends; a decoding error, or a
//! block never seen (a connection picked up midstream), leaves the table unknown, so every later block of
//! this direction is unreadable and the caller stops analysing the connection.

use std::borrow::Cow;

use loona_hpack::Decoder;

use crate::http::Headers;

/// RFC 7541 §4.1: the size of an entry is its name and value lengths plus 32. RFC 9113 §6.5.2 measures a
/// header list the same way.
pub const ENTRY_OVERHEAD: usize = 32;

/// RFC 9113 §6.5.2: SETTINGS_HEADER_TABLE_SIZE starts at 4096.
pub const DEFAULT_TABLE_SIZE: usize = 4096;

/// One decoded header block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Block {
    /// Pseudo-header fields (`:method`, `:path`, `:authority`, `:scheme`, `:status`) in wire order.
    pub pseudo: Vec<(String, String)>,
    /// Regular fields, names lower-cased (RFC 9113 §8.2.1 requires lower case on the wire already).
    pub headers: Headers,
    /// Fields dropped past the header list cap.
    pub dropped: usize,
    /// RFC 9113 §6.5.2 size of the whole list, including the dropped fields.
    pub list_size: usize,
}

impl Block {
    pub fn pseudo(&self, name: &str) -> Option<&str> {
        self.pseudo.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Why a block could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HpackError(pub String);

/// The decoder of one direction.
pub struct HpackDecoder {
    // ALLOC: the dynamic table, bounded by the table size the receiver allows, itself capped at
    // limits::max_h2_header_list_bytes.
    dec: Decoder<'static>,
    cap: usize,
}

impl std::fmt::Debug for HpackDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HpackDecoder").field("cap", &self.cap).finish()
    }
}

impl HpackDecoder {
    /// `cap`: the header list cap, also the largest dynamic table the encoder may ask for.
    pub fn new(cap: usize) -> HpackDecoder {
        let mut dec = Decoder::new();
        dec.set_max_allowed_table_size(DEFAULT_TABLE_SIZE.min(cap.max(1)));
        HpackDecoder { dec, cap }
    }

    /// The receiver announced SETTINGS_HEADER_TABLE_SIZE (RFC 9113 §6.5.2): the encoder may now resize its
    /// table up to it with a dynamic table size update (RFC 7541 §6.3), which must not exceed it. Values
    /// over the cap are clamped: an encoder that uses more makes the next block fail (reason: cap).
    pub fn allow_table_size(&mut self, size: u32) {
        let size = usize::try_from(size).unwrap_or(usize::MAX).min(self.cap);
        self.dec.set_max_allowed_table_size(size);
    }

    /// Decodes one complete header block. Fields beyond the header list cap are decoded (the table must stay
    /// in step) but not kept.
    pub fn decode(&mut self, block: &[u8]) -> Result<Block, HpackError> {
        let mut out = Block::default();
        let mut kept = 0usize;
        let cap = self.cap;
        let r = self.dec.decode_with_cb(block, |name: Cow<'_, [u8]>, value: Cow<'_, [u8]>| {
            let size = name.len().saturating_add(value.len()).saturating_add(ENTRY_OVERHEAD);
            out.list_size = out.list_size.saturating_add(size);
            if kept.saturating_add(size) > cap {
                out.dropped += 1;
                return;
            }
            kept += size;
            let name = crate::http::lossy(&name);
            let value = crate::http::lossy(&value);
            if name.starts_with(':') {
                // ALLOC: pseudo-header fields of one block, bounded by limits::max_h2_header_list_bytes
                out.pseudo.push((name.into_owned(), value.into_owned()));
            } else {
                // ALLOC: fields of one block, bounded by limits::max_h2_header_list_bytes
                out.headers.push_name(&name);
                out.headers.push_value(&value);
            }
        });
        match r {
            Ok(()) => Ok(out),
            Err(e) => Err(HpackError(format!("{e:?}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| c.is_ascii_hexdigit()).collect();
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// All fields of a block, pseudo first then regular, as the RFC lists them (pseudo fields come first
    /// in every Appendix C example).
    fn fields(b: &Block) -> Vec<(String, String)> {
        let mut v = b.pseudo.clone();
        v.extend(b.headers.iter().map(|(n, v)| (n.to_string(), v.to_string())));
        v
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    const REQ1: &[(&str, &str)] = &[(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com")];
    const REQ2: &[(&str, &str)] =
        &[(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com"), ("cache-control", "no-cache")];
    const REQ3: &[(&str, &str)] = &[
        (":method", "GET"),
        (":scheme", "https"),
        (":path", "/index.html"),
        (":authority", "www.example.com"),
        ("custom-key", "custom-value"),
    ];

    fn run(dec: &mut HpackDecoder, blocks: &[&str], want: &[&[(&str, &str)]]) {
        for (b, w) in blocks.iter().zip(want) {
            let got = dec.decode(&hex(b)).unwrap();
            assert_eq!(fields(&got), pairs(w));
        }
    }

    #[test]
    fn rfc7541_c2_literal_representations() {
        // C.2.1 literal with indexing, C.2.2 without indexing, C.2.3 never indexed, C.2.4 indexed.
        let mut d = HpackDecoder::new(1 << 16);
        let b = d.decode(&hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572")).unwrap();
        assert_eq!(fields(&b), pairs(&[("custom-key", "custom-header")]));
        assert_eq!(b.list_size, 55);
        let b = d.decode(&hex("040c 2f73 616d 706c 652f 7061 7468")).unwrap();
        assert_eq!(fields(&b), pairs(&[(":path", "/sample/path")]));
        let b = d.decode(&hex("1008 7061 7373 776f 7264 0673 6563 7265 74")).unwrap();
        assert_eq!(fields(&b), pairs(&[("password", "secret")]));
        let b = d.decode(&hex("82")).unwrap();
        assert_eq!(fields(&b), pairs(&[(":method", "GET")]));
        // The C.2.1 entry is in the dynamic table at index 62.
        assert_eq!(fields(&d.decode(&hex("be")).unwrap()), pairs(&[("custom-key", "custom-header")]));
    }

    #[test]
    fn rfc7541_c3_requests_without_huffman() {
        let mut d = HpackDecoder::new(1 << 16);
        run(
            &mut d,
            &[
                "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
                "8286 84be 5808 6e6f 2d63 6163 6865",
                "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
            ],
            &[REQ1, REQ2, REQ3],
        );
    }

    #[test]
    fn rfc7541_c4_requests_with_huffman() {
        let mut d = HpackDecoder::new(1 << 16);
        run(
            &mut d,
            &[
                "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
                "8286 84be 5886 a8eb 1064 9cbf",
                "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
            ],
            &[REQ1, REQ2, REQ3],
        );
    }

    const RESP1: &[(&str, &str)] =
        &[(":status", "302"), ("cache-control", "private"), ("date", "Mon, 21 Oct 2013 20:13:21 GMT"), ("location", "https://www.example.com")];
    const RESP2: &[(&str, &str)] =
        &[(":status", "307"), ("cache-control", "private"), ("date", "Mon, 21 Oct 2013 20:13:21 GMT"), ("location", "https://www.example.com")];
    const RESP3: &[(&str, &str)] = &[
        (":status", "200"),
        ("cache-control", "private"),
        ("date", "Mon, 21 Oct 2013 20:13:22 GMT"),
        ("location", "https://www.example.com"),
        ("content-encoding", "gzip"),
        ("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"),
    ];

    /// C.5 and C.6 run with SETTINGS_HEADER_TABLE_SIZE 256, so entries are evicted.
    fn small_table() -> HpackDecoder {
        let mut d = HpackDecoder::new(1 << 16);
        d.allow_table_size(256);
        d.dec.set_max_table_size(256);
        d
    }

    #[test]
    fn rfc7541_c5_responses_without_huffman_evict() {
        let mut d = small_table();
        run(
            &mut d,
            &[
                "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
                "4803 3330 37c1 c0bf",
                "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
            ],
            &[RESP1, RESP2, RESP3],
        );
    }

    #[test]
    fn rfc7541_c6_responses_with_huffman_evict() {
        let mut d = small_table();
        run(
            &mut d,
            &[
                "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
                "4883 640e ffc1 c0bf",
                "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07",
            ],
            &[RESP1, RESP2, RESP3],
        );
    }

    #[test]
    fn header_list_cap_cuts_fields_but_keeps_the_table_in_step() {
        // Cap 60: the C.2.1 field (55) fits, a second one does not.
        let mut d = HpackDecoder::new(60);
        let lit = "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572";
        let b = d.decode(&hex(&format!("{lit} be be"))).unwrap();
        assert_eq!(b.headers.len(), 1);
        assert_eq!(b.dropped, 2);
        assert_eq!(b.list_size, 165);
        // The table still holds the literal: the next block indexes it.
        assert_eq!(d.decode(&hex("be")).unwrap().headers.len(), 1);
    }

    #[test]
    fn size_update_over_the_allowed_size_is_an_error() {
        let mut d = HpackDecoder::new(1 << 16);
        // 0x3fe11f: dynamic table size update to 4096 (allowed), then 0x3fe13f... 8192 is not.
        assert!(d.decode(&hex("3fe1 1f 82")).is_ok());
        assert!(d.decode(&hex("3fe1 3f 82")).is_err());
        d.allow_table_size(8192);
        assert!(d.decode(&hex("3fe1 3f 82")).is_ok());
    }

    #[test]
    fn bad_index_and_truncated_input_are_errors_not_panics() {
        let mut d = HpackDecoder::new(1 << 16);
        assert!(d.decode(&hex("ff ff ff ff 0f")).is_err());
        assert!(d.decode(&hex("80")).is_err());
        assert!(d.decode(&hex("41 7f")).is_err());
        assert!(d.decode(&hex("40 85 ff ff ff ff ff 00")).is_err());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_blocks_never_panic(blocks in proptest::collection::vec(proptest::collection::vec(0u8..=255, 0..64), 0..8)) {
            let mut d = HpackDecoder::new(1024);
            for b in &blocks {
                let _ = d.decode(b);
            }
        }
    }
}

//! TLS record framing of one direction (RFC 8446 §5.1, RFC 5246 §6.2): cuts the reassembled TCP byte stream
//! into records, whether a record is split over segments or several share one. It owns only the carry
//! buffer of an incomplete record; it never decrypts. Complete records in the input are handed out
//! borrowed; only an incomplete tail is copied.

/// RFC 8446 §5.2: "The length MUST NOT exceed 2^14 + 256 bytes"; RFC 5246 §6.2.3 allows 2^14 + 2048 for
/// TLS 1.2 ciphertext. The larger bound is used, so both versions frame.
pub const MAX_FRAGMENT: usize = (1 << 14) + 2048;

/// One record: its 5-byte header (type, legacy version, length) and fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    pub header: [u8; 5],
    pub fragment: &'a [u8],
}

impl Record<'_> {
    pub fn content_type(&self) -> u8 {
        self.header[0]
    }
}

/// The framer's verdict on the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// All records so far were well-formed.
    Ok,
    /// A header that cannot start a TLS record (unknown type, length over the maximum): the stream is not
    /// (or no longer) TLS and framing stops.
    Invalid,
}

/// Record framing state of one direction.
#[derive(Debug, Default)]
pub struct RecordFramer {
    /// An incomplete record (header and the fragment bytes so far), at most 5 + `MAX_FRAGMENT` bytes.
    carry: Vec<u8>,
}

impl RecordFramer {
    /// Bytes held waiting for the rest of a record.
    pub fn pending(&self) -> usize {
        self.carry.len()
    }

    /// Feeds in-order stream bytes; calls `out` for each complete record.
    pub fn feed<F: FnMut(Record<'_>)>(&mut self, mut bytes: &[u8], out: &mut F) -> Framing {
        // Complete the carried record first.
        if !self.carry.is_empty() {
            let want = match record_len(&self.carry) {
                Some(Ok(n)) => n,
                Some(Err(())) => return Framing::Invalid,
                None => {
                    let take = (5 - self.carry.len()).min(bytes.len());
                    let (head, rest) = bytes.split_at(take);
                    // ALLOC: record header carry, bounded by 5 bytes
                    self.carry.extend_from_slice(head);
                    bytes = rest;
                    match record_len(&self.carry) {
                        Some(Ok(n)) => n,
                        Some(Err(())) => return Framing::Invalid,
                        None => return Framing::Ok,
                    }
                }
            };
            let take = want.saturating_sub(self.carry.len()).min(bytes.len());
            let (head, rest) = bytes.split_at(take);
            // ALLOC: one incomplete record, bounded by MAX_FRAGMENT
            self.carry.extend_from_slice(head);
            bytes = rest;
            if self.carry.len() < want {
                return Framing::Ok;
            }
            let carry = std::mem::take(&mut self.carry);
            if let Some(r) = split(&carry) {
                out(r);
            }
        }
        // Whole records straight from the input.
        loop {
            match record_len(bytes) {
                Some(Ok(n)) if n <= bytes.len() => {
                    let (rec, rest) = bytes.split_at(n);
                    if let Some(r) = split(rec) {
                        out(r);
                    }
                    bytes = rest;
                }
                Some(Err(())) => return Framing::Invalid,
                _ => {
                    // ALLOC: one incomplete record, bounded by MAX_FRAGMENT
                    self.carry.extend_from_slice(bytes);
                    return Framing::Ok;
                }
            }
        }
    }
}

/// Total length (header + fragment) of the record at the start of `b`: `None` if fewer than 5 bytes,
/// `Err` if the header cannot be a record's.
fn record_len(b: &[u8]) -> Option<Result<usize, ()>> {
    let h = b.first_chunk::<5>()?;
    // RFC 8446 §5.1 ContentType: change_cipher_spec(20), alert(21), handshake(22), application_data(23);
    // heartbeat(24, RFC 6520) is tolerated. Legacy version major is 3 in every TLS version.
    if !(20..=24).contains(&h[0]) || h[1] != 3 {
        return Some(Err(()));
    }
    let len = usize::from(u16::from_be_bytes([h[3], h[4]]));
    if len > MAX_FRAGMENT {
        return Some(Err(()));
    }
    Some(Ok(5 + len))
}

fn split(rec: &[u8]) -> Option<Record<'_>> {
    let (h, fragment) = rec.split_first_chunk::<5>()?;
    Some(Record { header: *h, fragment })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn records() -> Vec<u8> {
        let mut v = vec![22, 3, 1, 0, 3, 1, 2, 3];
        v.extend_from_slice(&[20, 3, 3, 0, 1, 1]);
        v.extend_from_slice(&[23, 3, 3, 0, 0]);
        v.extend_from_slice(&[23, 3, 3, 0, 4, 9, 8, 7, 6]);
        v
    }

    fn frame_all(chunks: &[&[u8]]) -> (Vec<(u8, Vec<u8>)>, Framing) {
        let mut f = RecordFramer::default();
        let mut got = Vec::new();
        let mut last = Framing::Ok;
        for c in chunks {
            last = f.feed(c, &mut |r| got.push((r.content_type(), r.fragment.to_vec())));
        }
        (got, last)
    }

    #[test]
    fn framer_gives_the_same_records_for_every_split() {
        let all = records();
        let (want, _) = frame_all(&[&all]);
        assert_eq!(want.len(), 4);
        assert_eq!(want[3], (23, vec![9, 8, 7, 6]));
        for i in 0..=all.len() {
            for j in i..=all.len() {
                let (got, v) = frame_all(&[&all[..i], &all[i..j], &all[j..]]);
                assert_eq!(got, want, "split at {i},{j}");
                assert_eq!(v, Framing::Ok);
            }
        }
    }

    #[test]
    fn framer_rejects_non_tls_and_oversize() {
        assert_eq!(frame_all(&[b"GET / HTTP/1.1\r\n"]).1, Framing::Invalid);
        assert_eq!(frame_all(&[&[23, 3, 3, 0xff, 0xff]]).1, Framing::Invalid);
        // Split header: the verdict comes when the header completes.
        assert_eq!(frame_all(&[&[23, 3], &[3, 0xff, 0xff]]).1, Framing::Invalid);
    }
}

//! The TCP checksum (RFC 9293 §3.1: the 16-bit ones' complement of the ones' complement sum of the
//! pseudo-header, the TCP header and the data), computed as RFC 1071 describes.
//!
//! Decode sums what it has at hand anyway, the pseudo-header and the TCP header, into `Check::Header`;
//! the payload is added only where reassembly asks (`Check::verify`), because a direction whose
//! checksums cannot be trusted (offload, loopback) never needs it, and the payload is the costly part.

/// How TCP checksums are treated (`--checksums`), by decode (whether it sums them) and by reassembly
/// (whether it judges them, `reassembly::trust`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChecksumPolicy {
    /// Each direction that showed right sums first has its wrong ones set aside for their receiver to
    /// judge.
    #[default]
    Auto,
    /// Sums are never taken nor looked at: every segment's check is [`Check::Unknown`] and its bytes are
    /// taken (Zeek's `-C`, Wireshark's default). The header's sum alone is about 4 % of a run's
    /// instructions.
    Off,
}

/// What a segment's TCP checksum can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Check {
    /// Nothing: the snap length cut payload bytes, so the sum cannot be taken, or none was taken
    /// (`--checksums off`).
    #[default]
    Unknown,
    /// The field holds the pseudo-header's sum and nothing more: what a stack that leaves the checksum
    /// to the NIC writes there (Linux `CHECKSUM_PARTIAL`: checksum offload on the capturing host,
    /// loopback, and GRO's merged segments). The capture saw the packet before anyone finished the sum:
    /// no sign of damage.
    Offloaded,
    /// The sum of the pseudo-header and the TCP header, checksum field included, folded to 16 bits: the
    /// segment is intact when adding its payload gives 0xFFFF (RFC 1071 §1, "checking the checksum").
    Header(u16),
}

impl Check {
    /// `Some(true)` if the segment's checksum is right for `payload`, `Some(false)` if it is wrong and not
    /// an offload's, `None` if the checksum says nothing (`Unknown`, `Offloaded`).
    pub fn verify(self, payload: &[u8]) -> Option<bool> {
        match self {
            Check::Header(h) => Some(fold(u64::from(h).saturating_add(u64::from(sum(payload)))) == 0xFFFF),
            Check::Unknown | Check::Offloaded => None,
        }
    }

    /// The checksum evidence of a TCP segment of `tcp_len` bytes (header and payload, all present) between
    /// `src` and `dst` (4 or 16 octets each), whose header is `header` with `field` in its checksum.
    pub(crate) fn of(src: &[u8], dst: &[u8], tcp_len: usize, header: &[u8], field: u16) -> Check {
        // RFC 9293 §3.1 (IPv4: zero, protocol, TCP length in 16 bits) and RFC 8200 §8.1 (IPv6: the length
        // in 32 bits, three zero octets, next header): as words, the same sum either way.
        let len = u64::try_from(tcp_len).unwrap_or(0);
        let pseudo = fold(quads(quads(0, src), dst) + 6 + (len & 0xFFFF) + (len >> 16));
        if field == pseudo {
            return Check::Offloaded;
        }
        Check::Header(fold(quads(u64::from(pseudo), header)))
    }
}

#[cfg(test)]
impl Check {
    /// A checksum that verifies for `payload` (`right`) or for no payload that differs from it by one bit
    /// and not for `payload` itself (`!right`): for tests of what reads `Check`.
    pub(crate) fn for_payload(payload: &[u8], right: bool) -> Check {
        let h = !sum(payload);
        Check::Header(if right { h } else { h ^ 1 })
    }
}

/// Adds `bytes` to `acc` as big-endian 16-bit words, an odd last byte padded with a zero (RFC 1071 §2).
fn add_be(acc: u64, bytes: &[u8]) -> u64 {
    let mut words = bytes.chunks_exact(2);
    let mut acc = acc;
    for w in &mut words {
        acc = acc.saturating_add(u64::from(u16::from_be_bytes(w.try_into().unwrap_or([0; 2]))));
    }
    if let Some(&last) = words.remainder().first() {
        acc = acc.saturating_add(u64::from(last) << 8);
    }
    acc
}

/// Adds `bytes` to `acc` as big-endian 32-bit words (the rest as 16-bit ones): for the few bytes of
/// addresses and headers, whose lengths are multiples of 4, where a plain loop beats `sum`'s set-up.
fn quads(acc: u64, bytes: &[u8]) -> u64 {
    let mut q = bytes.chunks_exact(4);
    let mut acc = acc;
    for w in &mut q {
        acc += u64::from(u32::from_be_bytes(w.try_into().unwrap_or([0; 4])));
    }
    add_be(acc, q.remainder())
}

/// Folds the carries back in (RFC 1071 §2 (C), "end-around carry"), in four steps: 64 bits to 33, 18, 17
/// and 16.
fn fold(acc: u64) -> u16 {
    let a = (acc >> 32) + (acc & 0xFFFF_FFFF);
    let a = (a >> 16) + (a & 0xFFFF);
    let a = (a >> 16) + (a & 0xFFFF);
    let a = (a >> 16) + (a & 0xFFFF);
    u16::try_from(a).unwrap_or(0xFFFF)
}

/// Payload bytes summed into one set of lanes before they are folded: each 32-bit lane takes one 16-bit
/// word per 16 bytes, so 4,096 steps add at most 4,096 x 0xFFFF, far from overflow, whatever the segment
/// size (GRO and BIG TCP super-packets exceed 64 KiB).
const BLOCK: usize = 16 * 4096;

/// The folded sum of a payload as big-endian words. The bulk is added as native-endian 16-bit words into
/// eight 32-bit lanes, 16 bytes a step (a loop the compiler turns into two SSE2 widenings and two adds,
/// where 32-bit words into 64 bits took two 8-byte loads more a step), then into 64 bits (RFC 1071 §2 (B):
/// the sum is the same in either byte order, swapped); the last one to fifteen bytes are added as words.
fn sum(payload: &[u8]) -> u16 {
    let mut acc: u64 = 0;
    let mut rest: &[u8] = &[];
    for block in payload.chunks(BLOCK) {
        let mut lanes = [0u32; 8];
        let mut steps = block.chunks_exact(16);
        for step in &mut steps {
            for (lane, word) in lanes.iter_mut().zip(step.chunks_exact(2)) {
                *lane += u32::from(u16::from_ne_bytes(word.try_into().unwrap_or([0; 2])));
            }
        }
        acc += lanes.iter().map(|&l| u64::from(l)).sum::<u64>();
        // Only the last block is not a whole number of steps.
        rest = steps.remainder();
    }
    let native = fold(acc);
    let be = if cfg!(target_endian = "little") { native.swap_bytes() } else { native };
    fold(add_be(u64::from(be), rest))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;
    use proptest::prelude::*;

    /// RFC 1071 §3's worked example: the bytes 00 01 f2 03 f4 f5 f6 f7 sum to ddf2.
    #[test]
    fn rfc1071_example() {
        let bytes = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
        assert_eq!(fold(add_be(0, &bytes)), 0xddf2);
        assert_eq!(sum(&bytes), 0xddf2);
    }

    /// A segment from a real capture (`samples/ecosystem/netem-corrupt-client.pcap`, frame 1: the SYN,
    /// 10.79.1.1:52238 -> 10.79.2.2:20795, checksum 0x17d5, which Wireshark verifies).
    #[test]
    fn a_real_syn_verifies_and_one_flipped_bit_does_not() {
        let header: [u8; 40] = [
            0xcc, 0x0e, 0x51, 0x3b, 0xf0, 0xf1, 0x10, 0xd7, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x02, 0xfa, 0xf0,
            0x17, 0xd5, 0x00, 0x00, 0x02, 0x04, 0x05, 0xb4, 0x04, 0x02, 0x08, 0x0a, 0xb3, 0x36, 0x4b, 0x4d,
            0x00, 0x00, 0x00, 0x00, 0x01, 0x03, 0x03, 0x0a,
        ];
        let (src, dst) = ([10, 79, 1, 1], [10, 79, 2, 2]);
        let check = Check::of(&src, &dst, 40, &header, 0x17d5);
        assert_eq!(check.verify(b""), Some(true));
        let mut bad = header;
        bad[5] ^= 0x10;
        assert_eq!(Check::of(&src, &dst, 40, &bad, 0x17d5).verify(b""), Some(false));
    }

    #[test]
    fn the_pseudo_header_sum_in_the_field_is_an_offload() {
        let (src, dst) = ([127, 0, 0, 1], [127, 0, 0, 1]);
        let pseudo = fold(add_be(add_be(0, &src), &dst) + 6 + 25);
        let mut header = [0u8; 20];
        header[16..18].copy_from_slice(&pseudo.to_be_bytes());
        assert_eq!(Check::of(&src, &dst, 25, &header, pseudo), Check::Offloaded);
        assert_eq!(Check::Offloaded.verify(b"hello"), None);
        assert_eq!(Check::Unknown.verify(b"hello"), None);
    }

    #[test]
    fn super_packets_past_one_block_sum_as_the_plain_loop() {
        // All-ones words fill the lanes fastest; odd lengths and a partial last step around each
        // block boundary, a BIG TCP super-packet, and more than the 1 MiB after which one set of lanes
        // would overflow.
        for len in [BLOCK - 1, BLOCK, BLOCK + 1, BLOCK + 17, 3 * BLOCK + 7, 512 << 10, (2 << 20) + 7] {
            for fill in [0xFFu8, 0x80] {
                let bytes = vec![fill; len];
                assert_eq!(sum(&bytes), fold(add_be(0, &bytes)), "{len} bytes of {fill:#x}");
            }
        }
    }

    proptest! {
        /// The four-step fold is the end-around carry repeated until nothing is left to carry.
        #[test]
        fn fold_is_the_repeated_end_around_carry(x in any::<u64>()) {
            let mut slow = x;
            while slow > 0xFFFF {
                slow = (slow & 0xFFFF) + (slow >> 16);
            }
            prop_assert_eq!(u64::from(fold(x)), slow);
        }

        /// The vectorised payload sum and the header sum equal the plain word-by-word one, for every
        /// length and alignment.
        #[test]
        fn fast_sums_are_the_plain_sum(bytes in proptest::collection::vec(any::<u8>(), 0..3000), skip in 0usize..4) {
            let b = &bytes[skip.min(bytes.len())..];
            prop_assert_eq!(sum(b), fold(add_be(0, b)));
            prop_assert_eq!(fold(quads(7, b)), fold(add_be(7, b)));
        }

        /// A checksum computed over a random segment verifies, and any single flipped payload bit is caught.
        #[test]
        fn computed_checksums_verify(payload in proptest::collection::vec(any::<u8>(), 1..1500), flip in any::<prop::sample::Index>(), bit in 0u8..8) {
            let (src, dst) = ([192u8, 0, 2, 1], [192u8, 0, 2, 2]);
            let mut header = [0u8; 20];
            header[12] = 0x50;
            let len = 20 + payload.len();
            let partial = fold(add_be(add_be(add_be(0, &src), &dst) + 6 + len as u64, &header) + u64::from(sum(&payload)));
            let field = !partial;
            header[16..18].copy_from_slice(&field.to_be_bytes());
            let check = Check::of(&src, &dst, len, &header, field);
            prop_assume!(check != Check::Offloaded);
            prop_assert_eq!(check.verify(&payload), Some(true));
            let mut damaged = payload.clone();
            let i = flip.index(damaged.len());
            damaged[i] ^= 1 << bit;
            prop_assert_eq!(check.verify(&damaged), Some(false));
        }
    }
}

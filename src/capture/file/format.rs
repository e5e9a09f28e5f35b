//! The two file formats' constants and fixed headers: magic numbers, pcapng block types, byte order,
//! timestamp resolution, interfaces, and the first bytes' verdict on what a file is (draft-ietf-opsawg-pcap,
//! draft-ietf-opsawg-pcapng).

use super::error::Corruption;
use super::packed::{self, Packing};
use super::MAX_RECORD_LEN;
use crate::capture::LinkType;
use crate::time::Timestamp;

// Magic numbers (as the first four bytes of the file)

/// draft-ietf-opsawg-pcap §4: magic 0xA1B2C3D4 (microseconds) or 0xA1B23C4D (nanoseconds), written in the
/// writer's byte order. 0xA1B2CD34 is Alexey Kuznetsov's "modified" pcap (24-byte record headers).
const PCAP_MAGICS: [[u8; 4]; 5] = [
    [0xd4, 0xc3, 0xb2, 0xa1], // little-endian, microseconds
    [0xa1, 0xb2, 0xc3, 0xd4], // big-endian, microseconds
    [0x4d, 0x3c, 0xb2, 0xa1], // little-endian, nanoseconds
    [0xa1, 0xb2, 0x3c, 0x4d], // big-endian, nanoseconds
    [0x34, 0xcd, 0xb2, 0xa1], // little-endian, modified
];
/// Big-endian modified pcap: pcap-parser does not read it.
const PCAP_MODIFIED_BE: [u8; 4] = [0xa1, 0xb2, 0xcd, 0x34];
/// draft-ietf-opsawg-pcapng §4.1: the SHB block type 0x0A0D0D0A is a palindrome, so it reads the same in
/// both byte orders.
pub(super) const SHB_TYPE_BYTES: [u8; 4] = [0x0a, 0x0d, 0x0d, 0x0a];
/// draft-ietf-opsawg-pcapng §4.1: Byte-Order Magic 0x1A2B3C4D, written in the section's byte order.
pub(super) const BOM: u32 = 0x1a2b_3c4d;

pub(super) const PCAP_HEADER_LEN: usize = 24;
pub(super) const PCAP_RECORD_HEADER_LEN: usize = 16;
/// Modified pcap records carry ifindex (4), protocol (2), pkt_type (1) and padding (1) after the usual 16.
pub(super) const PCAP_MODIFIED_RECORD_HEADER_LEN: usize = 24;

// pcapng block types (draft-ietf-opsawg-pcapng §10.1) and minimum lengths.
pub(super) const SHB: u32 = 0x0a0d_0d0a;
pub(super) const IDB: u32 = 0x0000_0001;
/// Obsolete Packet Block (draft-ietf-opsawg-pcapng Appendix A), still written by old tools.
pub(super) const OPB: u32 = 0x0000_0002;
pub(super) const SPB: u32 = 0x0000_0003;
pub(super) const EPB: u32 = 0x0000_0006;
/// Decryption Secrets Block (draft-ietf-opsawg-pcapng §4.7) and its TLS key-log secrets type "TLSK".
pub(super) const DSB: u32 = 0x0000_000a;
pub(super) const DSB_TLS_KEYLOG: u32 = 0x544c_534b;
pub(super) const SHB_MIN_LEN: u32 = 28;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Pcap,
    PcapNg,
}

// ---------------------------------------------------------------------------------------------------
// Byte access on fixed-size header arrays. `at + N <= M` at every call site (constants), so the `get`
// always succeeds and compiles to a plain load.

pub(super) fn rd16<const M: usize>(h: &[u8; M], at: usize, be: bool) -> u16 {
    match h
        .get(at..at.saturating_add(2))
        .and_then(|s| <[u8; 2]>::try_from(s).ok())
    {
        Some(b) if be => u16::from_be_bytes(b),
        Some(b) => u16::from_le_bytes(b),
        None => 0,
    }
}

pub(super) fn rd32<const M: usize>(h: &[u8; M], at: usize, be: bool) -> u32 {
    match h
        .get(at..at.saturating_add(4))
        .and_then(|s| <[u8; 4]>::try_from(s).ok())
    {
        Some(b) if be => u32::from_be_bytes(b),
        Some(b) => u32::from_le_bytes(b),
        None => 0,
    }
}

/// u32 to usize; saturates on (hypothetical) 16-bit targets.
pub(super) fn us(x: u32) -> usize {
    usize::try_from(x).unwrap_or(usize::MAX)
}

pub(super) fn block_name(block_type: u32) -> &'static str {
    match block_type {
        SHB => "section header",
        IDB => "interface description",
        OPB => "obsolete packet",
        SPB => "simple packet",
        EPB => "enhanced packet",
        _ => "unknown",
    }
}

// ---------------------------------------------------------------------------------------------------
// pcapng timestamps

/// draft-ietf-opsawg-pcapng §4.2 if_tsresol: "If the Most Significant Bit is equal to zero, the remaining
/// bits indicates the resolution of the timestamp as a negative power of 10 (e.g. 6 means microsecond
/// resolution [...]). If the Most Significant Bit is equal to one, the remaining bits indicates the
/// resolution as negative power of 2". Default 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TsScale {
    /// 10^-n s with n <= 9: nanoseconds = fraction * `mul`.
    Decimal { units: u64, mul: u32 },
    /// 10^-n s with 10 <= n <= 19: nanoseconds = fraction / `div`.
    FineDecimal { units: u64, div: u64 },
    /// 2^-n s with n <= 63.
    Binary { shift: u32 },
}

impl TsScale {
    pub(super) fn from_tsresol(v: u8) -> Option<TsScale> {
        let n = u32::from(v & 0x7f);
        if v & 0x80 == 0 {
            let units = 10u64.checked_pow(n)?;
            if n <= 9 {
                Some(TsScale::Decimal {
                    units,
                    mul: 10u32.checked_pow(9 - n)?,
                })
            } else {
                Some(TsScale::FineDecimal {
                    units,
                    div: 10u64.checked_pow(n - 9)?,
                })
            }
        } else if n <= 63 {
            Some(TsScale::Binary { shift: n })
        } else {
            None
        }
    }

    /// Seconds and nanoseconds of a raw 64-bit timestamp.
    fn split(self, raw: u64) -> (u64, u32) {
        match self {
            TsScale::Decimal { units, mul } => {
                let frac = u32::try_from(raw % units).unwrap_or(0);
                (raw / units, frac.saturating_mul(mul))
            }
            TsScale::FineDecimal { units, div } => {
                (raw / units, u32::try_from((raw % units) / div).unwrap_or(0))
            }
            TsScale::Binary { shift } => {
                let mask = (1u64 << shift) - 1; // shift <= 63
                let nanos = (u128::from(raw & mask) * 1_000_000_000) >> shift;
                (raw >> shift, u32::try_from(nanos).unwrap_or(0))
            }
        }
    }
}

/// What a pcapng packet needs from its Interface Description Block.
#[derive(Debug, Clone, Copy)]
pub(super) struct Interface {
    pub(super) linktype: LinkType,
    pub(super) snaplen: u32,
    pub(super) scale: TsScale,
    /// if_tsoffset: seconds added to every timestamp of the interface.
    pub(super) offset_secs: i64,
}

impl Interface {
    pub(super) fn timestamp(&self, hi: u32, lo: u32) -> Timestamp {
        let raw = (u64::from(hi) << 32) | u64::from(lo);
        let (secs, nanos) = self.scale.split(raw);
        let secs = i64::try_from(secs)
            .unwrap_or(i64::MAX)
            .saturating_add(self.offset_secs);
        Timestamp::from_secs_nanos(secs, nanos)
    }
}


/// The byte order of a section from its SHB's byte-order magic (bytes 8..12).
pub(super) fn section_byte_order(h: &[u8; 12]) -> Result<bool, Corruption> {
    match rd32(h, 8, true) {
        BOM => Ok(true),
        x if x.swap_bytes() == BOM => Ok(false),
        bom => Err(Corruption::BadByteOrderMagic { bom }),
    }
}

/// Sanity of a block's total length before anything is buffered for it.
pub(super) fn check_block_len(block_type: u32, len: u32) -> Result<(), Corruption> {
    let min = match block_type {
        SHB => SHB_MIN_LEN,
        IDB => 20,
        EPB | OPB => 32,
        SPB => 16,
        _ => 12,
    };
    if len < min {
        return Err(Corruption::BlockTooShort {
            block: block_name(block_type),
            len,
            min,
        });
    }
    if !len.is_multiple_of(4) {
        return Err(Corruption::BlockLenUnaligned { len });
    }
    if us(len) > MAX_RECORD_LEN {
        return Err(Corruption::BlockTooLarge {
            len,
            max: MAX_RECORD_LEN,
        });
    }
    Ok(())
}

pub(super) enum Sniff {
    Empty,
    /// Fewer than 4 bytes, all a prefix of this format's magic.
    Short(Format),
    Known(Format),
    /// A capture compressed whole, to be read decompressed (`packed`).
    Packed(Packing),
    Unsupported(&'static str),
    Unknown,
}

pub(super) fn sniff(first: &[u8]) -> Sniff {
    if first.is_empty() {
        return Sniff::Empty;
    }
    if let Some(compressed) = packed::sniff(first) {
        return compressed;
    }
    if let Some(magic) = first.first_chunk::<4>() {
        if PCAP_MAGICS.contains(magic) {
            return Sniff::Known(Format::Pcap);
        }
        if *magic == SHB_TYPE_BYTES {
            return Sniff::Known(Format::PcapNg);
        }
        if *magic == PCAP_MODIFIED_BE {
            return Sniff::Unsupported("big-endian modified pcap");
        }
        return Sniff::Unknown;
    }
    if PCAP_MAGICS.iter().any(|m| m.starts_with(first)) {
        Sniff::Short(Format::Pcap)
    } else if SHB_TYPE_BYTES.starts_with(first) {
        Sniff::Short(Format::PcapNg)
    } else {
        Sniff::Unknown
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn tsresol_scales() {
        assert_eq!(
            TsScale::from_tsresol(6),
            Some(TsScale::Decimal {
                units: 1_000_000,
                mul: 1_000
            })
        );
        assert_eq!(
            TsScale::from_tsresol(9).unwrap().split(1_500_000_000),
            (1, 500_000_000)
        );
        assert_eq!(
            TsScale::from_tsresol(19).unwrap().split(u64::MAX),
            (1, 844_674_407)
        );
        assert_eq!(
            TsScale::from_tsresol(0x80 | 63).unwrap().split(u64::MAX),
            (1, 999_999_999)
        );
        assert_eq!(TsScale::from_tsresol(20), None);
        assert_eq!(TsScale::from_tsresol(0x80 | 64), None);
    }
}

//! Compressed capture files, read as Wireshark reads them: a pcap or pcapng file compressed whole with gzip
//! (RFC 1952; `tcpdump -z gzip` after each rotation, `gzip -k`, several members one after the other as `pigz`
//! or `cat a.gz b.gz` leave them) or zstd (RFC 8878), recognised by its magic number like the formats
//! themselves, never by the file name, and decompressed as it is read. The frames are numbered as in the
//! decompressed file, which is how Wireshark numbers them when it opens the compressed one.
//!
//! Compressors mcptap has no decoder for are named in the error with the command that decompresses them, so
//! that the capture can be piped in (`-r -`).

use std::io::{self, Read};

use super::format::Sniff;

/// A compression mcptap decompresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Packing {
    Gzip,
    Zstd,
}

/// zstd frames may ask for a window of up to 2 GiB (`zstd --long=31`); the decoder refuses more than this
/// instead of allocating it. 2^27 (128 MiB) is libzstd's own default limit, and `zstd --ultra -22` stays
/// within it.
const ZSTD_WINDOW_LOG_MAX: u32 = 27;

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Compressions recognised but not decoded, with how to decompress them (the message's advice).
const FOREIGN: [(&[u8], &str); 4] = [
    (&[0xfd, 0x37, 0x7a, 0x58], "xz-compressed: decompress it first, e.g. xz -dc FILE | mcptap -r -"),
    (b"BZh", "bzip2-compressed: decompress it first, e.g. bzip2 -dc FILE | mcptap -r -"),
    (&[0x04, 0x22, 0x4d, 0x18], "lz4-compressed: decompress it first, e.g. lz4 -dc FILE | mcptap -r -"),
    (&[0x50, 0x4b, 0x03, 0x04], "a zip archive: extract the capture first, e.g. unzip -p FILE | mcptap -r -"),
];

/// What the first four bytes (or all of a shorter input) say if they open a compressed file: the part of
/// `format::sniff` that knows compressors.
pub(super) fn sniff(first: &[u8]) -> Option<Sniff> {
    if first.starts_with(&GZIP_MAGIC) {
        Some(Sniff::Packed(Packing::Gzip))
    } else if first.starts_with(&ZSTD_MAGIC) {
        Some(Sniff::Packed(Packing::Zstd))
    } else {
        FOREIGN.iter().find(|(magic, _)| first.starts_with(magic)).map(|&(_, advice)| Sniff::Unsupported(advice))
    }
}

impl Packing {
    pub(super) fn name(self) -> &'static str {
        match self {
            Packing::Gzip => "gzip",
            Packing::Zstd => "zstd",
        }
    }

    /// The decompressed bytes of `raw`, which starts at the magic number. Decoding errors (a corrupt or cut
    /// stream) come out of `read` as `io::Error`s, which the reader reports with the input's name.
    pub(super) fn decoder(self, raw: Box<dyn Read + Send>) -> io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            // Every member, not just the first: rotated or parallel-compressed files hold several.
            Packing::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
            Packing::Zstd => {
                let mut d = zstd::stream::read::Decoder::new(raw)?;
                d.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
                Box::new(d)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn magic_numbers_decide_and_short_inputs_are_plain() {
        assert!(matches!(sniff(&[0x1f, 0x8b, 8, 0]), Some(Sniff::Packed(Packing::Gzip))));
        assert!(matches!(sniff(&[0x28, 0xb5, 0x2f, 0xfd]), Some(Sniff::Packed(Packing::Zstd))));
        assert!(sniff(&[0x1f]).is_none());
        assert!(sniff(&[0x28, 0xb5, 0x2f]).is_none());
        assert!(sniff(&[0xd4, 0xc3, 0xb2, 0xa1]).is_none());
        for (magic, advice) in FOREIGN {
            let Some(Sniff::Unsupported(said)) = sniff(magic) else { panic!("{magic:x?} not recognised") };
            assert_eq!(said, advice);
        }
    }
}

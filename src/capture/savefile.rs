//! The `-w` packet file of a live sensor: the classic libpcap savefile format (pcap-savefile(5):
//! a 24-byte global header, then a 16-byte record header and the captured bytes per packet, microsecond
//! timestamps, this machine's byte order, which every reader detects from the magic number).
//!
//! Written here rather than through libpcap's dumper so the file can be started, rotated and reopened by
//! the analysis thread while the capture thread alone owns the libpcap handle, and so the header carries
//! the sensor's real snapshot length (libpcap's "dead" handles fix it at 65535, below what a sensor keeps).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// pcap-savefile(5) global header and record header sizes.
pub const FILE_HEADER: u64 = 24;
pub const RECORD_HEADER: u64 = 16;

/// One packet file being written.
pub struct PcapWriter {
    out: BufWriter<File>,
}

impl PcapWriter {
    /// Creates (truncates) `path` and writes the global header.
    pub fn create(path: &Path, linktype: u32, snaplen: u32) -> std::io::Result<PcapWriter> {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        let mut h = Vec::with_capacity(FILE_HEADER as usize);
        h.extend_from_slice(&0xa1b2_c3d4u32.to_ne_bytes()); // magic: microseconds
        h.extend_from_slice(&2u16.to_ne_bytes());
        h.extend_from_slice(&4u16.to_ne_bytes());
        h.extend_from_slice(&0i32.to_ne_bytes()); // thiszone
        h.extend_from_slice(&0u32.to_ne_bytes()); // sigfigs
        h.extend_from_slice(&snaplen.to_ne_bytes());
        h.extend_from_slice(&linktype.to_ne_bytes());
        out.write_all(&h)?;
        Ok(PcapWriter { out })
    }

    /// One record: timestamp (seconds, microseconds), original length, captured bytes.
    pub fn write(&mut self, secs: u32, micros: u32, wire_len: u32, data: &[u8]) -> std::io::Result<()> {
        let caplen = u32::try_from(data.len()).unwrap_or(u32::MAX);
        for field in [secs, micros, caplen, wire_len.max(caplen)] {
            self.out.write_all(&field.to_ne_bytes())?;
        }
        self.out.write_all(data)
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    /// Whether `path` still names the file being written (the same device and inode): nothing moved it
    /// aside, so creating a file there would write over the packets already in it.
    #[cfg(unix)]
    pub fn is_at(&self, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (self.out.get_ref().metadata(), std::fs::metadata(path)) {
            (Ok(ours), Ok(there)) => ours.dev() == there.dev() && ours.ino() == there.ino(),
            _ => false,
        }
    }

    /// Without inodes to compare, a file at the path is taken for this one: it is never written over.
    #[cfg(not(unix))]
    pub fn is_at(&self, path: &Path) -> bool {
        path.exists()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::capture::file::CaptureReader;
    use crate::time::Timestamp;

    #[test]
    fn a_file_moved_aside_is_no_longer_at_its_path() {
        let dir = std::env::temp_dir().join(format!("mcptap-savefile-at-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (path, moved) = (dir.join("w.pcap"), dir.join("w.pcap.1"));
        let w = PcapWriter::create(&path, 1, 65535).unwrap();
        assert!(w.is_at(&path));
        std::fs::rename(&path, &moved).unwrap();
        assert!(!w.is_at(&path), "nothing at the path");
        std::fs::write(&path, b"another file").unwrap();
        assert!(!w.is_at(&path), "another file at the path");
        assert!(w.is_at(&moved));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn written_packets_read_back_with_their_times_lengths_and_bytes() {
        let path = std::env::temp_dir().join(format!("mcptap-savefile-{}.pcap", std::process::id()));
        let mut w = PcapWriter::create(&path, 1, 262_144).unwrap();
        w.write(1_700_000_000, 123_456, 60, &[0xab; 60]).unwrap();
        w.write(1_700_000_001, 999_999, 1514, &[0xcd; 100]).unwrap();
        w.flush().unwrap();
        drop(w);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), FILE_HEADER + 2 * RECORD_HEADER + 160);
        let mut r = CaptureReader::open(std::slice::from_ref(&path)).unwrap();
        let p = r.next_packet().unwrap().unwrap();
        assert_eq!((p.frame, p.ts, p.data.len(), p.wire_len, p.linktype.0), (1, Timestamp::from_secs_micros(1_700_000_000, 123_456), 60, 60, 1));
        let p = r.next_packet().unwrap().unwrap();
        assert_eq!((p.frame, p.ts, p.data, p.wire_len), (2, Timestamp::from_secs_micros(1_700_000_001, 999_999), &[0xcd; 100][..], 1514));
        assert!(r.next_packet().unwrap().is_none());
        std::fs::remove_file(&path).ok();
    }
}

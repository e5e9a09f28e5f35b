//! Following key-log files as they grow, for live capture. A TLS client or server appends its secrets to
//! the key log (`SSLKEYLOGFILE`) as each handshake happens, after the sensor started, so the sensor reads
//! what was appended whenever a connection waits for its secrets (`TlsLayer::waiting`), as Wireshark
//! re-reads a growing key log. Only complete lines are handed on (a writer may be mid-line); a file that
//! got shorter was truncated or replaced and is read again from its start, as `tail -F` does. A read
//! error is not fatal: the file may be being replaced, and is tried again at the next look.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

/// Most bytes taken from one file in one look; the rest waits for the next.
const MAX_READ: u64 = 4 * 1024 * 1024;
/// A "line" longer than this without a newline is not a key-log line: it is dropped.
const MAX_PARTIAL: usize = 64 * 1024;

#[derive(Debug)]
struct Tailed {
    path: PathBuf,
    offset: u64,
    // ALLOC: the unfinished last line of a key log, bounded by MAX_PARTIAL
    partial: Vec<u8>,
}

/// The `--keylog` files of a live run, each with how much of it has been read.
#[derive(Debug, Default)]
pub struct KeyLogTail {
    files: Vec<Tailed>,
}

impl KeyLogTail {
    /// `files`: each path with the number of bytes already read from it (at start-up).
    pub fn new(files: Vec<(PathBuf, u64)>) -> KeyLogTail {
        KeyLogTail { files: files.into_iter().map(|(path, offset)| Tailed { path, offset, partial: Vec::new() }).collect() }
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The complete lines appended to the files since the last look (empty when there are none).
    pub fn poll(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        for f in &mut self.files {
            f.read_new(&mut out);
        }
        out
    }
}

impl Tailed {
    fn read_new(&mut self, out: &mut Vec<u8>) {
        let Ok(len) = std::fs::metadata(&self.path).map(|m| m.len()) else { return };
        if len < self.offset {
            self.offset = 0;
            self.partial.clear();
        }
        if len == self.offset {
            return;
        }
        let Ok(mut file) = File::open(&self.path) else { return };
        if file.seek(SeekFrom::Start(self.offset)).is_err() {
            return;
        }
        let mut chunk = Vec::new();
        let Ok(n) = file.take(MAX_READ).read_to_end(&mut chunk) else { return };
        self.offset += n as u64;
        self.partial.extend_from_slice(&chunk);
        match self.partial.iter().rposition(|&b| b == b'\n') {
            Some(end) => {
                out.extend(self.partial.drain(..=end));
            }
            None if self.partial.len() > MAX_PARTIAL => self.partial.clear(),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use std::io::Write;

    fn scratch(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("mcptap-keylog-tail-{}-{name}", std::process::id()));
        std::fs::remove_file(&p).ok();
        p
    }

    fn append(p: &PathBuf, text: &str) {
        std::fs::OpenOptions::new().create(true).append(true).open(p).unwrap().write_all(text.as_bytes()).unwrap();
    }

    #[test]
    fn hands_on_complete_lines_once_and_waits_for_the_rest() {
        let p = scratch("lines");
        append(&p, "A 1 2\n");
        let mut t = KeyLogTail::new(vec![(p.clone(), 6)]);
        assert!(t.poll().is_empty(), "what was read at start-up is not read again");
        append(&p, "B 3 4\nC 5");
        assert_eq!(t.poll(), b"B 3 4\n");
        assert!(t.poll().is_empty());
        append(&p, " 6\n");
        assert_eq!(t.poll(), b"C 5 6\n");
        std::fs::remove_file(&p).ok();
    }

    #[test]
    fn a_truncated_file_is_read_from_its_start() {
        let p = scratch("trunc");
        append(&p, "A 1 2\nB 3 4\n");
        let mut t = KeyLogTail::new(vec![(p.clone(), 0)]);
        assert_eq!(t.poll(), b"A 1 2\nB 3 4\n");
        std::fs::write(&p, "C 5 6\n").unwrap();
        assert_eq!(t.poll(), b"C 5 6\n");
        std::fs::remove_file(&p).ok();
    }

    #[test]
    fn a_missing_file_is_tried_again_later() {
        let p = scratch("missing");
        let mut t = KeyLogTail::new(vec![(p.clone(), 0)]);
        assert!(t.poll().is_empty());
        append(&p, "A 1 2\n");
        assert_eq!(t.poll(), b"A 1 2\n");
        std::fs::remove_file(&p).ok();
    }

    #[test]
    fn an_endless_line_is_dropped_not_kept() {
        let p = scratch("endless");
        append(&p, &"x".repeat(MAX_PARTIAL + 1));
        let mut t = KeyLogTail::new(vec![(p.clone(), 0)]);
        assert!(t.poll().is_empty());
        append(&p, "\nA 1 2\n");
        assert_eq!(t.poll(), b"\nA 1 2\n");
        std::fs::remove_file(&p).ok();
    }
}

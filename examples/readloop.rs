//! Benchmark baseline: the same capture reader and decoder mcptap uses, and nothing else. Prints one line
//! `readloop: P packets, S TCP segments, B payload bytes, F bytes read` so `bench/run.sh` can put mcptap's
//! whole analysis next to the cost of merely reading and decoding the file.
//!
//!     cargo run --release --example readloop -- FILE [FILE ...]

use std::path::PathBuf;
use std::process::ExitCode;

use mcptap::capture::CaptureReader;
use mcptap::decode;

fn main() -> ExitCode {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("readloop: usage: readloop FILE [FILE ...]");
        return ExitCode::from(2);
    }
    let mut reader = match CaptureReader::open(&paths) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("readloop: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut packets, mut segments, mut payload) = (0u64, 0u64, 0u64);
    loop {
        match reader.next_packet() {
            Ok(Some(pkt)) => {
                packets += 1;
                if let Ok(seg) = decode::decode(&pkt) {
                    segments += 1;
                    payload += seg.payload.len() as u64;
                }
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("readloop: {e}");
                return ExitCode::from(2);
            }
        }
    }
    println!(
        "readloop: {packets} packets, {segments} TCP segments, {payload} payload bytes, {} bytes read",
        reader.stats().bytes_read
    );
    ExitCode::SUCCESS
}

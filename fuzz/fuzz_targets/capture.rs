//! pcap/pcapng reader on arbitrary bytes: every record until the end or the first error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::capture::CaptureReader;

fuzz_target!(|data: &[u8]| {
    let Ok(mut r) = CaptureReader::from_reader("fuzz", std::io::Cursor::new(data.to_vec())) else { return };
    // Bounded: each record consumes at least its header's bytes, but cap the loop anyway.
    for _ in 0..100_000 {
        match r.next_packet() {
            Ok(Some(p)) => {
                std::hint::black_box(p.data.len());
            }
            Ok(None) | Err(_) => break,
        }
    }
});

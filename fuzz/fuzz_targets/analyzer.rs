//! The whole analyzer on fuzzed capture bytes: reader, decode, reassembly, HTTP, MCP, rules, CSV.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::analyzer::Analyzer;
use mcptap::capture::CaptureReader;
use mcptap::detect::RuleSet;
use mcptap::limits::Limits;
use mcptap::output::csv::{CsvSink, Mode};

fuzz_target!(|data: &[u8]| {
    let Ok(mut reader) = CaptureReader::from_reader("fuzz", std::io::Cursor::new(data.to_vec())) else { return };
    let Ok(rules) = RuleSet::builtin() else { return };
    let mut sink = CsvSink::new(std::io::sink(), Mode::AsRaised);
    let mut analyzer = Analyzer::new(Limits::default(), rules);
    for _ in 0..100_000 {
        match reader.next_packet() {
            Ok(Some(pkt)) => {
                let _ = analyzer.on_packet(&pkt, &mut sink);
            }
            Ok(None) | Err(_) => break,
        }
    }
    let _ = analyzer.finish(reader.stats().clone(), &mut sink);
});

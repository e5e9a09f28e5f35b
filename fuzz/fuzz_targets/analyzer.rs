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
    // Compiling the built-in CEL rules costs about 200 ms per input under ASan (the CEL parser allocates
    // heavily), which held the first run of this target to 1 exec/s; a compiled RuleSet cannot be cloned
    // or taken back from the analyzer. So one input in 16 (chosen by its last byte, deterministically) runs
    // with the built-in rules, the others with none: every stage up to the facts is fuzzed on each input,
    // and rule evaluation and incident aggregation still on a sixteenth of them.
    let rules = if data.last().is_some_and(|b| b & 15 == 0) {
        let Ok(rules) = RuleSet::builtin() else { return };
        rules
    } else {
        RuleSet::default()
    };
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

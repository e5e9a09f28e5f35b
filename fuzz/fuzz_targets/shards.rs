//! Differential: the analysis on one thread and on three workers (`--threads 3`) must agree on every
//! fuzzed capture: the same incident rows and the same summary. Sharding is only right if a worker that sees
//! its servers' packets alone reaches the verdicts one thread reaches with all of them.
#![no_main]
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use mcptap::analyzer::{Back, Front, Summary};
use mcptap::capture::CaptureReader;
use mcptap::detect::{report_order, RuleSet};
use mcptap::limits::Limits;
use mcptap::output::progress::Progress;
use mcptap::output::Discard;
use mcptap::shard;

/// The built-in rules, compiled once (about 200 ms under ASan) and shared read-only, as the workers do.
static RULES: OnceLock<Arc<RuleSet>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let rules = Arc::clone(RULES.get_or_init(|| Arc::new(RuleSet::builtin().unwrap_or_default())));
    let limits = Limits::default();
    let Ok(mut reader) = CaptureReader::from_reader("fuzz", std::io::Cursor::new(data.to_vec())) else { return };
    let mut front = Front::new(limits.clone());
    let mut back = Back::sharing(&limits, Arc::clone(&rules));
    for _ in 0..100_000 {
        match reader.next_packet() {
            Ok(Some(pkt)) => front.on_packet(&pkt, &mut |cmd| {
                let _ = back.handle(cmd, &mut Discard);
            }),
            Ok(None) | Err(_) => break,
        }
        let secrets = reader.take_secrets();
        if !secrets.is_empty() {
            front.add_secrets(&secrets);
        }
    }
    let _ = front.finish(&mut |cmd| {
        let _ = back.handle(cmd, &mut Discard);
    });
    let mut one = Summary::default();
    front.summarize(reader.stats().clone(), &mut one);
    let mut rows = back.finish_rows(&mut one);
    rows.sort_by(report_order);

    if one.tcp.roles_unroutable > 0 {
        // The one case routing cannot follow (shard::route): a pickup's bare ACKs routed by the port
        // guess before a request or status line decided it the other way.
        return;
    }
    let Ok(mut reader) = CaptureReader::from_reader("fuzz", std::io::Cursor::new(data.to_vec())) else { return };
    // The same 100,000-packet bound as above would need a reader that stops early; fuzz inputs are far
    // smaller, so the whole input is read both ways.
    // Warm-up windows of 0 (none) to 7 segments: placing servers before routing any, and routing after it.
    let warmup = usize::from(data.last().copied().unwrap_or(0) % 8);
    let setup = shard::Setup { shards: 3, limits, rules, keylog: Default::default(), recorder: None, wait_for_keys: false, on_raised: None, warmup };
    let Ok((many, _)) = shard::run(&mut reader, setup, &mut Progress::new(false, None)) else { return };
    assert_eq!(format!("{rows:?}"), format!("{:?}", many.incidents), "incident rows differ");
    assert_eq!(one.to_string(), many.summary.to_string(), "summary differs");
});

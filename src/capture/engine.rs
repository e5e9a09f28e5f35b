//! What a live sensor analyses packets with (feature `live`): the whole analyzer on the sensor's own
//! thread (`--threads 1`, the default), or the same worker pool a file is read with (`--threads N`,
//! `shard::Pool`): the sensor thread then only counts, decodes and routes each segment, and N workers
//! each run a whole layer stack for the servers they own.
//!
//! One difference the sensor must handle: with workers, an incident is raised on a worker's thread.
//! Each is sent here as it is raised ([`Engine::rows`]) and the sensor writes its row when it receives
//! it, so rows still go out within milliseconds, but rows raised at about the same moment by two workers
//! may be written in either order. Every row's content, and the summary at exit, do not depend on N.

use std::sync::Arc;

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use crate::analyzer::{Analyzer, Summary};
use crate::capture::{CaptureStats, RawPacket};
use crate::detect::{Incident, RuleSet};
use crate::limits::Limits;
use crate::output::IncidentSink;
use crate::shard::{Pool, Setup};
use crate::time::Timestamp;
use crate::tls::keylog::KeyLog;

/// The analysis behind a live sensor.
pub enum Engine {
    One {
        analyzer: Box<Analyzer>,
        /// Kept so [`Engine::rows`] never ends: one thread writes its rows itself.
        _rows: UnboundedSender<Incident>,
    },
    Pool(Box<Pool>),
}

/// How the engine is built: the parts of `Config` it needs.
pub struct Build {
    pub threads: u16,
    pub limits: Limits,
    pub rules: RuleSet,
    pub keylog: KeyLog,
    /// `--keylog` files are followed: connections wait for keys that may still be written.
    pub wait_for_keys: bool,
}

impl Engine {
    /// The engine and the receiving end of the rows its workers raise (never any with one thread).
    pub fn start(b: Build) -> std::io::Result<(Engine, UnboundedReceiver<Incident>)> {
        let (tx, rx) = unbounded_channel();
        if b.threads <= 1 {
            let mut analyzer = Analyzer::new(b.limits, b.rules);
            analyzer.set_keylog(b.keylog);
            if b.wait_for_keys {
                analyzer.wait_for_keys();
            }
            return Ok((Engine::One { analyzer: Box::new(analyzer), _rows: tx }, rx));
        }
        // Each worker clones a row once, when it is first raised: rows are few (deduplicated per
        // session and rule, capped by `max_incidents`), so the unbounded channel stays small.
        let send = move |i: &Incident| {
            let _ = tx.send(i.clone());
        };
        let setup = Setup {
            shards: usize::from(b.threads),
            limits: b.limits,
            rules: Arc::new(b.rules),
            keylog: b.keylog,
            recorder: None,
            wait_for_keys: b.wait_for_keys,
            on_raised: Some(Arc::new(send)),
            warmup: 0,
        };
        Ok((Engine::Pool(Box::new(Pool::start(setup)?)), rx))
    }

    /// One packet. With one thread its new rows go to `sink` now, and the answer says whether there were
    /// any; with workers they come on `rows` (and the answer is `false`).
    pub fn on_packet(&mut self, pkt: &RawPacket<'_>, sink: &mut dyn IncidentSink) -> std::io::Result<bool> {
        match self {
            Engine::One { analyzer, .. } => {
                let before = analyzer.incidents().len();
                analyzer.on_packet(pkt, sink)?;
                Ok(analyzer.incidents().len() != before)
            }
            Engine::Pool(p) => {
                p.packet(pkt);
                Ok(false)
            }
        }
    }

    /// The end of a batch from the ring: workers get what was routed to them, however little.
    pub fn flush(&mut self) {
        if let Engine::Pool(p) = self {
            p.flush();
        }
    }

    /// Capture time moved while the link was quiet.
    pub fn advance(&mut self, now: Timestamp, sink: &mut dyn IncidentSink) -> std::io::Result<()> {
        match self {
            Engine::One { analyzer, .. } => analyzer.advance(now, sink),
            Engine::Pool(p) => {
                p.advance(now);
                Ok(())
            }
        }
    }

    /// Text appended to a key log.
    pub fn add_live_secrets(&mut self, text: &[u8], sink: &mut dyn IncidentSink) -> std::io::Result<()> {
        match self {
            Engine::One { analyzer, .. } => analyzer.add_live_secrets(text, sink),
            Engine::Pool(p) => {
                p.live_secrets(text);
                Ok(())
            }
        }
    }

    pub fn tls_waiting(&self) -> bool {
        match self {
            Engine::One { analyzer, .. } => analyzer.tls_waiting(),
            Engine::Pool(p) => p.tls_waiting(),
        }
    }

    pub fn open_sessions(&self) -> usize {
        match self {
            Engine::One { analyzer, .. } => analyzer.open_sessions(),
            Engine::Pool(p) => p.open_sessions(),
        }
    }

    /// Incident rows raised so far (with workers, as they last published).
    pub fn incidents(&self) -> usize {
        match self {
            Engine::One { analyzer, .. } => analyzer.incidents().len(),
            Engine::Pool(p) => p.incidents(),
        }
    }

    pub fn now(&self) -> Timestamp {
        match self {
            Engine::One { analyzer, .. } => analyzer.now(),
            Engine::Pool(p) => p.now(),
        }
    }

    /// Stop: pending streams and sessions are flushed; every row not yet written goes to `sink` (with
    /// workers, from `rows`, in report order), then `sink.finish` gets every row with its final count.
    /// Returns the summary and, with workers, the line of CPU time per worker.
    pub fn finish(self, rows: &mut UnboundedReceiver<Incident>, sink: &mut dyn IncidentSink) -> std::io::Result<(Summary, String)> {
        match self {
            Engine::One { analyzer, .. } => Ok((analyzer.finish(CaptureStats::default(), sink)?, String::new())),
            Engine::Pool(p) => {
                let outcome = p.finish();
                // Every worker has ended: what they raised while finishing is all in the channel.
                let mut late = Vec::new();
                while let Ok(i) = rows.try_recv() {
                    late.push(i);
                }
                late.sort_by(crate::detect::report_order);
                for i in &late {
                    sink.raised(i)?;
                }
                let all: Vec<&Incident> = outcome.incidents.iter().collect();
                sink.finish(&all)?;
                let line = crate::output::elapsed::workers_line(outcome.cpu.0, &outcome.cpu.1);
                Ok((outcome.summary, line))
            }
        }
    }
}

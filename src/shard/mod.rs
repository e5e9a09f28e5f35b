//! `--threads N` (N ≥ 2): the analysis split across N workers by server address, as Suricata's workers
//! split flows and Zeek's cluster splits connections, with one difference that keeps MCP whole: the key is
//! the server's address, never the 4-tuple, because an MCP session spans connections (one
//! `Mcp-Session-Id` over many, a legacy GET stream and its POSTs) and all of them go to one server.
//!
//! The calling thread reads the capture, counts and decodes every packet, and hands each TCP segment to
//! the worker its server hashes to (`route`), batched with its payload copied into the batch's arena
//! (the only copy: reassembly borrows from there). Each worker owns a whole layer stack (reassembly, TLS,
//! HTTP, MCP, rules) for its servers and sees its segments in capture order. Each segment carries the
//! capture clock (the latest packet time read so far, of any server), and expiry runs on whole seconds of
//! that clock (`Front::tick`), so what expires before a segment is what one thread would have expired
//! before it, whatever other workers' packets came between; each worker gets the capture's last time
//! before it finishes. The results merge deterministically (`merge`): counters
//! summed, incident rows and session records sorted by their report order, which is total. The report,
//! the summary and the session reports are therefore the same byte for byte for every N, as long as no
//! cap is reached: caps on what the run holds are split evenly across the workers
//! (`Limits::per_shard`), so a cap one thread would not reach may be reached by a worker that carries
//! more than its share.
//!
//! What one worker cannot see: a session whose connections go to different server addresses (an
//! `endpoint` event naming another host or port) is split, and a client moving to a session id another
//! server minted is not recognised. A connection picked up midstream follows reassembly's role decision
//! (`route`), except for its bare ACKs before the first payload when the payload then contradicts the
//! port guess. One
//! server carrying everything (a single gateway) puts all the work on one worker: the speed-up then is
//! the reading thread's share only.
//!
//! Memory stays bounded: each worker has at most [`DEPTH`] batches in flight, each closed at
//! [`BATCH_ITEMS`] segments or [`BATCH_BYTES`] bytes of payload, and spent batches go back to be refilled.

mod merge;
pub mod route;

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

use crate::analyzer::{Back, Cmd, Front, PacketCounts, Summary};
use crate::capture::file::{CaptureError, CaptureReader};
use crate::decode::{self, TcpFlags, TcpSegment};
use crate::detect::{Incident, RuleSet};
use crate::facts::Fact;
use crate::limits::Limits;
use crate::mcp::record::RecorderConfig;
use crate::output::progress::Progress;
use crate::output::Discard;
use crate::time::Timestamp;
use crate::tls::keylog::KeyLog;

/// Batches in flight to one worker.
pub const DEPTH: usize = 2;
/// Segments per batch: large enough that the channel costs nothing per packet.
pub const BATCH_ITEMS: usize = 1024;
/// Payload bytes per batch: bounds what is held in flight to about `DEPTH` times this per worker.
pub const BATCH_BYTES: usize = 128 << 10;

/// What every worker is built from.
pub struct Setup {
    pub shards: usize,
    pub limits: Limits,
    pub rules: Arc<RuleSet>,
    pub keylog: KeyLog,
    pub recorder: Option<RecorderConfig>,
}

/// The merged result of a run.
pub struct Outcome {
    pub summary: Summary,
    /// Every incident row, in report order.
    pub incidents: Vec<Incident>,
    /// The capture error that stopped reading, if any; everything before it was analysed.
    pub fatal: Option<CaptureError>,
    /// CPU seconds of the reading thread and of each worker (`output::elapsed::workers_line`); measured,
    /// so never part of the reports.
    pub cpu: (Option<f64>, Vec<Option<f64>>),
}

/// A TCP segment whose payload is a range of its batch's arena.
struct Seg {
    /// The capture clock when the segment was read: the latest time of any packet so far, this one's
    /// or (timestamps can go backwards) an earlier one's, of any server.
    clock: Timestamp,
    frame: u64,
    ts: Timestamp,
    src: std::net::SocketAddr,
    dst: std::net::SocketAddr,
    seq: u32,
    ack: u32,
    flags: TcpFlags,
    window: u16,
    missing: u32,
    payload: Range<usize>,
}

enum Item {
    Seg(Seg),
    /// Key-log text found inside the capture (pcapng Decryption Secrets Blocks): every worker gets it.
    Secrets(Range<usize>),
    /// Capture time reached this (the capture's last packet, before the end).
    Tick(Timestamp),
    /// A fact about the whole capture (CAPTURE-UNREADABLE), given to one worker to evaluate.
    Fact(Box<Fact>),
}

#[derive(Default)]
struct Batch {
    items: Vec<Item>,
    arena: Vec<u8>,
}

impl Batch {
    fn full(&self) -> bool {
        self.items.len() >= BATCH_ITEMS || self.arena.len() >= BATCH_BYTES
    }

    fn stash(&mut self, bytes: &[u8]) -> Range<usize> {
        let start = self.arena.len();
        self.arena.extend_from_slice(bytes);
        start..self.arena.len()
    }

    fn push_seg(&mut self, s: &TcpSegment<'_>, clock: Timestamp) {
        let payload = self.stash(s.payload);
        let TcpSegment { frame, ts, src, dst, seq, ack, flags, window, missing, .. } = *s;
        self.items.push(Item::Seg(Seg { clock, frame, ts, src, dst, seq, ack, flags, window, missing, payload }));
    }
}

impl Seg {
    fn attach<'a>(&self, arena: &'a [u8]) -> TcpSegment<'a> {
        let Seg { frame, ts, src, dst, seq, ack, flags, window, missing, .. } = *self;
        TcpSegment { frame, ts, src, dst, seq, ack, flags, window, payload: arena.get(self.payload.clone()).unwrap_or_default(), missing }
    }
}

/// The dispatcher's end of one worker.
struct Lane {
    full: SyncSender<Batch>,
    empty: Receiver<Batch>,
    batch: Batch,
    /// The worker stopped taking batches (it cannot, short of a panic, which `run` re-raises).
    gone: bool,
}

impl Lane {
    fn send(&mut self) {
        let next = self.empty.try_recv().unwrap_or_default();
        let batch = std::mem::replace(&mut self.batch, next);
        if !self.gone && self.full.send(batch).is_err() {
            self.gone = true;
        }
    }
}

/// Open sessions and incident rows of one worker, for the progress line.
#[derive(Default)]
struct Gauge {
    sessions: AtomicUsize,
    incidents: AtomicUsize,
}

/// Analyses every packet of `reader` on `setup.shards` workers and merges their results.
pub fn run(mut reader: CaptureReader, setup: Setup, progress: &mut Progress) -> Outcome {
    let n = setup.shards.max(1);
    let limits = setup.limits.per_shard(n);
    let recorder = setup.recorder.map(|r| RecorderConfig { max_records: r.max_records.div_ceil(n), ..r });
    let gauges: Vec<Gauge> = (0..n).map(|_| Gauge::default()).collect();
    std::thread::scope(|scope| {
        let mut lanes = Vec::with_capacity(n);
        let mut workers = Vec::with_capacity(n);
        for gauge in &gauges {
            let (full_tx, full_rx) = sync_channel::<Batch>(DEPTH);
            let (empty_tx, empty_rx) = sync_channel::<Batch>(DEPTH + 2);
            let mut front = Front::new(limits.clone());
            front.set_keylog(setup.keylog.clone());
            let mut back = Back::sharing(&limits, Arc::clone(&setup.rules));
            if let Some(rc) = recorder.clone() {
                back.enable_recorder(rc);
            }
            workers.push(scope.spawn(move || work(full_rx, empty_tx, front, back, gauge)));
            lanes.push(Lane { full: full_tx, empty: empty_rx, batch: Batch::default(), gone: false });
        }
        let (counts, fatal) = dispatch(&mut reader, &mut lanes, setup.limits.max_connections, progress, &gauges);
        drop(lanes);
        let mut summary = Summary::default();
        counts.summarize(&mut summary);
        summary.capture = reader.stats().clone();
        let reading = crate::output::elapsed::thread_cpu_secs();
        let mut rows = Vec::with_capacity(n);
        let mut cpu = Vec::with_capacity(n);
        for w in workers {
            // A worker never panics by design; if one did, surface it rather than report part of a run.
            let (part, incidents, secs) = match w.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            merge::absorb(&mut summary, part);
            rows.push(incidents);
            cpu.push(secs);
        }
        let incidents = merge::incidents(rows);
        summary.incidents_by_rule = merge::by_rule(&incidents);
        Outcome { summary, incidents, fatal, cpu: (reading, cpu) }
    })
}

/// Reads, counts and decodes every packet, handing each segment to its worker; then the capture's last
/// time to all of them. Returns the packet-level counts and the error that stopped reading.
fn dispatch(
    reader: &mut CaptureReader,
    lanes: &mut [Lane],
    max_connections: usize,
    progress: &mut Progress,
    gauges: &[Gauge],
) -> (PacketCounts, Option<CaptureError>) {
    let mut counts = PacketCounts::default();
    let mut router = route::Router::new(lanes.len(), max_connections);
    let mut fatal = None;
    loop {
        let pkt = match reader.next_packet() {
            Ok(Some(p)) => p,
            Ok(None) => break,
            Err(e) => {
                fatal = Some(e);
                break;
            }
        };
        counts.packet(&pkt);
        match decode::decode(&pkt) {
            Ok(seg) => {
                counts.segment();
                let i = router.shard(&seg);
                if let Some(lane) = lanes.get_mut(i) {
                    lane.batch.push_seg(&seg, counts.clock());
                    if lane.batch.full() {
                        lane.send();
                    }
                }
            }
            Err(skip) => counts.skipped(skip),
        }
        let secrets = reader.take_secrets();
        if !secrets.is_empty() {
            for lane in lanes.iter_mut() {
                let r = lane.batch.stash(&secrets);
                lane.batch.items.push(Item::Secrets(r));
            }
        }
        progress.tick(|| {
            let sum = |f: fn(&Gauge) -> &AtomicUsize| gauges.iter().map(|g| f(g).load(Ordering::Relaxed)).sum();
            (reader.stats().bytes_read, sum(|g| &g.sessions), sum(|g| &g.incidents))
        });
    }
    let now = counts.clock();
    for lane in lanes.iter_mut() {
        lane.batch.items.push(Item::Tick(now));
    }
    if let (Some(fact), Some(lane)) = (counts.unreadable_fact(now), lanes.first_mut()) {
        lane.batch.items.push(Item::Fact(Box::new(fact)));
    }
    for lane in lanes.iter_mut() {
        lane.send();
    }
    (counts, fatal)
}

/// One worker: its segments through its layer stack, in order; then its share of the summary and rows.
fn work(full: Receiver<Batch>, empty: SyncSender<Batch>, mut front: Front, mut back: Back, gauge: &Gauge) -> (Summary, Vec<Incident>, Option<f64>) {
    // A worker's rows are taken from its incident table at the end: its sink writes nothing and cannot
    // fail, so neither can `handle`.
    let handle = |back: &mut Back, cmd: Cmd<'_>| {
        let _ = back.handle(cmd, &mut Discard);
    };
    for mut batch in full {
        let Batch { items, arena } = &mut batch;
        for item in items.drain(..) {
            match item {
                Item::Seg(s) => {
                    // One thread expires up to the capture clock before a packet, also when that clock
                    // was moved by another server's packet (a timestamp far ahead): so does a worker.
                    front.tick(s.clock, &mut |cmd| handle(&mut back, cmd));
                    front.on_segment(&s.attach(arena), &mut |cmd| handle(&mut back, cmd));
                }
                Item::Secrets(r) => front.add_secrets(arena.get(r).unwrap_or_default()),
                Item::Tick(ts) => front.tick(ts, &mut |cmd| handle(&mut back, cmd)),
                Item::Fact(f) => handle(&mut back, Cmd::Fact(f)),
            }
        }
        gauge.sessions.store(back.open_sessions(), Ordering::Relaxed);
        gauge.incidents.store(back.incidents().len(), Ordering::Relaxed);
        arena.clear();
        // The dispatcher allocates a new batch when none comes back in time.
        let _ = empty.try_send(batch);
    }
    // No HTTP log on a worker, so finishing cannot fail either.
    let _ = front.finish(&mut |cmd| handle(&mut back, cmd));
    let mut summary = Summary::default();
    front.summarize(crate::capture::CaptureStats::default(), &mut summary);
    let rows = back.finish_rows(&mut summary);
    (summary, rows, crate::output::elapsed::thread_cpu_secs())
}

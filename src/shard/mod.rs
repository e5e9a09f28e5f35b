//! `--threads N` (N ≥ 2): the analysis split across N workers by server address, as Suricata's workers
//! split flows and Zeek's cluster splits connections, with one difference that keeps MCP whole: the key is
//! the server's address, never the 4-tuple, because an MCP session spans connections (one
//! `Mcp-Session-Id` over many, a legacy GET stream and its POSTs) and all of them go to one server.
//!
//! The calling thread reads the capture, counts and decodes every packet, and hands each TCP segment to
//! the worker its server is placed on (`route`; the servers of a file run's first segments are weighed
//! before any is placed: `Warmup`), batched with its payload copied into the batch's arena (the only
//! copy: reassembly borrows from there; workers reading the payloads in the reader's own buffers instead
//! were no faster and held more memory, because the kernel's copy of the file then lands in buffers that
//! are no longer in the cache: docs/performance.md). Each worker owns a whole layer stack (reassembly, TLS,
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
//! A live sensor drives the same [`Pool`] (`capture::engine`): it sends each batch from the ring as soon
//! as it is routed ([`Pool::flush`]), moves the workers' clocks on a quiet link ([`Pool::advance`]),
//! broadcasts key-log text as it is appended, and writes each incident a worker raises as it arrives.
//!
//! Memory stays bounded: the workers share one pool of [`pooled`] batches (twice [`IN_FLIGHT`] for one or
//! two workers, [`IN_FLIGHT`] from three up to ten, three a worker beyond), each closed at [`BATCH_ITEMS`]
//! segments or [`BATCH_BYTES`] bytes of payload; spent batches go back to the pool to be refilled, and the
//! reading thread waits for one when all are in use.

mod merge;
pub mod route;

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;

use crate::analyzer::{Back, Cmd, Front, PacketCounts, Summary};
use crate::capture::file::{CaptureError, CaptureReader};
use crate::decode::{self, TcpFlags, TcpSegment};
use crate::detect::{Incident, RuleSet};
use crate::stack::coverage::Coverage;
use crate::limits::Limits;
use crate::mcp::record::RecorderConfig;
use crate::output::progress::Progress;
use crate::output::{Discard, IncidentSink};
use crate::capture::RawPacket;
use crate::time::Timestamp;
use crate::tls::keylog::KeyLog;

/// Batches in flight from three workers on, shared by them ([`pooled`]). A deep queue lets the reading thread
/// run ahead while the workers have the cores, and lets the workers go on while it reads, instead of the
/// three waking each other every few batches: at N = 2 on two cores, 16 to 24 batches a worker instead of
/// 2 took a sixth off the wall time on the bench capture (1.11-1.17 s to 0.93-0.99 s). A fixed total keeps
/// memory flat in N: at N = 8, 48 in flight put peak RSS at 64 MB, 32 at 61 MB (the target is 64 MiB; queues
/// per worker then, before the pool and the per-client savings of 445c74d: 54 MiB now).
pub const IN_FLIGHT: usize = 32;

/// Batches in all, one pool shared by `workers`: any worker may hold all of them but the lanes' own. A
/// file's traffic comes to the workers in bursts (a run of large bodies for one worker's servers, then for
/// the other's), and the reading thread hands segments out in capture order: with a fixed queue per worker
/// it waited on one worker's full queue while the other's ran dry (the cores idled 7-9 % of a
/// `--threads 2` run on the bench capture with 32 batches a worker); one pool lets the burst take the
/// batches the idle worker is not using. One or two workers get twice [`IN_FLIGHT`], as many as 32 a
/// worker were, where more workers' state is not there to share the 64 MiB: 2-4 % faster than 32 a worker
/// at N = 2 for the same peak RSS, and at N = 4 and 8 faster with 1-1.6 MB less; 96 were a few % faster
/// again for 5 MiB more in one comparison and no faster in a later one (docs/performance.md). Never fewer
/// than three a worker, the lane's own and two, so that the reading thread always has one coming back.
pub fn pooled(workers: usize) -> usize {
    let base = if workers <= 2 { 2 * IN_FLIGHT } else { IN_FLIGHT };
    base.max(3 * workers)
}

/// Batches the warm-up window fills at most ([`WARMUP_BYTES`] of payload, or [`WARMUP_SEGMENTS`] at
/// [`BATCH_ITEMS`] a batch), which join the pool when it closes.
const WARMUP_BATCHES: usize = WARMUP_BYTES / BATCH_BYTES + WARMUP_SEGMENTS / BATCH_ITEMS + 1;

/// Segments per batch: large enough that the channel costs nothing per packet (a batch of bare ACKs),
/// small enough that a batch's list of segments (about 130 bytes each) stays within half its arena.
pub const BATCH_ITEMS: usize = 512;
/// Payload bytes per batch: bounds what is held in flight to about [`pooled`] times this.
pub const BATCH_BYTES: usize = 128 << 10;

/// Segments held back at the start of a file run to weigh its servers before any is placed (`Warmup`).
pub const WARMUP_SEGMENTS: usize = 8192;
/// Payload bytes held back at most, whichever of the two comes first.
pub const WARMUP_BYTES: usize = 4 << 20;

/// Told of each incident as a worker first raises it, on that worker's thread.
pub type OnRaised = Arc<dyn Fn(&Incident) + Send + Sync>;

/// What every worker is built from.
pub struct Setup {
    pub shards: usize,
    pub limits: Limits,
    pub rules: Arc<RuleSet>,
    pub keylog: KeyLog,
    pub recorder: Option<RecorderConfig>,
    /// Live capture with `--keylog` files: connections wait for keys that may still be written.
    pub wait_for_keys: bool,
    /// Live capture: each incident as a worker first raises it, so the sensor writes its row at once.
    /// Called on the worker's thread.
    pub on_raised: Option<OnRaised>,
    /// Segments held back before the servers seen among them are placed (`Warmup`; [`WARMUP_SEGMENTS`]
    /// for a file, 0 for a live sensor, which must not hold packets back).
    pub warmup: usize,
}

/// The merged result of a run.
pub struct Outcome {
    pub summary: Summary,
    /// Every incident row, in report order.
    pub incidents: Vec<Incident>,
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
    check: crate::decode::Check,
    payload: Range<usize>,
}

enum Item {
    Seg(Seg),
    /// Key-log text found inside the capture (pcapng Decryption Secrets Blocks): every worker gets it.
    Secrets(Range<usize>),
    /// Capture time reached this (the capture's last packet, before the end).
    Tick(Timestamp),
    /// Live: capture time moved while the link was quiet (`Front::advance`, as on one thread).
    Advance(Timestamp),
    /// Live: text appended to a key log; connections waiting for it resume.
    LiveSecrets(Range<usize>),
    /// The coverage notice of the whole capture (CAPTURE-UNREADABLE), given to one worker to evaluate.
    Coverage(Box<Coverage>),
}

#[derive(Default)]
struct Batch {
    items: Vec<Item>,
    arena: Vec<u8>,
}

impl Batch {
    /// Whether a segment of `len` payload bytes still fits. A batch is closed before it would overflow,
    /// not after, so its arena never outgrows [`BATCH_BYTES`]: a `Vec` grown past its capacity doubles it,
    /// and the doubled buffer would stay with the batch for the rest of the run (with [`IN_FLIGHT`]
    /// batches, MiBs more at the peak).
    fn fits(&self, len: usize) -> bool {
        self.items.is_empty() || (self.items.len() < BATCH_ITEMS && self.arena.len() + len <= BATCH_BYTES)
    }

    fn stash(&mut self, bytes: &[u8]) -> Range<usize> {
        let start = self.arena.len();
        let need = start + bytes.len();
        if need > self.arena.capacity() {
            // ALLOC: a batch's arena grows to BATCH_BYTES at most (more only for one larger item), doubling
            // on the way, and keeps its size as it goes round for the rest of the run.
            let cap = self.arena.capacity().saturating_mul(2).max(need).min(BATCH_BYTES.max(need));
            self.arena.reserve_exact(cap - start);
        }
        self.arena.extend_from_slice(bytes);
        start..self.arena.len()
    }

    fn push_seg(&mut self, s: &TcpSegment<'_>, clock: Timestamp) {
        let payload = self.stash(s.payload);
        let TcpSegment { frame, ts, src, dst, seq, ack, flags, window, missing, check, .. } = *s;
        self.items.push(Item::Seg(Seg { clock, frame, ts, src, dst, seq, ack, flags, window, missing, check, payload }));
    }
}

impl Seg {
    fn attach<'a>(&self, arena: &'a [u8]) -> TcpSegment<'a> {
        let Seg { frame, ts, src, dst, seq, ack, flags, window, missing, check, .. } = *self;
        // The tunnel was counted by the dispatcher that decoded the packet; workers never ask.
        TcpSegment { frame, ts, src, dst, seq, ack, flags, window, payload: arena.get(self.payload.clone()).unwrap_or_default(), missing, tunnel: None, check }
    }
}

/// The start of a file run, held back: the servers seen in it are placed on the workers by how much
/// traffic each carried in it, heaviest first (`route::Router::plan`), before any segment is handed out.
/// Placing each server when it first appears, by the traffic handed out so far, is blind at the start,
/// when every worker has had nearly nothing: two of the busiest servers could share a worker for the whole
/// run while another carries only light ones. Held segments keep their capture clock and are handed out
/// in capture order, with the key-log text found among them (pcapng Decryption Secrets Blocks), when the
/// window closes: at [`WARMUP_SEGMENTS`] segments or [`WARMUP_BYTES`] of payload, and at the end. They
/// are held in batches like the workers', which then go round as the workers' batches: one large buffer
/// given back would make the allocator keep later ones instead of returning them (glibc's dynamic mmap
/// threshold), several MiB more at the peak.
struct Warmup {
    /// Batches filled, in order, and the one being filled after them.
    held: Vec<Batch>,
    filling: Batch,
    limit: usize,
    segments: usize,
    bytes: usize,
    /// Payload bytes plus a per-segment cost (`route::cost`), per server.
    // ALLOC: one entry per server seen in the window, at most `limit`
    traffic: crate::keyed::WireMap<std::net::SocketAddr, u64>,
}

impl Warmup {
    fn new(limit: usize) -> Warmup {
        Warmup { held: Vec::new(), filling: Batch::default(), limit, segments: 0, bytes: 0, traffic: Default::default() }
    }

    /// The batch being filled, with room for `len` more bytes.
    fn batch(&mut self, len: usize) -> &mut Batch {
        if !self.filling.fits(len) {
            // ALLOC: a batch per BATCH_BYTES of the window, reused by the workers' lanes afterwards
            self.held.push(std::mem::take(&mut self.filling));
        }
        &mut self.filling
    }

    fn hold(&mut self, seg: &TcpSegment<'_>, clock: Timestamp) {
        self.batch(seg.payload.len()).push_seg(seg, clock);
        self.segments += 1;
        self.bytes += seg.payload.len();
        *self.traffic.entry(route::server_of(seg)).or_default() += route::cost(seg);
    }

    fn hold_secrets(&mut self, text: &[u8]) {
        let b = self.batch(text.len());
        let r = b.stash(text);
        b.items.push(Item::Secrets(r));
    }

    fn full(&self) -> bool {
        self.segments >= self.limit || self.bytes >= WARMUP_BYTES
    }
}

/// The dispatcher's end of one worker.
struct Lane {
    full: SyncSender<Batch>,
    batch: Batch,
    /// The worker stopped taking batches (it cannot, short of a panic, which `run` re-raises).
    gone: bool,
}

/// What a worker shows the reading thread while it runs (the progress line, a sensor's stats line and
/// its key-log polling), published after each batch.
#[derive(Default)]
struct Gauge {
    sessions: AtomicUsize,
    incidents: AtomicUsize,
    tls_waiting: AtomicBool,
}

type WorkerResult = (Summary, Vec<Incident>, Option<f64>);

/// The running workers and the reading thread's end of them: the caller reads packets (from a file, or
/// a live sensor from the ring) and hands each to [`Pool::packet`]; [`Pool::finish`] merges.
pub struct Pool {
    lanes: Vec<Lane>,
    router: route::Router,
    counts: PacketCounts,
    gauges: Arc<[Gauge]>,
    workers: Vec<std::thread::JoinHandle<WorkerResult>>,
    /// Latest time given to [`Pool::advance`] (live, a quiet link).
    advanced: Timestamp,
    /// The start of the run, until its servers are placed.
    warmup: Option<Warmup>,
    /// Emptied batches of the warm-up, for the lanes.
    spares: Vec<Batch>,
    /// Batches the workers are done with, from all of them.
    returned: Receiver<Batch>,
    /// Batches made so far, and the most there may be ([`pooled`]).
    made: usize,
    cap: usize,
    /// `Limits::checksums`: whether decode sums each segment's checksum.
    checksums: decode::ChecksumPolicy,
}

impl Pool {
    /// Starts `setup.shards` workers; the error is the system's refusal of a thread.
    pub fn start(setup: Setup) -> std::io::Result<Pool> {
        let n = setup.shards.max(1);
        let limits = setup.limits.per_shard(n);
        let recorder = setup.recorder.map(|r| RecorderConfig { max_records: r.max_records.div_ceil(n), ..r });
        let gauges: Arc<[Gauge]> = (0..n).map(|_| Gauge::default()).collect();
        let cap = pooled(n);
        let (returned_tx, returned_rx) = sync_channel::<Batch>(cap + WARMUP_BATCHES);
        let mut pool = Pool {
            lanes: Vec::with_capacity(n),
            router: route::Router::new(n, setup.limits.max_connections),
            counts: PacketCounts::default(),
            gauges: Arc::clone(&gauges),
            workers: Vec::with_capacity(n),
            advanced: Timestamp::ZERO,
            warmup: (setup.warmup > 0 && n > 1).then(|| Warmup::new(setup.warmup)),
            spares: Vec::new(),
            returned: returned_rx,
            made: 0,
            cap,
            checksums: setup.limits.checksums,
        };
        for i in 0..n {
            // Never full: there are never more than `cap` batches (and the warm-up's, fewer) to queue.
            let (full_tx, full_rx) = sync_channel::<Batch>(cap + WARMUP_BATCHES);
            let empty_tx = returned_tx.clone();
            let mut front = Front::new(limits.clone());
            front.set_keylog(setup.keylog.clone());
            if setup.wait_for_keys {
                front.wait_for_keys();
            }
            let mut back = Back::sharing(&limits, Arc::clone(&setup.rules));
            if let Some(rc) = recorder.clone() {
                back.enable_recorder(rc);
            }
            let sink: Box<dyn IncidentSink + Send> = match setup.on_raised.clone() {
                Some(f) => Box::new(Forward(f)),
                None => Box::new(Discard),
            };
            let gauges = Arc::clone(&gauges);
            let worker = std::thread::Builder::new()
                .name(format!("mcptap-worker-{i}"))
                .spawn(move || work(full_rx, empty_tx, front, back, sink, gauges.get(i)))?;
            pool.workers.push(worker);
            pool.lanes.push(Lane { full: full_tx, batch: Batch::default(), gone: false });
        }
        Ok(pool)
    }

    /// One packet read: counted, decoded, its segment handed to the worker of its server.
    pub fn packet(&mut self, pkt: &RawPacket<'_>) {
        self.counts.packet(pkt);
        match decode::decode_with(pkt, self.checksums) {
            Ok(seg) => {
                self.counts.segment(seg.tunnel);
                let clock = self.counts.clock();
                match self.warmup.as_mut() {
                    Some(w) => {
                        w.hold(&seg, clock);
                        if w.full() {
                            self.release();
                        }
                    }
                    None => self.hand_out(&seg, clock),
                }
            }
            Err(skip) => self.counts.skipped(skip),
        }
    }

    /// A segment to the worker of its server.
    fn hand_out(&mut self, seg: &TcpSegment<'_>, clock: Timestamp) {
        let i = self.router.shard(seg);
        if self.lanes.get(i).is_some_and(|lane| !lane.batch.fits(seg.payload.len())) {
            self.send(i);
        }
        if let Some(lane) = self.lanes.get_mut(i) {
            lane.batch.push_seg(seg, clock);
        }
    }

    /// Sends lane `i`'s batch to its worker and gives the lane another to fill.
    fn send(&mut self, i: usize) {
        let next = self.take_batch();
        let Some(lane) = self.lanes.get_mut(i) else { return };
        let batch = std::mem::replace(&mut lane.batch, next);
        if lane.gone || lane.full.send(batch).is_err() {
            // Dropped with the worker's end: it is no longer in the pool.
            lane.gone = true;
            self.made = self.made.saturating_sub(1);
        }
    }

    /// An empty batch: a warm-up spare, one a worker gave back, a new one while fewer than the pool's
    /// size exist, else the next one a worker gives back (the reading thread waits: every batch but the
    /// lanes' own is queued or being analysed, and the pool is larger than the lanes, so one comes back
    /// while every worker runs).
    fn take_batch(&mut self) -> Batch {
        if let Some(b) = self.spares.pop() {
            return b;
        }
        if let Ok(b) = self.returned.try_recv() {
            return b;
        }
        if self.made < self.cap {
            self.made += 1;
            return Batch::default();
        }
        loop {
            match self.returned.recv_timeout(std::time::Duration::from_millis(100)) {
                Ok(b) => return b,
                // A worker ends before its queue is closed only by a panic, which `finish` re-raises; the
                // batches it held never come back, so the run goes on with new ones rather than wait.
                Err(RecvTimeoutError::Timeout) if !self.workers.iter().any(|w| w.is_finished()) => {}
                Err(_) => return Batch::default(),
            }
        }
    }

    /// Closes the warm-up window: its servers placed, its segments handed out in order.
    fn release(&mut self) {
        let Some(w) = self.warmup.take() else { return };
        self.router.plan(&w.traffic);
        for mut batch in w.held.into_iter().chain([w.filling]) {
            for item in &batch.items {
                match item {
                    Item::Seg(s) => self.hand_out(&s.attach(&batch.arena), s.clock),
                    Item::Secrets(r) => self.broadcast_secrets(batch.arena.get(r.clone()).unwrap_or_default()),
                    // The window holds nothing else.
                    _ => {}
                }
            }
            batch.items.clear();
            batch.arena.clear();
            // Counted in the pool from now on: it goes round like the others.
            self.made += 1;
            self.spares.push(batch);
        }
    }

    /// Key-log text found inside a capture file (pcapng Decryption Secrets Blocks): every worker gets it.
    pub fn secrets(&mut self, text: &[u8]) {
        match self.warmup.as_mut() {
            // In its place among the held segments: a worker must not get keys before the handshakes
            // that came before them in the capture (one thread would not have had them yet).
            Some(w) => w.hold_secrets(text),
            None => self.broadcast_secrets(text),
        }
    }

    fn broadcast_secrets(&mut self, text: &[u8]) {
        self.broadcast(|b| {
            let r = b.stash(text);
            Item::Secrets(r)
        });
    }

    /// Live: text appended to a key log, for the connections waiting on every worker.
    pub fn live_secrets(&mut self, text: &[u8]) {
        self.release();
        self.broadcast(|b| {
            let r = b.stash(text);
            Item::LiveSecrets(r)
        });
        self.flush();
    }

    /// Live: capture time moved while the link was quiet; stall and idle rules run on every worker.
    pub fn advance(&mut self, now: Timestamp) {
        self.advanced = self.advanced.max(now);
        self.release();
        self.broadcast(|_| Item::Advance(now));
        self.flush();
    }

    /// Sends every batch that holds anything: a live sensor calls this after each batch from the ring,
    /// so a quiet link never leaves packets waiting in a half-filled batch.
    pub fn flush(&mut self) {
        self.release();
        for i in 0..self.lanes.len() {
            if self.lanes.get(i).is_some_and(|lane| !lane.batch.items.is_empty()) {
                self.send(i);
            }
        }
    }

    fn broadcast(&mut self, mut item: impl FnMut(&mut Batch) -> Item) {
        for lane in &mut self.lanes {
            let it = item(&mut lane.batch);
            lane.batch.items.push(it);
        }
    }

    /// Capture time: the latest packet's, or a later time a live sensor moved it to.
    pub fn now(&self) -> Timestamp {
        self.counts.clock().max(self.advanced)
    }

    /// Open sessions over all workers, as they last published.
    pub fn open_sessions(&self) -> usize {
        self.gauges.iter().map(|g| g.sessions.load(Ordering::Relaxed)).sum()
    }

    /// Incident rows over all workers, as they last published.
    pub fn incidents(&self) -> usize {
        self.gauges.iter().map(|g| g.incidents.load(Ordering::Relaxed)).sum()
    }

    /// Some worker holds a connection waiting for TLS keys (published after each batch, so it may lag a
    /// batch behind: the waiting connection keeps its bytes until the keys come).
    pub fn tls_waiting(&self) -> bool {
        self.gauges.iter().any(|g| g.tls_waiting.load(Ordering::Relaxed))
    }

    /// End of input: every worker gets the capture's last time and finishes; their results merge. The
    /// summary's capture counters are the caller's to fill in.
    pub fn finish(mut self) -> Outcome {
        self.release();
        let now = self.now();
        self.broadcast(|_| Item::Tick(now));
        if let (Some(c), Some(lane)) = (self.counts.unreadable(now), self.lanes.first_mut()) {
            lane.batch.items.push(Item::Coverage(Box::new(c)));
        }
        for lane in &mut self.lanes {
            let last = std::mem::take(&mut lane.batch);
            if !lane.gone {
                let _ = lane.full.send(last);
            }
        }
        let Pool { lanes, counts, workers, .. } = self;
        drop(lanes);
        let mut summary = Summary::default();
        counts.summarize(&mut summary);
        let reading = crate::output::elapsed::thread_cpu_secs();
        let mut rows = Vec::with_capacity(workers.len());
        let mut cpu = Vec::with_capacity(workers.len());
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
        Outcome { summary, incidents, cpu: (reading, cpu) }
    }
}

/// Analyses every packet of `reader` on a [`Pool`] and merges the workers' results; with the capture
/// error that stopped reading, if any (everything before it was analysed).
pub fn run(reader: &mut CaptureReader, setup: Setup, progress: &mut Progress) -> std::io::Result<(Outcome, Option<CaptureError>)> {
    let mut pool = Pool::start(setup)?;
    let mut fatal = None;
    loop {
        match reader.next_packet() {
            Ok(Some(pkt)) => pool.packet(&pkt),
            Ok(None) => break,
            Err(e) => {
                fatal = Some(e);
                break;
            }
        }
        let secrets = reader.take_secrets();
        if !secrets.is_empty() {
            pool.secrets(&secrets);
        }
        progress.tick(|| (reader.stats().bytes_read, pool.open_sessions(), pool.incidents()));
    }
    let mut outcome = pool.finish();
    outcome.summary.capture = reader.stats().clone();
    Ok((outcome, fatal))
}

/// A live worker's incident sink: each new incident goes to the sensor's writer as it is raised (the
/// rows themselves are taken from the incident table at the end, as offline). Cannot fail.
struct Forward(OnRaised);

impl IncidentSink for Forward {
    fn raised(&mut self, incident: &Incident) -> std::io::Result<()> {
        (self.0)(incident);
        Ok(())
    }

    fn finish(&mut self, _: &[&Incident]) -> std::io::Result<()> {
        Ok(())
    }
}

/// One worker: its segments through its layer stack, in order; then its share of the summary and rows.
fn work(
    full: Receiver<Batch>,
    empty: SyncSender<Batch>,
    mut front: Front,
    mut back: Back,
    mut sink: Box<dyn IncidentSink + Send>,
    gauge: Option<&Gauge>,
) -> WorkerResult {
    // Neither sink can fail (`Discard`, `Forward`), so neither can `handle`.
    let mut handle = |back: &mut Back, cmd: Cmd<'_>| {
        let _ = back.handle(cmd, sink.as_mut());
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
                Item::LiveSecrets(r) => front.add_live_secrets(arena.get(r).unwrap_or_default(), &mut |cmd| handle(&mut back, cmd)),
                Item::Tick(ts) => front.tick(ts, &mut |cmd| handle(&mut back, cmd)),
                Item::Advance(ts) => front.advance(ts, &mut |cmd| handle(&mut back, cmd)),
                Item::Coverage(c) => handle(&mut back, Cmd::Coverage(c)),
            }
            front.expect_timer(back.next_timer());
        }
        if let Some(g) = gauge {
            g.sessions.store(back.open_sessions(), Ordering::Relaxed);
            g.incidents.store(back.incidents().len(), Ordering::Relaxed);
            g.tls_waiting.store(front.tls_waiting(), Ordering::Relaxed);
        }
        arena.clear();
        // Never full (see `Pool::start`); fails only once the dispatcher is gone, at the end.
        let _ = empty.try_send(batch);
    }
    // No HTTP log on a worker, so finishing cannot fail either.
    let _ = front.finish(&mut |cmd| handle(&mut back, cmd));
    let mut summary = Summary::default();
    front.summarize(crate::capture::CaptureStats::default(), &mut summary);
    let rows = back.finish_rows(&mut summary);
    (summary, rows, crate::output::elapsed::thread_cpu_secs())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::detect::report_order;
    use crate::output::progress::Progress;

    /// Every sample, merged into one capture: over a hundred servers, over 20,000 segments.
    fn merged() -> CaptureReader {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "pcap" || x == "pcapng") {
                    out.push(p);
                }
            }
        }
        let mut paths = Vec::new();
        walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"), &mut paths);
        paths.sort();
        assert!(paths.len() > 100, "{} samples", paths.len());
        CaptureReader::open(&paths).unwrap()
    }

    fn seg(frame: u64, payload: &[u8]) -> TcpSegment<'_> {
        let a: std::net::SocketAddr = "10.0.0.1:40000".parse().unwrap();
        let b: std::net::SocketAddr = "10.0.0.2:80".parse().unwrap();
        TcpSegment { frame, ts: Timestamp::ZERO, src: a, dst: b, seq: 0, ack: 0, flags: TcpFlags::default(), window: 0, payload, missing: 0, tunnel: None, check: Default::default() }
    }

    #[test]
    fn a_batch_is_closed_before_its_arena_would_outgrow_the_batch_size() {
        // Segments of awkward sizes, handed out as `Pool::hand_out` does: the batch is sent when the next
        // one would not fit. Every arena stays within BATCH_BYTES (a doubled Vec would keep 256 KiB) and
        // holds every byte it was given, in order.
        let data: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
        let sizes = [1_460, 65_000, 0, 9_000, 70_000, 1, 60_000, 60_000, 8_999];
        let (mut batch, mut sent) = (Batch::default(), Vec::new());
        for (frame, &n) in sizes.iter().cycle().take(200).enumerate() {
            let s = seg(frame as u64, &data[..n]);
            if !batch.fits(n) {
                sent.push(std::mem::take(&mut batch));
            }
            batch.push_seg(&s, Timestamp::ZERO);
            assert!(batch.arena.capacity() <= BATCH_BYTES, "arena grew to {} bytes", batch.arena.capacity());
        }
        sent.push(batch);
        let mut frame = 0;
        for b in &sent {
            assert!(b.items.len() <= BATCH_ITEMS && !b.items.is_empty());
            for item in &b.items {
                let Item::Seg(s) = item else { panic!("only segments were pushed") };
                let n = sizes[frame % sizes.len()];
                assert_eq!((s.frame, s.attach(&b.arena).payload), (frame as u64, &data[..n]));
                frame += 1;
            }
        }
        assert_eq!(frame, 200);
        // A lone segment always fits an empty batch, and many empty ones close at BATCH_ITEMS.
        assert!(Batch::default().fits(BATCH_BYTES + 1));
        let mut acks = Batch::default();
        let mut n = 0;
        while acks.fits(0) {
            acks.push_seg(&seg(n, &[]), Timestamp::ZERO);
            n += 1;
        }
        assert_eq!(acks.items.len(), BATCH_ITEMS);
    }

    #[test]
    fn the_pool_holds_a_fixed_number_of_batches_with_room_for_every_lane() {
        assert_eq!(pooled(1), 2 * IN_FLIGHT);
        // One or two workers: twice the budget (bursts; see `pooled`).
        assert_eq!(pooled(2), 2 * IN_FLIGHT);
        assert_eq!(pooled(3), IN_FLIGHT);
        assert_eq!(pooled(8), IN_FLIGHT);
        // Past that, two more than the lanes' own a worker.
        assert_eq!(pooled(IN_FLIGHT), 3 * IN_FLIGHT);
        assert_eq!(pooled(0), 2 * IN_FLIGHT);
    }

    #[test]
    fn the_smallest_pool_stays_within_its_size_and_changes_nothing() {
        // Three workers sharing the fewest batches the pool allows (two a worker beyond the lanes' own),
        // and batches closed after every segment so that they run out and the reading thread waits for
        // those the workers give back: never more batches than that, and the rows of the full pool.
        let rules = Arc::new(RuleSet::builtin().unwrap());
        let setup = || Setup { shards: 3, limits: Limits::default(), rules: Arc::clone(&rules), keylog: KeyLog::default(), recorder: None, wait_for_keys: false, on_raised: None, warmup: 0 };
        let (full, _) = run(&mut merged(), setup(), &mut Progress::new(false, None)).unwrap();
        let mut pool = Pool::start(setup()).unwrap();
        pool.cap = 3 * 3;
        let mut reader = merged();
        let mut most = 0;
        while let Some(pkt) = reader.next_packet().unwrap() {
            pool.packet(&pkt);
            let secrets = reader.take_secrets();
            if !secrets.is_empty() {
                pool.secrets(&secrets);
            }
            pool.flush();
            most = most.max(pool.made);
        }
        assert!(most <= pool.cap, "{most} batches made, the pool holds {}", pool.cap);
        let small = pool.finish();
        assert!(small.incidents.len() > 100 && small.incidents == full.incidents, "rows differ with the smallest pool");
        assert_eq!(small.summary.to_string(), {
            let mut s = full.summary;
            s.capture = small.summary.capture.clone();
            s.to_string()
        });
    }

    #[test]
    fn any_warmup_window_gives_the_one_thread_rows_and_summary() {
        let rules = Arc::new(RuleSet::builtin().unwrap());
        let limits = Limits::default();
        let mut reader = merged();
        let mut front = Front::new(limits.clone());
        let mut back = Back::sharing(&limits, Arc::clone(&rules));
        while let Some(pkt) = reader.next_packet().unwrap() {
            front.on_packet(&pkt, &mut |cmd| back.handle(cmd, &mut Discard).unwrap());
            let secrets = reader.take_secrets();
            if !secrets.is_empty() {
                front.add_secrets(&secrets);
            }
        }
        front.finish(&mut |cmd| back.handle(cmd, &mut Discard).unwrap()).unwrap();
        let mut one = Summary::default();
        front.summarize(reader.stats().clone(), &mut one);
        assert!(one.tcp_segments > 20_000, "{} segments", one.tcp_segments);
        let mut rows = back.finish_rows(&mut one);
        rows.sort_by(report_order);
        assert!(rows.len() > 100, "{} rows", rows.len());
        // No window, windows closing on the first segments, in the middle of the run, and after its end.
        for warmup in [0, 1, 7, 5_000, WARMUP_SEGMENTS, 1 << 30] {
            let setup = Setup { shards: 3, limits: limits.clone(), rules: Arc::clone(&rules), keylog: KeyLog::default(), recorder: None, wait_for_keys: false, on_raised: None, warmup };
            let (mut many, fatal) = run(&mut merged(), setup, &mut Progress::new(false, None)).unwrap();
            assert!(fatal.is_none());
            many.summary.capture = reader.stats().clone();
            let differ = rows.iter().zip(&many.incidents).find(|(a, b)| a != b);
            assert!(differ.is_none() && rows.len() == many.incidents.len(), "rows differ with a window of {warmup}: {differ:?}");
            assert_eq!(one.to_string(), many.summary.to_string(), "summary differs with a window of {warmup}");
        }
    }
}

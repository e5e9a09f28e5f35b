//! The capture thread of a live sensor (feature `live`): it only moves packets. It owns the libpcap handle,
//! reads packets as the kernel hands them over (TPACKET_V3 blocks, full or after a short timeout), copies
//! them into batches (one buffer per batch, not one per packet) and hands each batch to the analysis thread
//! over a bounded channel, so the kernel ring is emptied while the analyzer works through a large body (Suricata's capture threads and
//! `workers`, Zeek's packet source: no analysis on the thread that reads the ring).
//!
//! Flow control: the channel holds at most `QUEUE_BATCHES` batches of at most `BATCH_BYTES`; when the
//! analysis falls that far behind, the capture thread waits and the kernel buffer (`-B`) takes the rest;
//! past it the kernel drops and libpcap counts the drops (the stats line, the summary). Nothing is dropped
//! silently on the way.
//!
//! Latency: the thread takes every packet already in the ring without waiting, and sends the batch as soon
//! as the ring is empty (or the batch is full), before it waits for more: an incident is written within
//! milliseconds of the kernel handing its evidence over (at most the block timeout after it arrived). The
//! ring's descriptor is waited on with tokio (the pcap crate's packet stream on this thread's own runtime),
//! so a quiet link costs no wake-ups.
//!
//! Stop: the analysis thread calls [`Stopper::stop`]; the thread then takes what the kernel already queued
//! (bounded by `DRAIN_MAX`), sends it and libpcap's final counters, and ends, which closes the channel.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use pcap::{Active, Capture, Packet, PacketCodec, PacketHeader, PacketStream};
use tokio::sync::mpsc::Sender;
use tokio::sync::Notify;

/// A batch's byte budget (packet bytes) and packet count.
pub const BATCH_BYTES: usize = 1 << 20;
const BATCH_PACKETS: usize = 1024;
/// Batches in flight: with `BATCH_BYTES`, at most 32 MiB queued between the threads.
pub const QUEUE_BATCHES: usize = 32;
/// libpcap's counters go to the analysis thread this often (for the stats line), and after a batch when the
/// last ones are older than `STATS_FRESH`.
const STATS_EVERY: Duration = Duration::from_millis(500);
const STATS_FRESH: Duration = Duration::from_millis(50);
/// At stop, queued packets are read for at most this long (a busy link never goes quiet).
const DRAIN_MAX: Duration = Duration::from_secs(2);

/// One packet of a batch: its libpcap header and where its bytes are in the batch's buffer.
#[derive(Debug, Clone, Copy)]
struct Rec {
    header: PacketHeader,
    start: usize,
    len: usize,
}

/// Packets copied out of the kernel ring, in arrival order.
#[derive(Debug, Default)]
pub struct Batch {
    // ALLOC: one buffer per batch, bounded by BATCH_BYTES (plus one packet of at most the snap length)
    data: Vec<u8>,
    // ALLOC: bounded by BATCH_PACKETS
    recs: Vec<Rec>,
}

impl Batch {
    fn push(&mut self, header: PacketHeader, data: &[u8]) {
        if self.data.capacity() == 0 {
            // A burst fills a batch: growing it from nothing would copy its bytes again at every doubling
            // while the ring waits.
            // ALLOC: a quarter of BATCH_BYTES up front; the batch grows past it only in a burst
            self.data.reserve(BATCH_BYTES / 4);
        }
        self.recs.push(Rec { header, start: self.data.len(), len: data.len() });
        self.data.extend_from_slice(data);
    }

    fn full(&self) -> bool {
        self.data.len() >= BATCH_BYTES || self.recs.len() >= BATCH_PACKETS
    }

    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// The packets with their bytes.
    pub fn packets(&self) -> impl Iterator<Item = (&PacketHeader, &[u8])> + '_ {
        self.recs.iter().map(|r| (&r.header, self.data.get(r.start..r.start + r.len).unwrap_or_default()))
    }
}

/// What the capture thread sends.
#[derive(Debug)]
pub enum Msg {
    Batch(Batch),
    /// libpcap's received / dropped counters, now.
    Stats(pcap::Stat),
    /// The capture failed (the interface went away): the last message.
    Failed(String),
}

/// Tells the capture thread to drain and end (also when dropped: an analysis error returns early).
pub struct Stopper(Arc<Notify>);

impl Stopper {
    pub fn stop(&self) {
        self.0.notify_one();
    }
}

impl Drop for Stopper {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The stream's items: the packet's header and a copy of its bytes, moved into the batch at once.
struct Take;

/// One packet out of the ring.
struct Owned {
    header: PacketHeader,
    // ALLOC: one buffer per packet, bounded by the snap length; moved into its batch right away
    data: Vec<u8>,
}

impl PacketCodec for Take {
    type Item = Owned;

    fn decode(&mut self, p: Packet<'_>) -> Owned {
        Owned { header: *p.header, data: p.data.to_vec() }
    }
}

fn msg_of(e: pcap::Error) -> String {
    match e {
        pcap::Error::PcapError(s) => s,
        other => other.to_string(),
    }
}

/// Starts the capture thread on an activated, filtered, non-blocking capture.
pub fn spawn(cap: Capture<Active>, tx: Sender<Msg>) -> std::io::Result<(std::thread::JoinHandle<()>, Stopper)> {
    let stop = Arc::new(Notify::new());
    let stopper = Stopper(Arc::clone(&stop));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let thread = std::thread::Builder::new().name("mcptap-capture".into()).spawn(move || runtime.block_on(run(cap, tx, stop)))?;
    Ok((thread, stopper))
}

async fn run(cap: Capture<Active>, tx: Sender<Msg>, stop: Arc<Notify>) {
    let mut stream = match cap.stream(Take) {
        Ok(s) => s,
        Err(e) => {
            tx.send(Msg::Failed(msg_of(e))).await.ok();
            return;
        }
    };
    let mut batch = Batch::default();
    let mut stats = tokio::time::interval(STATS_EVERY);
    stats.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut stats_sent = tokio::time::Instant::now();
    let mut draining: Option<tokio::time::Instant> = None;
    loop {
        // Everything the ring holds now, read in place without waiting: one copy (into the batch) and no
        // allocation per packet, so that a burst is taken from a small kernel buffer (`-B`) before it
        // overflows. Non-blocking, libpcap says "timeout" when the ring is empty (the stream clears its
        // readiness at its next poll).
        loop {
            if batch.full() && tx.send(Msg::Batch(std::mem::take(&mut batch))).await.is_err() {
                return;
            }
            match stream.capture_mut().next_packet() {
                Ok(p) => batch.push(*p.header, p.data),
                Err(pcap::Error::TimeoutExpired) => break,
                Err(e) => return fail(&tx, batch, e).await,
            }
            if draining.is_some_and(|since| since.elapsed() >= DRAIN_MAX) {
                break;
            }
        }
        // The ring is empty: what was taken goes out before waiting, and with it libpcap's counters when
        // the last ones are old, so that the stats line after a burst shows its drops.
        if !batch.is_empty() {
            if tx.send(Msg::Batch(std::mem::take(&mut batch))).await.is_err() {
                return;
            }
            if stats_sent.elapsed() >= STATS_FRESH && !send_stats(&mut stream, &tx, &mut stats_sent).await {
                return;
            }
        }
        if draining.is_some() {
            break;
        }
        tokio::select! {
            item = stream.next() => match item {
                Some(Ok(p)) => batch.push(p.header, &p.data),
                Some(Err(e)) => return fail(&tx, batch, e).await,
                None => break,
            },
            _ = stop.notified() => draining = Some(tokio::time::Instant::now()),
            _ = stats.tick() => {
                if !send_stats(&mut stream, &tx, &mut stats_sent).await {
                    return;
                }
            }
        }
    }
    if !batch.is_empty() && tx.send(Msg::Batch(batch)).await.is_err() {
        return;
    }
    if let Ok(s) = stream.capture_mut().stats() {
        tx.send(Msg::Stats(s)).await.ok();
    }
}

/// libpcap's counters now, to the analysis thread; false when it has gone (the capture ends).
async fn send_stats<C: PacketCodec>(stream: &mut PacketStream<Active, C>, tx: &Sender<Msg>, sent: &mut tokio::time::Instant) -> bool {
    let Ok(s) = stream.capture_mut().stats() else { return true };
    *sent = tokio::time::Instant::now();
    tx.send(Msg::Stats(s)).await.is_ok()
}

/// The capture failed: what was read goes out, then the error.
async fn fail(tx: &Sender<Msg>, batch: Batch, e: pcap::Error) {
    if batch.is_empty() || tx.send(Msg::Batch(batch)).await.is_ok() {
        tx.send(Msg::Failed(msg_of(e))).await.ok();
    }
}

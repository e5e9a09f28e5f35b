//! `--threads 2`: the analyzer's two halves on two threads. A reader thread runs capture, decode,
//! reassembly, TLS and HTTP ([`Front`]) and packs the [`Cmd`]s it produces into batches; the calling
//! thread applies them to the MCP classifier and the rules ([`Back`]) in the same order. The back half
//! sees exactly the command sequence of a single-threaded run, so every incident, count and frame list is
//! the same byte for byte, including when a cap evicts state.
//!
//! Why a pipeline and not shards: MCP sessions span TCP connections (one `Mcp-Session-Id` over many
//! connections, a legacy GET stream and its POSTs) and caps are global, so splitting connections across
//! cores would change what a session sees. The two halves cost about the same on MCP traffic, which is
//! what a two-core sensor needs.
//!
//! Memory stays bounded: at most [`DEPTH`] batches are in flight, each closed at [`BATCH_ITEMS`] commands
//! or [`BATCH_BYTES`] bytes of body, and spent batches go back to the reader to be refilled, so the steady
//! state allocates nothing for the hand-over but the HTTP heads and SSE events that the single-threaded
//! path allocates too.

use std::ops::Range;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use crate::analyzer::{keep_first_error, Back, Cmd, Front, Summary};
use crate::capture::file::{CaptureError, CaptureReader};
use crate::http::{HttpEvent, TxId};
use crate::output::progress::Progress;
use crate::output::IncidentSink;
use crate::reassembly::ConnId;
use crate::time::Timestamp;

/// Batches in flight between the threads: enough to ride out a burst on either side.
pub const DEPTH: usize = 2;
/// Commands per batch: large enough that the channel costs nothing per packet.
pub const BATCH_ITEMS: usize = 2048;
/// Body bytes per batch: bounds the memory held in flight to about `DEPTH` times this.
pub const BATCH_BYTES: usize = 512 << 10;

/// When a batch is closed.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    items: usize,
    bytes: usize,
}

const BOUNDS: Bounds = Bounds { items: BATCH_ITEMS, bytes: BATCH_BYTES };

/// A command that owns its data: bodies live in the batch's arena.
enum Item {
    Cmd(Cmd<'static>),
    RequestBody { conn: ConnId, tx: TxId, range: Range<usize>, frame: u64, ts: Timestamp },
    ResponseBody { conn: ConnId, tx: Option<TxId>, range: Range<usize>, frame: u64, ts: Timestamp },
}

/// Commands of a run of packets, in order, with the body bytes they point into.
#[derive(Default)]
struct Batch {
    items: Vec<Item>,
    arena: Vec<u8>,
    /// Capture bytes read when the batch was closed (progress display).
    bytes_read: u64,
}

impl Batch {
    fn full(&self, bounds: Bounds) -> bool {
        self.items.len() >= bounds.items || self.arena.len() >= bounds.bytes
    }

    fn push(&mut self, cmd: Cmd<'_>) {
        let item = match cmd {
            Cmd::Http { conn, ev } => self.detach(conn, ev),
            Cmd::Open { conn, client, server, midstream } => Item::Cmd(Cmd::Open { conn, client, server, midstream }),
            Cmd::Gap { conn, dir, len, frame } => Item::Cmd(Cmd::Gap { conn, dir, len, frame }),
            Cmd::Unacked { conn } => Item::Cmd(Cmd::Unacked { conn }),
            Cmd::End { conn, dir, reason } => Item::Cmd(Cmd::End { conn, dir, reason }),
            Cmd::Close { conn, ts } => Item::Cmd(Cmd::Close { conn, ts }),
            Cmd::Advance(t) => Item::Cmd(Cmd::Advance(t)),
            Cmd::Fact(f) => Item::Cmd(Cmd::Fact(f)),
            Cmd::Finish(t) => Item::Cmd(Cmd::Finish(t)),
        };
        self.items.push(item);
    }

    /// Copies a body slice into the arena; every other event owns its data already.
    fn detach(&mut self, conn: ConnId, ev: HttpEvent<'_>) -> Item {
        use HttpEvent as E;
        let ev: HttpEvent<'static> = match ev {
            E::RequestBody { tx, bytes, frame, ts } => {
                return Item::RequestBody { conn, tx, range: stash(&mut self.arena, bytes), frame, ts };
            }
            E::ResponseBody { tx, bytes, frame, ts } => {
                return Item::ResponseBody { conn, tx, range: stash(&mut self.arena, bytes), frame, ts };
            }
            E::Request { tx, head, frame, ts } => E::Request { tx, head, frame, ts },
            E::RequestEnd { tx, end, frame, ts } => E::RequestEnd { tx, end, frame, ts },
            E::Response { tx, head, frame, ts } => E::Response { tx, head, frame, ts },
            E::Sse { tx, event, frame, ts } => E::Sse { tx, event, frame, ts },
            E::SseBody { tx, len, frame, ts } => E::SseBody { tx, len, frame, ts },
            E::SseComment { tx, frame, ts } => E::SseComment { tx, frame, ts },
            E::ResponseEnd { tx, end, frame, ts } => E::ResponseEnd { tx, end, frame, ts },
            E::ResponseLost { tx, frame, ts } => E::ResponseLost { tx, frame, ts },
            E::RequestLost { tx, frame, ts } => E::RequestLost { tx, frame, ts },
            E::Anomaly { kind, frame, ts } => E::Anomaly { kind, frame, ts },
            E::RequestBodyGap { tx, len, frame, ts } => E::RequestBodyGap { tx, len, frame, ts },
            E::ResponseBodyGap { tx, len, frame, ts } => E::ResponseBodyGap { tx, len, frame, ts },
            E::RequestUndecoded { tx, coding, reason, frame, ts } => E::RequestUndecoded { tx, coding, reason, frame, ts },
            E::ResponseUndecoded { tx, coding, reason, frame, ts } => E::ResponseUndecoded { tx, coding, reason, frame, ts },
            E::H2Stream { tx, stream, frame, ts } => E::H2Stream { tx, stream, frame, ts },
        };
        Item::Cmd(Cmd::Http { conn, ev })
    }
}

fn stash(arena: &mut Vec<u8>, bytes: &[u8]) -> Range<usize> {
    let start = arena.len();
    arena.extend_from_slice(bytes);
    start..arena.len()
}

/// The command again, borrowing its body from the arena.
fn attach(item: Item, arena: &[u8]) -> Cmd<'_> {
    match item {
        Item::Cmd(c) => c,
        Item::RequestBody { conn, tx, range, frame, ts } => {
            Cmd::Http { conn, ev: HttpEvent::RequestBody { tx, bytes: arena.get(range).unwrap_or_default(), frame, ts } }
        }
        Item::ResponseBody { conn, tx, range, frame, ts } => {
            Cmd::Http { conn, ev: HttpEvent::ResponseBody { tx, bytes: arena.get(range).unwrap_or_default(), frame, ts } }
        }
    }
}

/// What the reader thread leaves behind.
pub struct FrontResult {
    /// The front half's share of the summary (packets, TCP, HTTP, TLS, capture counters).
    pub summary: Summary,
    /// The capture error that stopped reading, if any; everything before it was analysed.
    pub fatal: Option<CaptureError>,
    /// An error writing the HTTP transaction log.
    pub http_log: std::io::Result<()>,
}

/// Reads every packet of `reader` through `front` on a second thread while `back` takes the commands on
/// this one. Returns the reader's result and the first sink error; `back` is left ready for
/// [`Back::finish`].
pub fn run(
    reader: CaptureReader,
    front: Front,
    back: &mut Back,
    sink: &mut dyn IncidentSink,
    progress: &mut Progress,
) -> (FrontResult, std::io::Result<()>) {
    run_bounded(reader, front, back, sink, progress, BOUNDS)
}

fn run_bounded(
    mut reader: CaptureReader,
    mut front: Front,
    back: &mut Back,
    sink: &mut dyn IncidentSink,
    progress: &mut Progress,
    bounds: Bounds,
) -> (FrontResult, std::io::Result<()>) {
    let (full_tx, full_rx) = sync_channel::<Batch>(DEPTH);
    let (empty_tx, empty_rx) = sync_channel::<Batch>(DEPTH + 2);
    std::thread::scope(|scope| {
        let producer = scope.spawn(move || produce(&mut reader, &mut front, &full_tx, &empty_rx, bounds));
        let sink_result = consume(full_rx, &empty_tx, back, sink, progress);
        // Dropping the receiver (consume returned) makes a still-running reader stop at its next send.
        let front_result = match producer.join() {
            Ok(r) => r,
            // The reader never panics by design; if it did, surface it rather than report half a run.
            Err(panic) => std::panic::resume_unwind(panic),
        };
        (front_result, sink_result)
    })
}

/// Reads the next packet through `front`; `Ok(false)` at the end of the capture.
pub(crate) fn feed_next<F: FnMut(Cmd<'_>)>(reader: &mut CaptureReader, front: &mut Front, out: &mut F) -> Result<bool, CaptureError> {
    match reader.next_packet()? {
        Some(pkt) => front.on_packet(&pkt, out),
        None => return Ok(false),
    }
    // pcapng Decryption Secrets Blocks read while reaching this packet.
    let secrets = reader.take_secrets();
    if !secrets.is_empty() {
        front.add_secrets(&secrets);
    }
    Ok(true)
}

fn produce(reader: &mut CaptureReader, front: &mut Front, full: &SyncSender<Batch>, empty: &Receiver<Batch>, bounds: Bounds) -> FrontResult {
    let mut batch = Batch::default();
    let mut fatal = None;
    let mut consumer_gone = false;
    loop {
        match feed_next(reader, front, &mut |cmd| batch.push(cmd)) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                fatal = Some(e);
                break;
            }
        }
        if batch.full(bounds) {
            batch.bytes_read = reader.stats().bytes_read;
            let next = empty.try_recv().unwrap_or_default();
            if full.send(std::mem::replace(&mut batch, next)).is_err() {
                consumer_gone = true;
                break;
            }
        }
    }
    let http_log = front.finish(&mut |cmd| batch.push(cmd));
    batch.bytes_read = reader.stats().bytes_read;
    if !consumer_gone {
        // An error here means the consumer stopped on a sink error, which it reports itself.
        let _ = full.send(batch);
    }
    let mut summary = Summary::default();
    front.summarize(reader.stats().clone(), &mut summary);
    FrontResult { summary, fatal, http_log }
}

fn consume(
    full: Receiver<Batch>,
    empty: &SyncSender<Batch>,
    back: &mut Back,
    sink: &mut dyn IncidentSink,
    progress: &mut Progress,
) -> std::io::Result<()> {
    for mut batch in full {
        let mut result = Ok(());
        let Batch { items, arena, bytes_read } = &mut batch;
        for item in items.drain(..) {
            keep_first_error(&mut result, || back.handle(attach(item, arena), sink));
        }
        // A sink error (the reader of our report went away) ends the run, as it does single-threaded.
        result?;
        progress.tick(|| (*bytes_read, back.open_sessions(), back.incidents().len()));
        arena.clear();
        // The reader allocates a new batch when none comes back in time.
        let _ = empty.try_send(batch);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::http::MessageEnd;

    #[test]
    fn bodies_round_trip_through_the_arena_and_other_events_keep_their_fields() {
        let mut b = Batch::default();
        let conn = ConnId(1);
        let ts = Timestamp::ZERO;
        b.push(Cmd::Http { conn, ev: HttpEvent::RequestBody { tx: 0, bytes: b"{\"a\":1}", frame: 3, ts } });
        b.push(Cmd::Http { conn, ev: HttpEvent::ResponseBody { tx: None, bytes: b"xyz", frame: 4, ts } });
        b.push(Cmd::Http { conn, ev: HttpEvent::ResponseEnd { tx: None, end: MessageEnd::Complete, frame: 5, ts } });
        b.push(Cmd::Gap { conn, dir: crate::decode::flow_key::Direction::ToClient, len: 7, frame: 6 });
        assert_eq!(b.arena, b"{\"a\":1}xyz");
        let Batch { items, arena, .. } = &mut b;
        let got: Vec<String> = items.drain(..).map(|i| format!("{:?}", attach(i, arena))).collect();
        assert!(got[0].contains("RequestBody") && got[0].contains("[123, 34, 97, 34, 58, 49, 125]"), "{}", got[0]);
        assert!(got[1].contains("ResponseBody") && got[1].contains("[120, 121, 122]") && got[1].contains("frame: 4"), "{}", got[1]);
        assert!(got[2].contains("ResponseEnd") && got[2].contains("frame: 5"), "{}", got[2]);
        assert!(got[3].contains("Gap") && got[3].contains("len: 7"), "{}", got[3]);
    }

    #[test]
    fn a_batch_closes_at_the_byte_or_item_bound() {
        let mut b = Batch::default();
        let conn = ConnId(1);
        let big = vec![0u8; BATCH_BYTES];
        assert!(!b.full(BOUNDS));
        b.push(Cmd::Http { conn, ev: HttpEvent::ResponseBody { tx: None, bytes: &big, frame: 1, ts: Timestamp::ZERO } });
        assert!(b.full(BOUNDS));
        let mut b = Batch::default();
        for _ in 0..BATCH_ITEMS {
            b.push(Cmd::Advance(Timestamp::ZERO));
        }
        assert!(b.full(BOUNDS));
    }

    /// One analysis of `files` with a report sink and summary text, on one thread or pipelined.
    fn analyse(files: &[&str], bounds: Option<Bounds>) -> (String, String) {
        use crate::output::csv::{CsvSink, Mode};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inputs: Vec<std::path::PathBuf> = files.iter().map(|f| root.join(f)).collect();
        let reader = CaptureReader::open(&inputs).unwrap();
        let limits = crate::limits::Limits::default();
        let front = Front::new(limits.clone());
        let mut back = Back::new(&limits, crate::detect::RuleSet::builtin().unwrap());
        let mut out = Vec::new();
        let mut summary = {
            let mut sink = CsvSink::new(&mut out, Mode::AtEnd);
            let mut progress = Progress::new(false, None);
            let (r, sink_result) = match bounds {
                Some(b) => run_bounded(reader, front, &mut back, &mut sink, &mut progress, b),
                None => crate::single_thread(reader, front, &mut back, &mut sink, &mut progress),
            };
            sink_result.unwrap();
            assert!(r.fatal.is_none());
            let mut summary = r.summary;
            back.finish(&mut sink, &mut summary).unwrap();
            summary
        };
        summary.sessions.clear();
        (String::from_utf8(out).unwrap(), summary.to_string())
    }

    #[test]
    fn tiny_batches_give_the_single_threaded_report_byte_for_byte() {
        // Batches of a few commands make every hand-over point fall somewhere new: mid-body, between an
        // SSE event and its response end, between an expiry and the packet that caused it.
        let files = ["samples/downgrade.pcap", "samples/mixed-shift.pcap", "samples/inc-request-stalled.pcap", "samples/inc-capture-gaps.pcap"];
        let (csv1, sum1) = analyse(&files, None);
        assert!(csv1.contains("MCP-SSE-DOWNGRADE") && csv1.contains("MCP-SSE-SHIFT"), "{csv1}");
        for b in [Bounds { items: 1, bytes: usize::MAX }, Bounds { items: 7, bytes: 100 }, BOUNDS] {
            let (csv2, sum2) = analyse(&files, Some(b));
            assert_eq!(csv1, csv2, "{b:?}");
            assert_eq!(sum1, sum2, "{b:?}");
        }
    }
}

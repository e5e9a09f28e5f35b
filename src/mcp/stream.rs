//! One SSE response stream as the classifier follows it: its id cursor, its timing (silences, bursts,
//! keep-alives) and the JSON-RPC requests it still owes. WHATWG HTML §9.2 for the stream itself; MCP
//! 2025-03-26..2025-11-25 transports for what a POST stream owes (the responses to the POST's requests).

use crate::jsonrpc::{Id, Ids};
use crate::time::Timestamp;

use super::cursor::CursorState;

/// Events this close (ms) after the first event following the longest silence count as one burst.
pub const BURST_WINDOW_MS: i64 = 100;

/// A first comment this close (ms) to the head opens the stream; a keep-alive's first comes after its interval.
const OPENING_MS: i64 = 1_000;

#[derive(Debug)]
pub struct StreamTrack {
    /// Unique per stream in the run (for "same stream" questions).
    pub uid: u64,
    pub cursor: CursorState,
    pub events: u64,
    pub ids: u64,
    /// `:` comments but one that opens the stream with its head (the Go SDK's `: ok`, written to commit the
    /// head): that one keeps nothing alive.
    pub keepalives: u64,
    /// Anything (event, comment, blank line) came on the stream.
    opened: bool,
    pub retry_seen: bool,
    pub x_accel_no: bool,
    pub head_ts: Timestamp,
    last_activity: Timestamp,
    last_event: Timestamp,
    pub max_silence_ms: i64,
    pub burst_silence_ms: i64,
    burst_start: Timestamp,
    pub burst_events: i64,
    /// The last id on this stream.
    pub last_id: Option<String>,
    /// `Last-Event-ID` the stream resumed from, with that id's issue order in the session.
    pub resumed_from: Option<(String, Option<u64>)>,
    /// Requests of the POST still without a response on this stream.
    pub pending: Ids,
    /// Server requests and notifications that came before the reply (per-request streaming).
    pub server_messages: u64,
    /// A reply the stream owed arrived.
    pub replied: bool,
}

impl StreamTrack {
    pub fn new(uid: u64, head_ts: Timestamp, x_accel_no: bool, pending: Ids) -> StreamTrack {
        StreamTrack {
            uid,
            cursor: CursorState::None,
            events: 0,
            ids: 0,
            keepalives: 0,
            opened: false,
            retry_seen: false,
            x_accel_no,
            head_ts,
            last_activity: head_ts,
            last_event: head_ts,
            max_silence_ms: 0,
            burst_silence_ms: 0,
            burst_start: head_ts,
            burst_events: 0,
            last_id: None,
            resumed_from: None,
            pending,
            server_messages: 0,
            replied: false,
        }
    }

    /// The stream's first event is measured for bursts from `ts` (the request), not from the head.
    pub fn quiet_since(&mut self, ts: Timestamp) {
        self.last_event = self.last_event.min(ts);
        self.burst_start = self.burst_start.min(ts);
    }

    /// A GET's stream is open from its request: a head held back (a buffering proxy, a server that commits
    /// its headers with the first byte) leaves the client waiting on a silent stream all the same. A POST's
    /// wait before its head is the request's (MCP-REQUEST-STALLED), not the stream's.
    pub fn idle_since(&mut self, ts: Timestamp) {
        self.last_activity = self.last_activity.min(ts);
    }

    fn activity(&mut self, ts: Timestamp) {
        self.opened = true;
        let gap = ts.since(self.last_activity).0 / 1_000_000;
        self.max_silence_ms = self.max_silence_ms.max(gap);
        self.last_activity = self.last_activity.max(ts);
    }

    /// An event arrived: timing and burst bookkeeping (the cursor is stepped by the caller, who knows the
    /// session's ids).
    pub fn event(&mut self, ts: Timestamp, retry: bool) {
        self.activity(ts);
        self.events += 1;
        self.retry_seen |= retry;
        let silence = ts.since(self.last_event).0 / 1_000_000;
        if silence > self.burst_silence_ms {
            self.burst_silence_ms = silence;
            self.burst_start = ts;
            self.burst_events = 1;
        } else if ts.since(self.burst_start).0 / 1_000_000 <= BURST_WINDOW_MS {
            self.burst_events += 1;
        }
        self.last_event = self.last_event.max(ts);
    }

    pub fn comment(&mut self, ts: Timestamp) {
        let opening = !self.opened && ts.since(self.head_ts).0 / 1_000_000 <= OPENING_MS;
        if !opening {
            self.keepalives += 1;
        }
        self.activity(ts);
    }

    /// A blank line that dispatched no event: the stream is not silent, though no keep-alive comment came.
    pub fn blank_line(&mut self, ts: Timestamp) {
        self.activity(ts);
    }

    /// The stream ended at `ts`: the silence before the end counts too.
    pub fn end(&mut self, ts: Timestamp) {
        self.activity(ts);
    }

    pub fn duration_ms(&self, end: Timestamp) -> i64 {
        end.since(self.head_ts).0 / 1_000_000
    }

    /// Marks a response id as delivered; returns whether the stream owed it.
    pub fn answer(&mut self, id: &Id) -> bool {
        match self.pending.iter().position(|p| p == id) {
            Some(i) => {
                self.pending.swap_remove(i);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn ms(n: i64) -> Timestamp {
        Timestamp(n * 1_000_000)
    }

    #[test]
    fn stream_burst_after_silence_is_counted() {
        let mut s = StreamTrack::new(1, ms(0), false, Ids::new());
        s.event(ms(100), false);
        s.event(ms(12_000), false);
        s.event(ms(12_010), false);
        s.event(ms(12_050), false);
        s.end(ms(12_060));
        assert_eq!(s.burst_silence_ms, 11_900);
        assert_eq!(s.burst_events, 3);
        assert_eq!(s.max_silence_ms, 11_900);
    }

    #[test]
    fn stream_silence_includes_the_end_and_comments_break_it() {
        let mut s = StreamTrack::new(1, ms(0), false, Ids::new());
        s.event(ms(10), false);
        s.end(ms(40_010));
        assert_eq!(s.max_silence_ms, 40_000);
        let mut k = StreamTrack::new(1, ms(0), false, Ids::new());
        for t in (10_000..=40_000).step_by(10_000) {
            k.comment(ms(t));
        }
        k.end(ms(41_000));
        assert_eq!(k.max_silence_ms, 10_000);
        assert_eq!(k.keepalives, 4);
        // A comment that opens the stream with its head keeps nothing alive (kubernetes-mcp-server's `: ok`,
        // samples/ecosystem/situations6-idle-go-nginx-ts.pcap); one after it does, and so does a first comment
        // that comes after a silence (the keep-alives above).
        let mut o = StreamTrack::new(1, ms(0), false, Ids::new());
        o.comment(ms(5));
        o.end(ms(60_000));
        assert_eq!((o.max_silence_ms, o.keepalives), (59_995, 0));
        o.comment(ms(60_001));
        assert_eq!(o.keepalives, 1);
        // Blank lines break it too, though they are no keep-alive comments.
        let mut b = StreamTrack::new(1, ms(0), false, Ids::new());
        for t in (12_000..=48_000).step_by(12_000) {
            b.blank_line(ms(t));
        }
        b.end(ms(60_000));
        assert_eq!((b.max_silence_ms, b.keepalives), (12_000, 0));
    }

    #[test]
    fn stream_answer_removes_pending() {
        let mut s = StreamTrack::new(1, ms(0), false, smallvec::smallvec![Id::Num(3), Id::Num(4)]);
        assert!(s.answer(&Id::Num(3)));
        assert!(!s.answer(&Id::Num(3)));
        assert_eq!(s.pending.as_slice(), [Id::Num(4)]);
    }
}

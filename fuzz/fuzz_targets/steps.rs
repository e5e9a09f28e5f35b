//! The driver the HTTP targets share: fuzzed bytes read as steps, each one control byte (direction, action,
//! length) and then that many bytes, fed to a connection as data, a gap or an end, then both directions ended
//! as at the end of a capture. Included by `http.rs` and `h2.rs` (`#[path]`), not a target of its own.
use mcptap::decode::flow_key::Direction;
use mcptap::http::switch::HttpConn;
use mcptap::http::{HttpConnection, HttpEvent};
use mcptap::reassembly::EndReason;
use mcptap::time::Timestamp;

/// What a driven connection takes: the HTTP/1.1 parser, or the HTTP/1.1-or-2 switch.
pub trait Conn {
    fn data(&mut self, dir: Direction, bytes: &[u8], frame: u64, ts: Timestamp, out: &mut dyn FnMut(HttpEvent<'_>));
    fn gap(&mut self, dir: Direction, len: u64, frame: u64, ts: Timestamp, out: &mut dyn FnMut(HttpEvent<'_>));
    fn end(&mut self, dir: Direction, reason: EndReason, frame: u64, ts: Timestamp, out: &mut dyn FnMut(HttpEvent<'_>));
}

macro_rules! conn {
    ($t:ty) => {
        impl Conn for $t {
            fn data(&mut self, dir: Direction, bytes: &[u8], frame: u64, ts: Timestamp, mut out: &mut dyn FnMut(HttpEvent<'_>)) {
                <$t>::data(self, dir, bytes, frame, ts, &mut out)
            }
            fn gap(&mut self, dir: Direction, len: u64, frame: u64, ts: Timestamp, mut out: &mut dyn FnMut(HttpEvent<'_>)) {
                <$t>::gap(self, dir, len, frame, ts, &mut out)
            }
            fn end(&mut self, dir: Direction, reason: EndReason, frame: u64, ts: Timestamp, mut out: &mut dyn FnMut(HttpEvent<'_>)) {
                <$t>::end(self, dir, reason, frame, ts, &mut out)
            }
        }
    };
}
conn!(HttpConnection);
conn!(HttpConn);

/// Feeds the steps of `rest` to `conn`, then ends both directions; returns the number of events.
pub fn drive(conn: &mut impl Conn, mut rest: &[u8]) -> u64 {
    let mut events = 0u64;
    let mut out = |_ev: HttpEvent<'_>| events += 1;
    let mut frame = 0u64;
    while let Some((&c, tail)) = rest.split_first() {
        frame += 1;
        let dir = if c & 0x80 != 0 { Direction::ToClient } else { Direction::ToServer };
        let ts = Timestamp::from_secs_nanos(frame as i64, 0);
        rest = tail;
        match (c >> 5) & 3 {
            0 | 1 => {
                let len = usize::from(c & 0x3f).max(1).min(tail.len());
                let (chunk, tail) = tail.split_at(len);
                conn.data(dir, chunk, frame, ts, &mut out);
                rest = tail;
            }
            2 => conn.gap(dir, u64::from(c & 0x1f) + 1, frame, ts, &mut out),
            _ => {
                let reason = if c & 1 != 0 { EndReason::Fin } else { EndReason::Rst };
                conn.end(dir, reason, frame, ts, &mut out);
            }
        }
    }
    for dir in [Direction::ToServer, Direction::ToClient] {
        conn.end(dir, EndReason::EndOfCapture, frame + 1, Timestamp::from_secs_nanos(frame as i64 + 1, 0), &mut out);
    }
    events
}

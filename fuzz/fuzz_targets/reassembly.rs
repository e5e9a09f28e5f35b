//! TCP reassembly driven by a fuzzed sequence of segments over a few 4-tuples: flags, sequence and ack
//! numbers, payload lengths and timestamps all come from the input, so overlaps, wraparound, reuse and
//! eviction are all reachable. Small limits make the caps reachable too.
#![no_main]
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use libfuzzer_sys::fuzz_target;
use mcptap::decode::{Check, TcpFlags, TcpSegment};
use mcptap::limits::Limits;
use mcptap::reassembly::FlowTable;
use mcptap::time::Timestamp;

fn addr(host: u8, port: u16) -> SocketAddr {
    SocketAddr::new(IpAddr::V4(Ipv4Addr::new(10, 0, 0, host)), port)
}

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_connections: 3,
        max_ooo_bytes_per_stream: 512,
        max_ooo_bytes_total: 2048,
        conn_idle_secs: 5,
        ..Limits::default()
    };
    let mut table = FlowTable::new(&limits);
    let mut events = 0u64;
    let mut out = |_ev: mcptap::reassembly::FlowEvent<'_>| events += 1;
    let mut rest = data;
    let mut frame = 0u64;
    let mut secs = 0i64;
    // One segment: 12 header bytes then up to 63 payload bytes.
    while rest.len() >= 12 {
        let (h, tail) = rest.split_at(12);
        let tuple = h[0] & 7;
        let flags = h[1];
        let seq = u32::from_be_bytes([h[2], h[3], h[4], h[5]]);
        let ack = u32::from_be_bytes([h[6], h[7], h[8], h[9]]);
        let len = usize::from(h[10] & 63).min(tail.len());
        secs += i64::from(h[11] >> 4);
        let (payload, tail) = tail.split_at(len);
        rest = tail;
        frame += 1;
        let (client, server) = (addr(1 + (tuple & 1), 40000 + u16::from(tuple >> 1)), addr(9, 80));
        let (src, dst) = if flags & 0x80 != 0 { (server, client) } else { (client, server) };
        let seg = TcpSegment {
            frame,
            ts: Timestamp::from_secs_nanos(secs, u32::from(h[11] & 15) * 1000),
            src,
            dst,
            seq,
            ack,
            flags: TcpFlags {
                syn: flags & 1 != 0,
                ack: flags & 2 != 0,
                fin: flags & 4 != 0,
                rst: flags & 8 != 0,
                psh: flags & 16 != 0,
            },
            window: 65535,
            payload,
            missing: if flags & 32 != 0 { u32::from(h[10]) } else { 0 },
            tunnel: None,
            // Some segments' checksums claim damage: a sum that can only verify by chance.
            check: if h[11] & 16 != 0 { Check::Header(u16::from(h[10])) } else { Check::Unknown },
        };
        table.feed(&seg, &mut out);
        if flags & 64 != 0 {
            table.expire(seg.ts, &mut out);
        }
        assert!(table.held_bytes() <= limits.max_ooo_bytes_total, "held {} bytes", table.held_bytes());
        assert!(table.open_connections() <= limits.max_connections);
    }
    table.finish(Timestamp::from_secs_nanos(secs + 1, 0), &mut out);
    std::hint::black_box(events);
});

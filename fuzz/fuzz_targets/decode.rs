//! Packet decode on arbitrary bytes under every link type mcptap knows (and one it does not).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::capture::{LinkType, RawPacket};
use mcptap::time::Timestamp;

const LINKS: [LinkType; 9] = [
    LinkType::NULL,
    LinkType::ETHERNET,
    LinkType::RAW,
    LinkType::LOOP,
    LinkType::LINUX_SLL,
    LinkType::IPV4,
    LinkType::IPV6,
    LinkType::LINUX_SLL2,
    LinkType(147),
];

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let linktype = LINKS[usize::from(sel) % LINKS.len()];
    // wire_len may exceed the captured length (snap length) or not.
    let wire_len = (rest.len() as u32).saturating_add(u32::from(sel >> 4) * 100);
    let pkt = RawPacket { frame: 1, ts: Timestamp::from_secs_nanos(1, 0), linktype, data: rest, wire_len };
    let _ = std::hint::black_box(mcptap::decode::decode(&pkt));
});

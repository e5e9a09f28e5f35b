//! Decode: `RawPacket` -> `TcpSegment` with etherparse. Drops what is not TCP over IPv4/IPv6; counts what
//! it cannot decode. The TCP payload length comes from the IP header, never the frame length, so Ethernet
//! padding never becomes stream bytes.
//!
//! Owns: link-layer dispatch by pcap link type (<https://www.tcpdump.org/linktypes.html>), slicing
//! IP and TCP headers (zero copy, with etherparse's `LaxIpSlice` and `TcpSlice`), and the `Skip` verdict
//! for everything else. Must not: keep state between packets, reassemble IP fragments, or allocate.
//!
//! Lengths. The IP payload ends where the IPv4 Total Length / IPv6 Payload Length says (etherparse
//! `LenSource::Ipv4HeaderTotalLen` / `Ipv6HeaderPayloadLen`): frames shorter than 60 bytes are padded on
//! Ethernet, and a trailing FCS may be captured, and neither is TCP data. When the snap length cut the
//! frame (the IP header announces more than was captured) the segment carries the bytes present in
//! `payload` and the count cut off in `missing`, as long as the IP and TCP headers themselves are
//! complete; reassembly turns `missing` into a gap. Two IP length quirks fall back to the captured
//! length, as etherparse's lax slicing does: an IPv4 Total Length below the header length (TSO/GSO
//! captures write 0 there) and an IPv6 Payload Length of 0 (jumbogram).
//!
//! Checksums are summed, not judged: each segment carries its `checksum::Check` (the pseudo-header and TCP
//! header summed, or the mark of an offloading sender), and reassembly decides per direction whether a
//! wrong sum means damage (`reassembly::trust`). A capture taken on a host with checksum offload records
//! outgoing packets before the NIC fills their checksums in, so valid traffic shows "bad" checksums
//! (Wireshark disables TCP checksum validation by default for this reason); dropping every such packet would
//! cut holes in every stream the host sent.

pub mod checksum;
pub mod flow_key;
pub mod tunnel;

use std::net::{IpAddr, SocketAddr};

use etherparse::{EtherType, Ethernet2Slice, IpNumber, LaxIpSlice, SingleVlanSlice, TcpSlice};

use crate::capture::{LinkType, RawPacket};
pub use checksum::{Check, ChecksumPolicy};
use tunnel::{Inner, Tunnel};
use crate::time::Timestamp;

/// TCP flags mcptap uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TcpFlags {
    pub syn: bool,
    pub ack: bool,
    pub fin: bool,
    pub rst: bool,
    pub psh: bool,
}

/// One TCP segment, borrowing the packet.
#[derive(Debug, Clone, Copy)]
pub struct TcpSegment<'a> {
    pub frame: u64,
    pub ts: Timestamp,
    pub src: SocketAddr,
    pub dst: SocketAddr,
    pub seq: u32,
    pub ack: u32,
    pub flags: TcpFlags,
    pub window: u16,
    /// Payload bytes present in the capture.
    pub payload: &'a [u8],
    /// Payload bytes the IP header announces but the snap length cut off (a gap after `payload`).
    pub missing: u32,
    /// The outermost tunnel the segment was found in (`tunnel`), if any.
    pub tunnel: Option<Tunnel>,
    /// What its TCP checksum can tell, the payload not yet added (`Check::verify`).
    pub check: Check,
}

impl TcpSegment<'_> {
    /// The server a handshake segment names (RFC 9293 §3.5: a SYN goes to it, a SYN-ACK comes from it);
    /// `None` for any other segment, a SYN with RST included.
    pub fn handshake_server(&self) -> Option<SocketAddr> {
        match (self.flags.syn && !self.flags.rst, self.flags.ack) {
            (true, false) => Some(self.dst),
            (true, true) => Some(self.src),
            (false, _) => None,
        }
    }
}

/// Why a packet was not turned into a segment. Counted in the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skip {
    /// Valid, but not TCP over IP (ARP, UDP, ICMP, ...).
    NotTcp,
    /// A link type mcptap does not decode.
    UnsupportedLinkType,
    /// Headers that do not parse (truncated or malformed).
    Malformed,
    /// An IP fragment (mcptap does not reassemble IP fragments).
    Fragment,
}

/// Whether `decode` knows the link type (every other one is `Skip::UnsupportedLinkType`).
pub fn supported(lt: LinkType) -> bool {
    matches!(
        lt,
        LinkType::ETHERNET | LinkType::LINUX_SLL | LinkType::LINUX_SLL2 | LinkType::RAW | LinkType::IPV4 | LinkType::IPV6 | LinkType::NULL | LinkType::LOOP
    )
}

/// Slices one packet down to its TCP segment, its checksum summed. Never panics on any input (see the
/// proptests below).
pub fn decode<'a>(pkt: &RawPacket<'a>) -> Result<TcpSegment<'a>, Skip> {
    decode_with(pkt, ChecksumPolicy::Auto)
}

/// As [`decode`], summing the checksum only if the policy reads it.
pub fn decode_with<'a>(pkt: &RawPacket<'a>, checksums: ChecksumPolicy) -> Result<TcpSegment<'a>, Skip> {
    let data = pkt.data;
    let ip = match pkt.linktype {
        LinkType::ETHERNET => ethernet(data)?,
        LinkType::LINUX_SLL => linux_sll(data)?,
        LinkType::LINUX_SLL2 => linux_sll2(data)?,
        // LINKTYPE_RAW: "the packet begins with an IPv4 or IPv6 header, with the version field of the
        // header indicating whether it's an IPv4 or IPv6 header". LINKTYPE_IPV4/IPV6 are the same, with
        // the version fixed; reading the version nibble serves all three.
        LinkType::RAW | LinkType::IPV4 | LinkType::IPV6 => data,
        LinkType::NULL => bsd_loopback(data, false)?,
        LinkType::LOOP => bsd_loopback(data, true)?,
        _ => return Err(Skip::UnsupportedLinkType),
    };
    segment(pkt, ip, checksums)
}

// The link layers are walked with etherparse's per-layer slices (or by hand where etherparse has no
// parser), not with `LaxSlicedPacket`: that struct is several hundred bytes (room for three VLAN/MACsec
// extensions) and is moved by value through its parse steps, which cost more than the parse itself
// (a third of the decode time in a profile). Each function returns the bytes of the IP packet.

/// The bytes after the link layer when its protocol field says IPv4 or IPv6; `NotTcp` otherwise.
fn ip_or_not_tcp(ether_type: EtherType, payload: &[u8]) -> Result<&[u8], Skip> {
    if ether_type == EtherType::IPV4 || ether_type == EtherType::IPV6 {
        Ok(payload)
    } else {
        Err(Skip::NotTcp)
    }
}

/// LINKTYPE_ETHERNET: Ethernet II (IEEE 802.3 frames with a length field end up as `NotTcp`), then up to
/// three VLAN tags: IEEE 802.1Q (0x8100), 802.1ad QinQ service tags (0x88a8) and the pre-standard 0x9100
/// double tag, as etherparse's own `LaxSlicedPacket` follows them.
#[inline(always)]
fn ethernet(data: &[u8]) -> Result<&[u8], Skip> {
    let mut p = Ethernet2Slice::from_slice_without_fcs(data)
        .map_err(|_| Skip::Malformed)?
        .payload();
    for _ in 0..3 {
        if !matches!(
            p.ether_type,
            EtherType::VLAN_TAGGED_FRAME
                | EtherType::PROVIDER_BRIDGING
                | EtherType::VLAN_DOUBLE_TAGGED_FRAME
        ) {
            break;
        }
        p = SingleVlanSlice::from_slice(p.payload)
            .map_err(|_| Skip::Malformed)?
            .payload();
    }
    ip_or_not_tcp(p.ether_type, p.payload)
}

/// ARPHRD_NETLINK: the SLL protocol field is a netlink protocol, not an EtherType.
const ARPHRD_NETLINK: u16 = 824;

/// LINKTYPE_LINUX_SLL (113), <https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html>: packet type (2),
/// ARPHRD_ type (2), link-layer address length (2), link-layer address (8), protocol type (2), all
/// big-endian, then the payload. Parsed here rather than with etherparse's `LinuxSllSlice`, which rejects
/// ARPHRD types it does not list, among them ARPHRD_LOOPBACK (772): with `tcpdump -i any` that is every
/// packet sent to localhost, where local MCP servers live.
fn linux_sll(data: &[u8]) -> Result<&[u8], Skip> {
    let (h, payload) = data.split_first_chunk::<16>().ok_or(Skip::Malformed)?;
    let arphrd = u16::from_be_bytes([h[2], h[3]]);
    let protocol = u16::from_be_bytes([h[14], h[15]]);
    linux_cooked(arphrd, protocol, payload)
}

/// LINKTYPE_LINUX_SLL2 (276), <https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html>: protocol type
/// (2), reserved (2), interface index (4), ARPHRD_ type (2), packet type (1), link-layer address length
/// (1), link-layer address (8), then the payload at offset 20. etherparse has no SLL2 parser.
fn linux_sll2(data: &[u8]) -> Result<&[u8], Skip> {
    let (h, payload) = data.split_first_chunk::<20>().ok_or(Skip::Malformed)?;
    let protocol = u16::from_be_bytes([h[0], h[1]]);
    let arphrd = u16::from_be_bytes([h[8], h[9]]);
    linux_cooked(arphrd, protocol, payload)
}

/// The protocol type is an EtherType except for netlink (and a few small values for non-Ethernet
/// framings, 0x0001..0x000D, which are not IP either). Linux strips VLAN tags before the cooked header.
fn linux_cooked(arphrd: u16, protocol: u16, payload: &[u8]) -> Result<&[u8], Skip> {
    if arphrd == ARPHRD_NETLINK {
        return Err(Skip::NotTcp);
    }
    ip_or_not_tcp(EtherType(protocol), payload)
}

/// LINKTYPE_NULL (0) and LINKTYPE_LOOP (108): a 4-byte address family, then the IP packet. NULL writes the
/// family in the capturing host's byte order, which the file does not record, so both orders are tried
/// (families are small numbers: the wrong order gives a value above 0xffff). LOOP is always big-endian.
/// AF_INET is 2 everywhere; AF_INET6 is 24 (NetBSD, OpenBSD, BSD/OS), 28 (FreeBSD, DragonFly), 30
/// (macOS) or 10 (Linux).
fn bsd_loopback(data: &[u8], network_order: bool) -> Result<&[u8], Skip> {
    let (h, payload) = data.split_first_chunk::<4>().ok_or(Skip::Malformed)?;
    let be = u32::from_be_bytes(*h);
    let family = if network_order {
        be
    } else {
        let le = u32::from_le_bytes(*h);
        if le <= 0xffff {
            le
        } else {
            be
        }
    };
    match family {
        2 | 10 | 24 | 28 | 30 => Ok(payload),
        _ => Err(Skip::NotTcp),
    }
}

/// Tunnels inside tunnels followed before a packet is given up as `NotTcp` (a mirror of an overlay is two).
const MAX_TUNNELS: usize = 3;

/// The TCP segment in an IP packet, inside tunnels or not, or why there is none.
fn segment<'a>(pkt: &RawPacket<'a>, data: &'a [u8], checksums: ChecksumPolicy) -> Result<TcpSegment<'a>, Skip> {
    ip_packet(pkt, data, MAX_TUNNELS, checksums)
}

/// A packet that is not TCP: the segment inside it if it is a tunnel (`tunnels_left` more may follow),
/// marked with the outermost one. Kept out of line: nearly every packet of a capture is TCP, and the
/// segment it returns is built where the TCP is found, never moved through a loop.
#[cold]
#[inline(never)]
fn tunnelled<'a>(pkt: &RawPacket<'a>, proto: IpNumber, payload: &'a [u8], tunnels_left: usize, checksums: ChecksumPolicy) -> Result<TcpSegment<'a>, Skip> {
    let (tunnel, inner) = tunnel::peel(proto, payload)?;
    let Some(left) = tunnels_left.checked_sub(1) else { return Err(Skip::NotTcp) };
    let ip = match inner {
        Inner::Ethernet(frame) => ethernet(frame)?,
        Inner::Ip(packet) => packet,
    };
    let mut seg = ip_packet(pkt, ip, left, checksums)?;
    // Set on the way out, so the outermost tunnel is the one that stays.
    seg.tunnel = Some(tunnel);
    Ok(seg)
}

/// The TCP segment in one IP packet, or in the tunnel it is, or why there is neither. Inlined into `decode`
/// (the hot path, as before tunnels); `tunnelled` calls its own copy.
#[inline(always)]
fn ip_packet<'a>(pkt: &RawPacket<'a>, data: &'a [u8], tunnels_left: usize, checksums: ChecksumPolicy) -> Result<TcpSegment<'a>, Skip> {
    // The IP version comes from the first nibble; etherparse checks IHL, the header lengths, and walks
    // IPv4 AH and the IPv6 extension headers. An error in those extensions comes back on the side.
    let (ip, ext_error) = LaxIpSlice::from_slice(data).map_err(|_| Skip::Malformed)?;
    // (source, destination, IP payload, payload length the IP header announces, extension bytes).
    let (src, dst, payload, announced, ext_len) = match &ip {
        LaxIpSlice::Ipv4(v4) => {
            let h = v4.header();
            (
                IpAddr::V4(h.source_addr()),
                IpAddr::V4(h.destination_addr()),
                v4.payload(),
                usize::from(h.total_len()).saturating_sub(h.slice().len()),
                v4.extensions().auth.map_or(0, |a| a.slice().len()),
            )
        }
        LaxIpSlice::Ipv6(v6) => {
            let h = v6.header();
            (
                IpAddr::V6(h.source_addr()),
                IpAddr::V6(h.destination_addr()),
                v6.payload(),
                usize::from(h.payload_length()),
                v6.extensions().slice().len(),
            )
        }
    };
    if payload.fragmented {
        return Err(Skip::Fragment);
    }
    if ext_error.is_some() {
        // IP extension headers that do not parse: nothing says what follows them.
        return Err(Skip::Malformed);
    }
    if payload.ip_number != IpNumber::TCP {
        return tunnelled(pkt, payload.ip_number, payload.payload, tunnels_left, checksums);
    }
    // A TCP header cut short, or with a data offset below 5 or beyond the bytes present.
    let tcp = TcpSlice::from_slice(payload.payload).map_err(|_| Skip::Malformed)?;
    // `incomplete`: the capture holds less than the IP header announces. The TCP header parsed, so all
    // of the shortfall is TCP payload.
    let missing = if payload.incomplete {
        announced.saturating_sub(ext_len.saturating_add(payload.payload.len()))
    } else {
        0
    };
    let check = if missing > 0 || checksums == ChecksumPolicy::Off {
        Check::Unknown
    } else {
        let (header, field, len) = (tcp.header_slice(), tcp.checksum(), tcp.slice().len());
        match (src, dst) {
            (IpAddr::V4(s), IpAddr::V4(d)) => Check::of(&s.octets(), &d.octets(), len, header, field),
            (IpAddr::V6(s), IpAddr::V6(d)) => Check::of(&s.octets(), &d.octets(), len, header, field),
            _ => Check::Unknown,
        }
    };
    Ok(TcpSegment {
        frame: pkt.frame,
        ts: pkt.ts,
        src: SocketAddr::new(src, tcp.source_port()),
        dst: SocketAddr::new(dst, tcp.destination_port()),
        seq: tcp.sequence_number(),
        ack: tcp.acknowledgment_number(),
        flags: TcpFlags {
            syn: tcp.syn(),
            ack: tcp.ack(),
            fin: tcp.fin(),
            rst: tcp.rst(),
            psh: tcp.psh(),
        },
        window: tcp.window_size(),
        payload: tcp.payload(),
        missing: u32::try_from(missing).unwrap_or(u32::MAX),
        tunnel: None,
        check,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;
    use proptest::prelude::*;

    /// IPv4 + TCP + "hello": 10.0.0.1:50000 -> 10.0.0.2:80.
    const IPV4_TCP: [u8; 45] = [
        0x45, // version 4, IHL 5 (20 bytes)
        0x00, // DSCP, ECN
        0x00, 0x2d, // total length 45 = 20 IP + 20 TCP + 5 payload
        0x12, 0x34, // identification
        0x40, 0x00, // flags DF, fragment offset 0
        0x40, // TTL 64
        0x06, // protocol TCP
        0x00, 0x00, // header checksum (not verified)
        10, 0, 0, 1, // source 10.0.0.1
        10, 0, 0, 2, // destination 10.0.0.2
        // TCP
        0xc3, 0x50, // source port 50000
        0x00, 0x50, // destination port 80
        0x00, 0x00, 0x03, 0xe8, // sequence number 1000
        0x00, 0x00, 0x07, 0xd0, // acknowledgment number 2000
        0x50, // data offset 5 (20 bytes)
        0x18, // flags PSH ACK
        0x72, 0x10, // window 29200
        0x00, 0x00, // checksum (not verified)
        0x00, 0x00, // urgent pointer
        b'h', b'e', b'l', b'l', b'o', // payload
    ];
    const IPV4_HEADERS: usize = 40;

    /// IPv6 + TCP + "hello": [2001:db8::1]:50000 -> [2001:db8::2]:443.
    const IPV6_TCP: [u8; 65] = [
        0x60, 0x00, 0x00, 0x00, // version 6, traffic class 0, flow label 0
        0x00, 0x19, // payload length 25 = 20 TCP + 5 payload
        0x06, // next header TCP
        0x40, // hop limit 64
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, // source 2001:db8::1
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x02, // destination 2001:db8::2
        // TCP
        0xc3, 0x50, // source port 50000
        0x01, 0xbb, // destination port 443
        0xff, 0xff, 0xff, 0xff, // sequence number 4294967295
        0x00, 0x00, 0x00, 0x00, // acknowledgment number 0
        0x50, // data offset 5
        0x03, // flags SYN FIN (odd, but flags are reported as seen)
        0x00, 0x00, // window 0
        0x00, 0x00, // checksum
        0x00, 0x00, // urgent pointer
        b'h', b'e', b'l', b'l', b'o', // payload
    ];
    const IPV6_HEADERS: usize = 60;

    /// Ethernet II, EtherType IPv4.
    const ETH_IPV4: [u8; 14] = [
        0x02, 0, 0, 0, 0, 0x02, // destination MAC
        0x02, 0, 0, 0, 0, 0x01, // source MAC
        0x08, 0x00, // EtherType IPv4
    ];
    /// Ethernet II, EtherType 802.1Q.
    const ETH_DOT1Q: [u8; 14] = [
        0x02, 0, 0, 0, 0, 0x02, // destination MAC
        0x02, 0, 0, 0, 0, 0x01, // source MAC
        0x81, 0x00, // EtherType 802.1Q VLAN tag
    ];
    /// Ethernet II, EtherType 802.1ad (QinQ service tag).
    const ETH_QINQ: [u8; 14] = [
        0x02, 0, 0, 0, 0, 0x02, // destination MAC
        0x02, 0, 0, 0, 0, 0x01, // source MAC
        0x88, 0xa8, // EtherType 802.1ad S-tag
    ];
    /// 802.1ad S-tag body: PCP 0, VID 200; next 802.1Q.
    const S_TAG: [u8; 4] = [0x00, 0xc8, 0x81, 0x00];
    /// 802.1Q C-tag body: PCP 0, VID 100; next IPv4.
    const C_TAG_IPV4: [u8; 4] = [0x00, 0x64, 0x08, 0x00];
    /// Linux cooked v1, as `tcpdump -i any` writes it for loopback traffic.
    const SLL_LOOPBACK_IPV4: [u8; 16] = [
        0x00, 0x00, // packet type: to us
        0x03, 0x04, // ARPHRD_LOOPBACK (772)
        0x00, 0x06, // link-layer address length 6
        0, 0, 0, 0, 0, 0, 0, 0, // link-layer address (padded to 8)
        0x08, 0x00, // protocol: EtherType IPv4
    ];
    /// Linux cooked v2.
    const SLL2_ETHER_IPV6: [u8; 20] = [
        0x86, 0xdd, // protocol: EtherType IPv6
        0x00, 0x00, // reserved
        0x00, 0x00, 0x00, 0x02, // interface index 2
        0x00, 0x01, // ARPHRD_ETHER
        0x04, // packet type: outgoing
        0x06, // link-layer address length 6
        0x02, 0, 0, 0, 0, 0x01, 0, 0, // link-layer address (padded to 8)
    ];
    const NULL_INET_LE: [u8; 4] = [2, 0, 0, 0]; // AF_INET, little-endian host
    const NULL_INET_BE: [u8; 4] = [0, 0, 0, 2]; // AF_INET, big-endian host
    const NULL_INET6_MACOS_LE: [u8; 4] = [30, 0, 0, 0]; // AF_INET6 on macOS
    const LOOP_INET: [u8; 4] = [0, 0, 0, 2]; // AF_INET, always network order

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    fn pkt(linktype: LinkType, data: &[u8]) -> RawPacket<'_> {
        RawPacket {
            frame: 7,
            ts: Timestamp(42),
            linktype,
            data,
            wire_len: data.len() as u32,
        }
    }

    fn dec(linktype: LinkType, data: &[u8]) -> Result<TcpSegment<'_>, Skip> {
        decode(&pkt(linktype, data))
    }

    fn assert_v4_hello(seg: &TcpSegment<'_>) {
        assert_eq!(seg.src, "10.0.0.1:50000".parse().unwrap());
        assert_eq!(seg.dst, "10.0.0.2:80".parse().unwrap());
        assert_eq!(seg.payload, b"hello");
        assert_eq!(seg.missing, 0);
    }

    #[test]
    fn ethernet_ipv4_tcp_fills_every_field() {
        let frame = cat(&[&ETH_IPV4, &IPV4_TCP]);
        let seg = dec(LinkType::ETHERNET, &frame).unwrap();
        assert_v4_hello(&seg);
        assert_eq!((seg.frame, seg.ts), (7, Timestamp(42)));
        assert_eq!((seg.seq, seg.ack, seg.window), (1000, 2000, 29200));
        assert_eq!(
            seg.flags,
            TcpFlags {
                syn: false,
                ack: true,
                fin: false,
                rst: false,
                psh: true
            }
        );
    }

    #[test]
    fn ipv6_tcp_fills_every_field() {
        let seg = dec(LinkType::RAW, &IPV6_TCP).unwrap();
        assert_eq!(seg.src, "[2001:db8::1]:50000".parse().unwrap());
        assert_eq!(seg.dst, "[2001:db8::2]:443".parse().unwrap());
        assert_eq!((seg.seq, seg.ack, seg.window), (u32::MAX, 0, 0));
        assert_eq!(
            seg.flags,
            TcpFlags {
                syn: true,
                ack: false,
                fin: true,
                rst: false,
                psh: false
            }
        );
        assert_eq!((seg.payload, seg.missing), (&b"hello"[..], 0));
    }

    #[test]
    fn vlan_and_qinq_tags_are_followed() {
        let vlan = cat(&[&ETH_DOT1Q, &C_TAG_IPV4, &IPV4_TCP]);
        assert_v4_hello(&dec(LinkType::ETHERNET, &vlan).unwrap());
        let qinq = cat(&[&ETH_QINQ, &S_TAG, &C_TAG_IPV4, &IPV4_TCP]);
        assert_v4_hello(&dec(LinkType::ETHERNET, &qinq).unwrap());
    }

    #[test]
    fn linux_sll_loopback_and_sll2() {
        let sll = cat(&[&SLL_LOOPBACK_IPV4, &IPV4_TCP]);
        assert_v4_hello(&dec(LinkType::LINUX_SLL, &sll).unwrap());
        let sll2 = cat(&[&SLL2_ETHER_IPV6, &IPV6_TCP]);
        assert_eq!(dec(LinkType::LINUX_SLL2, &sll2).unwrap().payload, b"hello");
    }

    #[test]
    fn linux_sll_netlink_and_non_ip_are_not_tcp() {
        let mut netlink = cat(&[&SLL_LOOPBACK_IPV4, &IPV4_TCP]);
        netlink[2..4].copy_from_slice(&824u16.to_be_bytes()); // ARPHRD_NETLINK
        assert_eq!(
            dec(LinkType::LINUX_SLL, &netlink).unwrap_err(),
            Skip::NotTcp
        );
        let mut arp = cat(&[&SLL_LOOPBACK_IPV4, &[0; 28]]);
        arp[14..16].copy_from_slice(&[0x08, 0x06]); // EtherType ARP
        assert_eq!(dec(LinkType::LINUX_SLL, &arp).unwrap_err(), Skip::NotTcp);
    }

    #[test]
    fn null_in_both_byte_orders_and_loop() {
        assert_v4_hello(&dec(LinkType::NULL, &cat(&[&NULL_INET_LE, &IPV4_TCP])).unwrap());
        assert_v4_hello(&dec(LinkType::NULL, &cat(&[&NULL_INET_BE, &IPV4_TCP])).unwrap());
        assert_eq!(
            dec(LinkType::NULL, &cat(&[&NULL_INET6_MACOS_LE, &IPV6_TCP]))
                .unwrap()
                .payload,
            b"hello"
        );
        for af6 in [10u32, 24, 28, 30] {
            let d = cat(&[&af6.to_be_bytes(), &IPV6_TCP]);
            assert!(dec(LinkType::NULL, &d).is_ok(), "AF_INET6 = {af6}");
            assert!(dec(LinkType::LOOP, &d).is_ok(), "AF_INET6 = {af6}");
        }
        assert_v4_hello(&dec(LinkType::LOOP, &cat(&[&LOOP_INET, &IPV4_TCP])).unwrap());
        // LOOP is network order only: a little-endian family is some other protocol.
        assert_eq!(
            dec(LinkType::LOOP, &cat(&[&NULL_INET_LE, &IPV4_TCP])).unwrap_err(),
            Skip::NotTcp
        );
        // AF_APPLETALK etc.
        assert_eq!(
            dec(LinkType::NULL, &cat(&[&[17, 0, 0, 0], &IPV4_TCP])).unwrap_err(),
            Skip::NotTcp
        );
    }

    #[test]
    fn raw_ip_link_types_read_the_version_nibble() {
        for lt in [LinkType::RAW, LinkType::IPV4] {
            assert_v4_hello(&dec(lt, &IPV4_TCP).unwrap());
        }
        for lt in [LinkType::RAW, LinkType::IPV6] {
            assert_eq!(dec(lt, &IPV6_TCP).unwrap().payload, b"hello");
        }
        let mut v5 = IPV4_TCP;
        v5[0] = 0x55; // IP version 5
        assert_eq!(dec(LinkType::RAW, &v5).unwrap_err(), Skip::Malformed);
    }

    #[test]
    fn ethernet_padding_never_becomes_payload() {
        // A bare ACK: IPv4 total length 40, padded to the 60-byte Ethernet minimum with junk.
        let mut ack = IPV4_TCP[..IPV4_HEADERS].to_vec();
        ack[2..4].copy_from_slice(&40u16.to_be_bytes());
        let frame = cat(&[&ETH_IPV4, &ack, &[0xee; 6]]);
        assert_eq!(frame.len(), 60);
        let seg = dec(LinkType::ETHERNET, &frame).unwrap();
        assert_eq!((seg.payload, seg.missing), (&b""[..], 0));
        // With data: 59 bytes + 1 byte of padding + a 4-byte FCS.
        let frame = cat(&[&ETH_IPV4, &IPV4_TCP, &[0], &[0xde, 0xad, 0xbe, 0xef]]);
        assert_v4_hello(&dec(LinkType::ETHERNET, &frame).unwrap());
        // IPv6 likewise takes its payload length from the header.
        let frame = cat(&[&IPV6_TCP, &[0xee; 7]]);
        assert_eq!(dec(LinkType::RAW, &frame).unwrap().payload, b"hello");
    }

    /// An outer IPv4 header (192.0.2.1 -> 192.0.2.2) of protocol `proto` around `payload`.
    fn outer_v4(proto: u8, payload: &[u8]) -> Vec<u8> {
        let total = u16::try_from(20 + payload.len()).unwrap().to_be_bytes();
        cat(&[&[0x45, 0, total[0], total[1], 0, 0, 0x40, 0, 64, proto, 0, 0, 192, 0, 2, 1, 192, 0, 2, 2], payload])
    }

    fn vxlan(frame: &[u8]) -> Vec<u8> {
        let len = u16::try_from(16 + frame.len()).unwrap().to_be_bytes();
        outer_v4(17, &cat(&[&[0xc3, 0x51, 0x12, 0xb5, len[0], len[1], 0, 0], &[0x08, 0, 0, 0, 0, 0, 42, 0], frame]))
    }

    #[test]
    fn a_tunnelled_segment_is_the_inner_one_and_says_which_tunnel() {
        // VXLAN (UDP 4789) around Ethernet, VLAN tag and all, around IPv4 + TCP.
        let inner = cat(&[&ETH_DOT1Q, &C_TAG_IPV4, &IPV4_TCP]);
        let frame = cat(&[&ETH_IPV4, &vxlan(&inner)]);
        let seg = dec(LinkType::ETHERNET, &frame).unwrap();
        assert_v4_hello(&seg);
        assert_eq!((seg.frame, seg.tunnel), (7, Some(Tunnel::Vxlan)));
        // GRE (key present) around IPv6 + TCP, on a raw IP capture.
        let gre = outer_v4(47, &cat(&[&[0x20, 0x00, 0x86, 0xdd, 0, 0, 0, 1], &IPV6_TCP]));
        let seg = dec(LinkType::RAW, &gre).unwrap();
        assert_eq!((seg.dst, seg.payload, seg.tunnel), ("[2001:db8::2]:443".parse().unwrap(), &b"hello"[..], Some(Tunnel::Gre)));
        // An IP-in-IP packet mirrored over VXLAN: the outermost tunnel is the one counted.
        let nested = vxlan(&cat(&[&ETH_IPV4, &outer_v4(4, &IPV4_TCP)]));
        let seg = dec(LinkType::RAW, &nested).unwrap();
        assert_v4_hello(&seg);
        assert_eq!(seg.tunnel, Some(Tunnel::Vxlan));
        // A captured segment says no tunnel.
        assert_eq!(dec(LinkType::RAW, &IPV4_TCP).unwrap().tunnel, None);
    }

    #[test]
    fn no_sum_is_taken_when_checksums_are_off_tunnelled_or_not() {
        let plain = cat(&[&ETH_IPV4, &IPV4_TCP]);
        let tunnelled = cat(&[&ETH_IPV4, &vxlan(&plain)]);
        for frame in [&plain, &tunnelled] {
            let p = pkt(LinkType::ETHERNET, frame);
            let summed = decode(&p).unwrap();
            assert!(matches!(summed.check, Check::Header(_) | Check::Offloaded), "{:?}", summed.check);
            let unsummed = decode_with(&p, ChecksumPolicy::Off).unwrap();
            assert_eq!(unsummed.check, Check::Unknown);
            // Nothing else about the segment changes.
            assert_eq!(format!("{:?}", TcpSegment { check: summed.check, ..unsummed }), format!("{summed:?}"));
        }
    }

    #[test]
    fn a_tunnel_cut_by_the_snap_length_misses_inner_bytes_and_too_deep_a_nest_is_dropped() {
        let frame = vxlan(&cat(&[&ETH_IPV4, &IPV4_TCP]));
        let seg = dec(LinkType::RAW, &frame[..frame.len() - 3]).unwrap();
        assert_eq!((seg.payload, seg.missing), (&b"he"[..], 3));
        // Three tunnels, one inside the other, are followed; a fourth is not.
        let mut p = IPV4_TCP.to_vec();
        for _ in 0..3 {
            p = outer_v4(4, &p);
        }
        assert_v4_hello(&dec(LinkType::RAW, &p).unwrap());
        assert_eq!(dec(LinkType::RAW, &outer_v4(4, &p)).unwrap_err(), Skip::NotTcp);
        // Plain UDP and a damaged tunnel header are what they were.
        assert_eq!(dec(LinkType::RAW, &outer_v4(17, &[0, 53, 0, 53, 0, 8, 0, 0])).unwrap_err(), Skip::NotTcp);
        assert_eq!(dec(LinkType::RAW, &outer_v4(47, &[0xb0, 0, 0x65, 0x58])).unwrap_err(), Skip::Malformed);
    }

    #[test]
    fn snap_truncated_payload_reports_missing_bytes() {
        let frame = cat(&[&ETH_IPV4, &IPV4_TCP]);
        let seg = dec(LinkType::ETHERNET, &frame[..frame.len() - 3]).unwrap();
        assert_eq!((seg.payload, seg.missing), (&b"he"[..], 3));
        let seg = dec(LinkType::ETHERNET, &frame[..14 + IPV4_HEADERS]).unwrap();
        assert_eq!((seg.payload, seg.missing), (&b""[..], 5));
        let seg = dec(LinkType::RAW, &IPV6_TCP[..IPV6_HEADERS + 1]).unwrap();
        assert_eq!((seg.payload, seg.missing), (&b"h"[..], 4));
    }

    #[test]
    fn truncated_headers_at_every_length_are_malformed() {
        let cases: [(LinkType, Vec<u8>, usize); 7] = [
            (
                LinkType::ETHERNET,
                cat(&[&ETH_IPV4, &IPV4_TCP]),
                14 + IPV4_HEADERS,
            ),
            (
                LinkType::ETHERNET,
                cat(&[&ETH_QINQ, &S_TAG, &C_TAG_IPV4, &IPV4_TCP]),
                22 + IPV4_HEADERS,
            ),
            (
                LinkType::LINUX_SLL,
                cat(&[&SLL_LOOPBACK_IPV4, &IPV4_TCP]),
                16 + IPV4_HEADERS,
            ),
            (
                LinkType::LINUX_SLL2,
                cat(&[&SLL2_ETHER_IPV6, &IPV6_TCP]),
                20 + IPV6_HEADERS,
            ),
            (
                LinkType::NULL,
                cat(&[&NULL_INET_LE, &IPV4_TCP]),
                4 + IPV4_HEADERS,
            ),
            (
                LinkType::LOOP,
                cat(&[&LOOP_INET, &IPV4_TCP]),
                4 + IPV4_HEADERS,
            ),
            (LinkType::RAW, IPV6_TCP.to_vec(), IPV6_HEADERS),
        ];
        for (lt, frame, headers) in cases {
            for len in 0..headers {
                assert_eq!(
                    dec(lt, &frame[..len]).unwrap_err(),
                    Skip::Malformed,
                    "{lt:?} cut at {len}"
                );
            }
            assert!(
                dec(lt, &frame[..headers]).is_ok(),
                "{lt:?} with complete headers"
            );
        }
    }

    #[test]
    fn bad_tcp_data_offset_is_malformed() {
        let mut p = IPV4_TCP;
        p[32] = 0x40; // data offset 4 (< 5)
        assert_eq!(dec(LinkType::RAW, &p).unwrap_err(), Skip::Malformed);
        p[32] = 0xf0; // data offset 15: 60 bytes of header, more than the packet holds
        assert_eq!(dec(LinkType::RAW, &p).unwrap_err(), Skip::Malformed);
    }

    #[test]
    fn ip_fragments_are_skipped() {
        let mut more = IPV4_TCP;
        more[6] = 0x20; // MF set, offset 0: first fragment
        assert_eq!(dec(LinkType::RAW, &more).unwrap_err(), Skip::Fragment);
        let mut later = IPV4_TCP;
        later[6..8].copy_from_slice(&[0x00, 0x10]); // offset 16 * 8 bytes, last fragment
        assert_eq!(dec(LinkType::RAW, &later).unwrap_err(), Skip::Fragment);

        // IPv6 with a Fragment extension header (offset 0, M set) before TCP.
        let mut v6 = IPV6_TCP[..40].to_vec();
        v6[4..6].copy_from_slice(&33u16.to_be_bytes()); // payload length 8 + 25
        v6[6] = 44; // next header: Fragment
        v6.extend_from_slice(&[
            6, // next header TCP
            0, // reserved
            0x00, 0x01, // fragment offset 0, M = 1
            0, 0, 0, 9, // identification
        ]);
        v6.extend_from_slice(&IPV6_TCP[40..]);
        assert_eq!(dec(LinkType::RAW, &v6).unwrap_err(), Skip::Fragment);
    }

    #[test]
    fn ipv6_extension_headers_are_walked() {
        let mut v6 = IPV6_TCP[..40].to_vec();
        v6[4..6].copy_from_slice(&33u16.to_be_bytes()); // payload length 8 + 25
        v6[6] = 0; // next header: Hop-by-Hop Options
        v6.extend_from_slice(&[
            6, // next header TCP
            0, // header extension length: 8 bytes in total
            1, 4, 0, 0, 0, 0, // PadN option filling the header
        ]);
        v6.extend_from_slice(&IPV6_TCP[40..]);
        let seg = dec(LinkType::RAW, &v6).unwrap();
        assert_eq!((seg.payload, seg.missing), (&b"hello"[..], 0));
        let seg = dec(LinkType::RAW, &v6[..v6.len() - 2]).unwrap();
        assert_eq!(
            (seg.payload, seg.missing),
            (&b"hel"[..], 2),
            "missing excludes extension headers"
        );
    }

    #[test]
    fn ipv4_total_length_zero_falls_back_to_captured_length() {
        // TSO/GSO: the host hands the NIC one large segment with IP total length 0.
        let mut p = IPV4_TCP;
        p[2..4].copy_from_slice(&[0, 0]);
        assert_eq!(dec(LinkType::RAW, &p).unwrap().payload, b"hello");
    }

    #[test]
    fn non_tcp_is_not_tcp() {
        let mut udp = IPV4_TCP;
        udp[9] = 17; // protocol UDP; the TCP bytes read as an 8-byte UDP header + payload
        assert_eq!(dec(LinkType::RAW, &udp).unwrap_err(), Skip::NotTcp);
        let mut icmp = IPV4_TCP;
        icmp[9] = 1;
        assert_eq!(dec(LinkType::RAW, &icmp).unwrap_err(), Skip::NotTcp);
        let mut unknown = IPV4_TCP;
        unknown[9] = 253; // experimental
        assert_eq!(dec(LinkType::RAW, &unknown).unwrap_err(), Skip::NotTcp);

        let mut arp = cat(&[&ETH_IPV4, &[0u8; 28]]);
        arp[12..14].copy_from_slice(&[0x08, 0x06]);
        arp[14..22].copy_from_slice(&[0, 1, 8, 0, 6, 4, 0, 1]); // Ethernet/IPv4, request
        assert_eq!(dec(LinkType::ETHERNET, &arp).unwrap_err(), Skip::NotTcp);
        let mut lldp = cat(&[&ETH_IPV4, &[0u8; 30]]);
        lldp[12..14].copy_from_slice(&[0x88, 0xcc]);
        assert_eq!(dec(LinkType::ETHERNET, &lldp).unwrap_err(), Skip::NotTcp);
    }

    #[test]
    fn supported_agrees_with_decode() {
        for lt in (0..300).map(LinkType) {
            let unsupported = matches!(dec(lt, &[0u8; 64]), Err(Skip::UnsupportedLinkType));
            assert_eq!(supported(lt), !unsupported, "link type {}", lt.0);
        }
    }

    #[test]
    fn unknown_link_type_is_unsupported() {
        for lt in [
            LinkType(105),
            LinkType(127),
            LinkType(147),
            LinkType(u32::MAX),
        ] {
            assert_eq!(dec(lt, &IPV4_TCP).unwrap_err(), Skip::UnsupportedLinkType);
        }
    }

    fn any_linktype() -> impl Strategy<Value = LinkType> {
        prop_oneof![
            Just(LinkType::NULL),
            Just(LinkType::ETHERNET),
            Just(LinkType::RAW),
            Just(LinkType::LOOP),
            Just(LinkType::LINUX_SLL),
            Just(LinkType::IPV4),
            Just(LinkType::IPV6),
            Just(LinkType::LINUX_SLL2),
            any::<u32>().prop_map(LinkType),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn arbitrary_bytes_never_panic(lt in any_linktype(), data in proptest::collection::vec(any::<u8>(), 0..200)) {
            if let Ok(seg) = dec(lt, &data) {
                prop_assert!(seg.payload.len() <= data.len());
            }
        }

        #[test]
        fn mutated_valid_packets_never_panic(
            which in 0usize..4,
            edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..6),
            cut in any::<usize>(),
        ) {
            let (lt, mut frame) = match which {
                0 => (LinkType::ETHERNET, cat(&[&ETH_QINQ, &S_TAG, &C_TAG_IPV4, &IPV4_TCP])),
                1 => (LinkType::LINUX_SLL2, cat(&[&SLL2_ETHER_IPV6, &IPV6_TCP])),
                2 => (LinkType::NULL, cat(&[&NULL_INET_BE, &IPV4_TCP])),
                _ => (LinkType::LINUX_SLL, cat(&[&SLL_LOOPBACK_IPV4, &IPV4_TCP])),
            };
            for (at, byte) in edits {
                let n = frame.len();
                frame[at % n] = byte;
            }
            frame.truncate(cut % (frame.len() + 1));
            if let Ok(seg) = dec(lt, &frame) {
                prop_assert!(seg.payload.len() <= frame.len());
                prop_assert!(seg.payload.len() + seg.missing as usize <= 65535 + 40);
            }
        }
    }
}

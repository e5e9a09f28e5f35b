//! Tunnels: the encapsulations a sensor sees traffic through, peeled so that the TCP inside is analysed as if
//! it had been captured on the inner link. A mirror session (AWS VPC Traffic Mirroring: VXLAN; AWS Gateway
//! Load Balancer: GENEVE; a switch's remote SPAN: GRE with ERSPAN) or an overlay network (Kubernetes flannel:
//! VXLAN on 8472) delivers every packet of the link it copies inside one of these; Zeek and Suricata peel the
//! same set by default. Stateless and zero copy, as the rest of `decode`: each function returns the bytes of
//! the inner packet, and `decode` walks it as it walks a captured one (VLAN tags, IP, TCP, or another tunnel).
//!
//! - VXLAN, RFC 7348 §5: UDP to port 4789 (IANA) or 8472 (Linux's default before IANA assigned one, and
//!   flannel's), an 8-byte header whose flags carry the I bit (a valid VNI), then an Ethernet frame.
//! - GENEVE, RFC 8926 §3: UDP to port 6081, an 8-byte header and `Opt Len` 4-byte words of options, version 0;
//!   the protocol type is an EtherType (0x6558: an Ethernet frame; IPv4 or IPv6: the packet). A control
//!   packet (the O bit) carries no data of the link.
//! - GRE, RFC 2784 with RFC 2890's key and sequence number: version 0 (version 1 is PPTP's enhanced GRE, RFC
//!   2637), then the optional checksum, key and sequence fields by their flags. Source routing (RFC 1701's R
//!   bit, deprecated) is not followed. Payloads: 0x6558 (transparent Ethernet bridging, NVGRE), IPv4, IPv6,
//!   and ERSPAN.
//! - ERSPAN (draft-foschiano-erspan-03 §4): type I is GRE 0x88BE without a sequence number, the mirrored
//!   frame straight after; type II is 0x88BE with one, an 8-byte header of version 1; type III is 0x22EB, a
//!   12-byte header of version 2, an 8-byte platform-specific subheader when its O bit is set, and a frame
//!   type (0: Ethernet, 2: an IP packet).
//! - IP in IP: an IPv4 (protocol 4, RFC 2003) or IPv6 (protocol 41, RFC 2473) packet inside IPv4 or IPv6.
//!
//! A frame the mirroring switch truncated (ERSPAN's T bit) needs nothing here: its inner IP header announces
//! more than is present, and `decode` reports the shortfall as missing bytes, as for a snap length.

use etherparse::{EtherType, IpNumber, UdpSlice};

use super::Skip;

/// The outermost encapsulation a segment was found in (counted in the summary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tunnel {
    Vxlan,
    Geneve,
    Gre,
    Erspan,
    IpInIp,
}

impl Tunnel {
    pub fn name(self) -> &'static str {
        match self {
            Tunnel::Vxlan => "VXLAN",
            Tunnel::Geneve => "GENEVE",
            Tunnel::Gre => "GRE",
            Tunnel::Erspan => "ERSPAN",
            Tunnel::IpInIp => "IP-in-IP",
        }
    }
}

/// What a tunnel carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Inner<'a> {
    /// An Ethernet frame (from its destination MAC), VLAN tags and all.
    Ethernet(&'a [u8]),
    /// An IP packet (from its version nibble).
    Ip(&'a [u8]),
}

/// VXLAN's IANA port (RFC 7348 §5) and the one Linux and flannel use by default.
pub const VXLAN_PORTS: [u16; 2] = [4789, 8472];
/// GENEVE's IANA port (RFC 8926 §3.3).
pub const GENEVE_PORT: u16 = 6081;

const TEB: u16 = 0x6558;
const ERSPAN_1_2: u16 = 0x88be;
const ERSPAN_3: u16 = 0x22eb;

/// The tunnel an IP payload of protocol `proto` is, and what it carries; `Skip::NotTcp` for anything that is
/// no tunnel (plain UDP, ICMP, PPTP's GRE, ...), `Skip::Malformed` for a tunnel header cut short.
pub(super) fn peel(proto: IpNumber, payload: &[u8]) -> Result<(Tunnel, Inner<'_>), Skip> {
    match proto {
        IpNumber::UDP => udp(payload),
        IpNumber::GRE => gre(payload),
        IpNumber::IPV4 | IpNumber::IPV6 => Ok((Tunnel::IpInIp, Inner::Ip(payload))),
        _ => Err(Skip::NotTcp),
    }
}

/// A UDP datagram to a VXLAN or GENEVE port. The datagram ends where its length field says when the bytes
/// are there (Ethernet padding is no tunnel data), at the captured end when they are not (a snap length).
fn udp(datagram: &[u8]) -> Result<(Tunnel, Inner<'_>), Skip> {
    let udp = UdpSlice::from_slice_lax(datagram).map_err(|_| Skip::Malformed)?;
    let port = udp.destination_port();
    if VXLAN_PORTS.contains(&port) {
        vxlan(udp.payload())
    } else if port == GENEVE_PORT {
        geneve(udp.payload())
    } else {
        Err(Skip::NotTcp)
    }
}

/// RFC 7348 §5: flags (8, the I bit 0x08), reserved (24), VNI (24), reserved (8). Without the I bit the VNI
/// is not valid and the datagram is taken for something else on the port.
fn vxlan(p: &[u8]) -> Result<(Tunnel, Inner<'_>), Skip> {
    let (h, rest) = p.split_first_chunk::<8>().ok_or(Skip::Malformed)?;
    if h[0] & 0x08 == 0 {
        return Err(Skip::NotTcp);
    }
    Ok((Tunnel::Vxlan, Inner::Ethernet(rest)))
}

/// RFC 8926 §3.4: Ver (2) and Opt Len (6, in 4-byte words), O and C flags, protocol type (16), VNI (24),
/// reserved (8), then the options.
fn geneve(p: &[u8]) -> Result<(Tunnel, Inner<'_>), Skip> {
    let (h, rest) = p.split_first_chunk::<8>().ok_or(Skip::Malformed)?;
    if h[0] >> 6 != 0 {
        // A version this parser does not know: its header may be laid out otherwise.
        return Err(Skip::NotTcp);
    }
    if h[1] & 0x80 != 0 {
        // A control packet (O bit): no frame of the link.
        return Err(Skip::NotTcp);
    }
    let options = usize::from(h[0] & 0x3f) * 4;
    let inner = rest.get(options..).ok_or(Skip::Malformed)?;
    Ok((Tunnel::Geneve, carried(u16::from_be_bytes([h[2], h[3]]), inner)?))
}

/// The payload of a protocol type field that is an EtherType: a frame (0x6558) or an IP packet.
fn carried(proto: u16, inner: &[u8]) -> Result<Inner<'_>, Skip> {
    match EtherType(proto) {
        EtherType(TEB) => Ok(Inner::Ethernet(inner)),
        EtherType::IPV4 | EtherType::IPV6 => Ok(Inner::Ip(inner)),
        _ => Err(Skip::NotTcp),
    }
}

/// RFC 2784 §2.1 and RFC 2890 §2: C (checksum present), R (routing, RFC 1701), K (key), S (sequence
/// number), reserved, version (3 bits); protocol type; then checksum and reserved (4 bytes, with C or R),
/// key (4), sequence number (4).
fn gre(p: &[u8]) -> Result<(Tunnel, Inner<'_>), Skip> {
    let (h, _) = p.split_first_chunk::<4>().ok_or(Skip::Malformed)?;
    let (flags, version) = (h[0], h[1] & 0x07);
    let (checksum, routing, key, sequence) = (flags & 0x80 != 0, flags & 0x40 != 0, flags & 0x20 != 0, flags & 0x10 != 0);
    if version != 0 || routing {
        return Err(Skip::NotTcp);
    }
    let len = 4 + 4 * (usize::from(checksum) + usize::from(key) + usize::from(sequence));
    let inner = p.get(len..).ok_or(Skip::Malformed)?;
    match u16::from_be_bytes([h[2], h[3]]) {
        // Type I has no sequence number and no header of its own; type II has both.
        ERSPAN_1_2 if !sequence => Ok((Tunnel::Erspan, Inner::Ethernet(inner))),
        ERSPAN_1_2 => erspan2(inner),
        ERSPAN_3 => erspan3(inner),
        proto => Ok((Tunnel::Gre, carried(proto, inner)?)),
    }
}

/// ERSPAN type II (draft-foschiano-erspan-03 §4.1): Ver (4) = 1, VLAN (12), COS (3), En (2), T (1), session
/// id (10), reserved (12), index (20); then the mirrored Ethernet frame.
fn erspan2(p: &[u8]) -> Result<(Tunnel, Inner<'_>), Skip> {
    let (h, rest) = p.split_first_chunk::<8>().ok_or(Skip::Malformed)?;
    if h[0] >> 4 != 1 {
        return Err(Skip::NotTcp);
    }
    Ok((Tunnel::Erspan, Inner::Ethernet(rest)))
}

/// ERSPAN type III (draft-foschiano-erspan-03 §4.2): Ver (4) = 2, VLAN (12), COS (3), BSO (2), T (1),
/// session id (10), timestamp (32), SGT (16), P (1), FT (5), hardware id (6), D (1), Gra (2), O (1); the
/// platform-specific subheader (8 bytes) when O is set; then the mirrored frame, Ethernet (FT 0) or IP (FT 2).
fn erspan3(p: &[u8]) -> Result<(Tunnel, Inner<'_>), Skip> {
    let (h, rest) = p.split_first_chunk::<12>().ok_or(Skip::Malformed)?;
    if h[0] >> 4 != 2 {
        return Err(Skip::NotTcp);
    }
    let frame_type = (h[10] >> 2) & 0x1f;
    let rest = if h[11] & 0x01 != 0 { rest.get(8..).ok_or(Skip::Malformed)? } else { rest };
    match frame_type {
        0 => Ok((Tunnel::Erspan, Inner::Ethernet(rest))),
        2 => Ok((Tunnel::Erspan, Inner::Ip(rest))),
        _ => Err(Skip::NotTcp),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;
    use proptest::prelude::*;

    const FRAME: &[u8] = b"inner-frame";

    fn udp_to(port: u16, payload: &[u8]) -> Vec<u8> {
        let len = u16::try_from(8 + payload.len()).unwrap();
        let mut v = vec![0xc0, 0x00];
        v.extend_from_slice(&port.to_be_bytes());
        v.extend_from_slice(&len.to_be_bytes());
        v.extend_from_slice(&[0, 0]);
        v.extend_from_slice(payload);
        v
    }

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn vxlan_on_both_ports_needs_its_i_bit() {
        let header = [0x08, 0, 0, 0, 0, 0, 42, 0];
        for port in VXLAN_PORTS {
            let d = udp_to(port, &cat(&[&header, FRAME]));
            assert_eq!(peel(IpNumber::UDP, &d), Ok((Tunnel::Vxlan, Inner::Ethernet(FRAME))));
        }
        // Without the I bit it is some other use of the port; another port is plain UDP; a short header is
        // a damaged tunnel.
        assert_eq!(peel(IpNumber::UDP, &udp_to(4789, &cat(&[&[0, 0, 0, 0, 0, 0, 42, 0], FRAME]))), Err(Skip::NotTcp));
        assert_eq!(peel(IpNumber::UDP, &udp_to(53, &cat(&[&header, FRAME]))), Err(Skip::NotTcp));
        assert_eq!(peel(IpNumber::UDP, &udp_to(4789, &header[..7])), Err(Skip::Malformed));
    }

    #[test]
    fn the_udp_length_ends_the_tunnel_and_a_snap_length_does_not_hide_it() {
        // Ethernet padding after the datagram is not frame bytes; a datagram cut by the snap length still
        // gives what is there.
        let d = udp_to(4789, &cat(&[&[0x08, 0, 0, 0, 0, 0, 1, 0], FRAME]));
        let padded = cat(&[&d, &[0; 6]]);
        assert_eq!(peel(IpNumber::UDP, &padded), Ok((Tunnel::Vxlan, Inner::Ethernet(FRAME))));
        let cut = &d[..d.len() - 3];
        assert_eq!(peel(IpNumber::UDP, cut), Ok((Tunnel::Vxlan, Inner::Ethernet(&FRAME[..FRAME.len() - 3]))));
    }

    #[test]
    fn geneve_skips_its_options_and_follows_its_protocol_type() {
        // Opt Len 2 (8 bytes of options), protocol 0x6558.
        let option = [0x01, 0x02, 0x03, 0x01, 0xaa, 0xbb, 0xcc, 0xdd];
        let d = udp_to(6081, &cat(&[&[0x02, 0x00, 0x65, 0x58, 0, 0, 7, 0], &option, FRAME]));
        assert_eq!(peel(IpNumber::UDP, &d), Ok((Tunnel::Geneve, Inner::Ethernet(FRAME))));
        let d = udp_to(6081, &cat(&[&[0x00, 0x00, 0x08, 0x00, 0, 0, 7, 0], FRAME]));
        assert_eq!(peel(IpNumber::UDP, &d), Ok((Tunnel::Geneve, Inner::Ip(FRAME))));
        // A control packet, another version, an unknown payload: no data; options beyond the bytes: damaged.
        for h in [[0x00, 0x80, 0x65, 0x58, 0, 0, 7, 0], [0x40, 0x00, 0x65, 0x58, 0, 0, 7, 0], [0x00, 0x00, 0x88, 0x47, 0, 0, 7, 0]] {
            assert_eq!(peel(IpNumber::UDP, &udp_to(6081, &cat(&[&h, FRAME]))), Err(Skip::NotTcp), "{h:?}");
        }
        assert_eq!(peel(IpNumber::UDP, &udp_to(6081, &[0x3f, 0x00, 0x65, 0x58, 0, 0, 7, 0])), Err(Skip::Malformed));
    }

    #[test]
    fn gre_skips_each_optional_field_its_flags_announce() {
        let words = [0x11u8; 12];
        for (flags, optional) in [(0x00u8, 0usize), (0x80, 4), (0x20, 4), (0x10, 4), (0xa0, 8), (0xb0, 12)] {
            let p = cat(&[&[flags, 0x00, 0x65, 0x58], &words[..optional], FRAME]);
            assert_eq!(peel(IpNumber::GRE, &p), Ok((Tunnel::Gre, Inner::Ethernet(FRAME))), "flags {flags:#x}");
            let p = cat(&[&[flags, 0x00, 0x86, 0xdd], &words[..optional], FRAME]);
            assert_eq!(peel(IpNumber::GRE, &p), Ok((Tunnel::Gre, Inner::Ip(FRAME))), "flags {flags:#x}");
        }
        // PPTP's enhanced GRE (version 1), source routing, other payloads: not followed. Fields announced
        // and missing: damaged.
        assert_eq!(peel(IpNumber::GRE, &cat(&[&[0x30, 0x81, 0x88, 0x0b], &words, FRAME])), Err(Skip::NotTcp));
        assert_eq!(peel(IpNumber::GRE, &cat(&[&[0x40, 0x00, 0x08, 0x00], &words, FRAME])), Err(Skip::NotTcp));
        assert_eq!(peel(IpNumber::GRE, &cat(&[&[0x00, 0x00, 0x88, 0x47], FRAME])), Err(Skip::NotTcp));
        assert_eq!(peel(IpNumber::GRE, &[0xb0, 0x00, 0x65, 0x58, 0, 0, 0, 0]), Err(Skip::Malformed));
        assert_eq!(peel(IpNumber::GRE, &[0x00, 0x00, 0x65]), Err(Skip::Malformed));
    }

    #[test]
    fn erspan_types_one_two_and_three() {
        let seq = [0, 0, 0, 9];
        // Type I: 0x88BE without a sequence number, the frame at once.
        assert_eq!(peel(IpNumber::GRE, &cat(&[&[0x00, 0x00, 0x88, 0xbe], FRAME])), Ok((Tunnel::Erspan, Inner::Ethernet(FRAME))));
        // Type II: version 1, session 123.
        let ii = [0x10, 0x00, 0x00, 0x7b, 0, 0, 0, 0];
        assert_eq!(peel(IpNumber::GRE, &cat(&[&[0x10, 0x00, 0x88, 0xbe], &seq, &ii, FRAME])), Ok((Tunnel::Erspan, Inner::Ethernet(FRAME))));
        let wrong = [0x20, 0x00, 0x00, 0x7b, 0, 0, 0, 0];
        assert_eq!(peel(IpNumber::GRE, &cat(&[&[0x10, 0x00, 0x88, 0xbe], &seq, &wrong, FRAME])), Err(Skip::NotTcp));
        // Type III: version 2; frame type 0 (Ethernet) or 2 (IP); the O bit adds an 8-byte subheader.
        let iii = |ft: u8, o: bool| [0x20, 0x00, 0x00, 0x7b, 1, 2, 3, 4, 0, 0, ft << 2, u8::from(o)];
        let sub = [0xee; 8];
        let gre3 = [0x10, 0x00, 0x22, 0xeb];
        assert_eq!(peel(IpNumber::GRE, &cat(&[&gre3, &seq, &iii(0, false), FRAME])), Ok((Tunnel::Erspan, Inner::Ethernet(FRAME))));
        assert_eq!(peel(IpNumber::GRE, &cat(&[&gre3, &seq, &iii(0, true), &sub, FRAME])), Ok((Tunnel::Erspan, Inner::Ethernet(FRAME))));
        assert_eq!(peel(IpNumber::GRE, &cat(&[&gre3, &seq, &iii(2, true), &sub, FRAME])), Ok((Tunnel::Erspan, Inner::Ip(FRAME))));
        assert_eq!(peel(IpNumber::GRE, &cat(&[&gre3, &seq, &iii(1, false), FRAME])), Err(Skip::NotTcp));
        assert_eq!(peel(IpNumber::GRE, &cat(&[&gre3, &seq, &iii(0, true), &sub[..5]])), Err(Skip::Malformed));
        assert_eq!(peel(IpNumber::GRE, &cat(&[&gre3, &seq, &iii(0, false)[..11]])), Err(Skip::Malformed));
    }

    #[test]
    fn ip_in_ip_and_everything_else() {
        assert_eq!(peel(IpNumber::IPV4, FRAME), Ok((Tunnel::IpInIp, Inner::Ip(FRAME))));
        assert_eq!(peel(IpNumber::IPV6, FRAME), Ok((Tunnel::IpInIp, Inner::Ip(FRAME))));
        assert_eq!(peel(IpNumber::ICMP, FRAME), Err(Skip::NotTcp));
    }

    proptest! {
        #[test]
        fn never_panics_and_the_inner_bytes_are_within_the_input(proto in prop::sample::select(vec![IpNumber::UDP, IpNumber::GRE, IpNumber::IPV4]), bytes in prop::collection::vec(any::<u8>(), 0..64), port in prop::sample::select(vec![4789u16, 8472, 6081, 80])) {
            let input = if proto == IpNumber::UDP { udp_to(port, &bytes) } else { bytes };
            // What a tunnel carries is a slice of the packet, never bytes from anywhere else.
            if let Ok((_, Inner::Ethernet(inner) | Inner::Ip(inner))) = peel(proto, &input) {
                let (start, end) = (input.as_ptr() as usize, input.as_ptr() as usize + input.len());
                let at = inner.as_ptr() as usize;
                prop_assert!(start <= at && at + inner.len() <= end);
            }
        }
    }
}

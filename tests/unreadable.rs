//! Captures mcptap cannot analyse at all: every packet of a link type it does not decode, or no TCP in a
//! capture it can decode. Each must end with one line naming the link type (number and name), even with
//! `-q`, exit 2, and a CAPTURE-UNREADABLE coverage row in the report (pinned by a golden, which also
//! proves the rule fires), never an empty report and exit 0.

use std::path::Path;

use crate::common::*;

/// A classic pcap (microseconds, little-endian) with one link type and these frames, 1 s apart.
fn pcap(path: &Path, linktype: u32, frames: &[Vec<u8>]) {
    let mut b = Vec::new();
    for v in [0xa1b2_c3d4u32, 0x0004_0002, 0, 0, 65535, linktype] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for (i, f) in frames.iter().enumerate() {
        for v in [1_700_000_000 + i as u32, 0, f.len() as u32, f.len() as u32] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(f);
    }
    std::fs::write(path, b).unwrap();
}

/// Ethernet + IPv4 + UDP (DNS-like): a decodable frame that is not TCP.
fn udp_frame() -> Vec<u8> {
    let mut f = vec![0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00];
    let payload = [0u8; 12];
    let total = 20 + 8 + payload.len() as u16;
    f.extend_from_slice(&[0x45, 0, (total >> 8) as u8, total as u8, 0, 1, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2]);
    f.extend_from_slice(&[0x30, 0x39, 0, 53, 0, 20, 0, 0]);
    f.extend_from_slice(&payload);
    f
}

fn check(name: &str, file: &Path, want_line: &str) {
    for quiet in [false, true] {
        let mut args = vec!["-r", file.to_str().unwrap()];
        if quiet {
            args.push("-q");
        }
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        let e = stderr(&o);
        let last = e.lines().last().unwrap_or_default();
        assert_eq!(last, format!("mcptap: {}: {want_line}", file.display()), "{name}");
        if quiet {
            assert_eq!(e.lines().count(), 1, "{name}: -q keeps only the one line:\n{e}");
        }
        assert_golden(&root().join("tests/golden").join(format!("{name}.csv")), &stdout(&o));
    }
}

#[test]
fn every_packet_of_an_unsupported_link_type_is_said_with_its_number_and_name() {
    let dir = Scratch::new("unreadable-80211");
    let f = dir.join("wifi.pcap");
    pcap(&f, 105, &[vec![0x08, 0x02, 0, 0, 1, 2, 3, 4], vec![0x80, 0, 0, 0, 5, 6, 7, 8], vec![0x08, 0x01, 0, 0]]);
    check(
        "unreadable-ieee802_11",
        &f,
        "nothing to analyse: 3 packets of link type 105 (IEEE802_11), a link type mcptap does not decode (supported: Ethernet, Linux SLL/SLL2, raw IP, BSD loopback)",
    );
    // The summary names the link type too.
    let o = run(&["-r", f.to_str().unwrap()]);
    assert!(stderr(&o).contains("skipped: 3 unsupported link type (105 IEEE802_11: 3)"), "{}", stderr(&o));
}

#[test]
fn a_capture_without_tcp_is_said_with_its_link_type() {
    let dir = Scratch::new("unreadable-udp");
    let f = dir.join("udp.pcap");
    pcap(&f, 1, &[udp_frame(), udp_frame()]);
    check("unreadable-no-tcp", &f, "nothing to analyse: 2 packets of link type 1 (ETHERNET), and not one TCP segment over IPv4/IPv6 among the 2 packets read");
}

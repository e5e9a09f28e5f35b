//! A small classic-pcap editor for making damaged captures from the real samples: cut the start (a
//! capture that begins inside a connection), cut every record to a snap length, and impair a path
//! (reorder, duplicate, drop TCP segments of one direction). Deterministic: the "randomness" is a fixed
//! LCG seed, so a failing case can be re-made exactly. Only classic pcap (both byte orders, µs and ns).

use std::path::Path;

#[derive(Clone, Debug)]
pub struct Record {
    pub ts_sec: u32,
    pub ts_frac: u32,
    pub orig_len: u32,
    pub data: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct Pcap {
    /// The 24-byte file header, kept as is.
    pub header: Vec<u8>,
    pub big_endian: bool,
    pub linktype: u32,
    pub records: Vec<Record>,
}

impl Pcap {
    pub fn read(path: &Path) -> Option<Pcap> {
        let b = std::fs::read(path).ok()?;
        let magic = b.get(..4)?;
        let big_endian = match magic {
            [0xd4, 0xc3, 0xb2, 0xa1] | [0x4d, 0x3c, 0xb2, 0xa1] => false,
            [0xa1, 0xb2, 0xc3, 0xd4] | [0xa1, 0xb2, 0x3c, 0x4d] => true,
            _ => return None, // pcapng
        };
        let u32_at = |o: usize| -> u32 {
            let w: [u8; 4] = b[o..o + 4].try_into().unwrap();
            if big_endian { u32::from_be_bytes(w) } else { u32::from_le_bytes(w) }
        };
        let linktype = u32_at(20);
        let mut records = Vec::new();
        let mut o = 24;
        while o + 16 <= b.len() {
            let incl = u32_at(o + 8) as usize;
            if o + 16 + incl > b.len() {
                break;
            }
            records.push(Record { ts_sec: u32_at(o), ts_frac: u32_at(o + 4), orig_len: u32_at(o + 12), data: b[o + 16..o + 16 + incl].to_vec() });
            o += 16 + incl;
        }
        Some(Pcap { header: b[..24].to_vec(), big_endian, linktype, records })
    }

    pub fn write(&self, path: &Path) {
        let mut out = self.header.clone();
        let put = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&if self.big_endian { v.to_be_bytes() } else { v.to_le_bytes() });
        for r in &self.records {
            put(&mut out, r.ts_sec);
            put(&mut out, r.ts_frac);
            put(&mut out, r.data.len() as u32);
            put(&mut out, r.orig_len);
            out.extend_from_slice(&r.data);
        }
        std::fs::write(path, out).unwrap();
    }

    /// The TCP segment a record carries, if any.
    pub fn tcp(&self, r: &Record) -> Option<Seg> {
        let link = match self.linktype {
            0 | 108 => 4,
            1 => 14,
            113 => 16,
            276 => 20,
            101 | 228 | 229 => 0,
            _ => return None,
        };
        let ip = r.data.get(link..)?;
        let (src, dst, l4, payload_end) = match ip.first()? >> 4 {
            4 => {
                let ihl = (ip[0] & 0x0f) as usize * 4;
                if *ip.get(9)? != 6 {
                    return None;
                }
                let total = u16::from_be_bytes([ip[2], ip[3]]) as usize;
                (ip.get(12..16)?.to_vec(), ip.get(16..20)?.to_vec(), ihl, total)
            }
            6 => {
                if *ip.get(6)? != 6 {
                    return None;
                }
                let plen = u16::from_be_bytes([ip[4], ip[5]]) as usize;
                (ip.get(8..24)?.to_vec(), ip.get(24..40)?.to_vec(), 40, 40 + plen)
            }
            _ => return None,
        };
        let tcp = ip.get(l4..)?;
        let off = (*tcp.get(12)? >> 4) as usize * 4;
        let sport = u16::from_be_bytes([*tcp.first()?, *tcp.get(1)?]);
        let dport = u16::from_be_bytes([*tcp.get(2)?, *tcp.get(3)?]);
        let payload = payload_end.saturating_sub(l4 + off);
        let seq = u32::from_be_bytes(tcp.get(4..8)?.try_into().ok()?);
        Some(Seg { src, dst, sport, dport, seq, payload, flags: *tcp.get(13)? })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seg {
    pub src: Vec<u8>,
    pub dst: Vec<u8>,
    pub sport: u16,
    pub dport: u16,
    pub seq: u32,
    /// TCP payload length, from the IP header (not the frame).
    pub payload: usize,
    pub flags: u8,
}

impl Seg {
    pub fn same_direction(&self, o: &Seg) -> bool {
        self.src == o.src && self.dst == o.dst && self.sport == o.sport && self.dport == o.dport
    }
}

/// A fixed-seed LCG (Knuth's MMIX constants): the same damage every run.
pub struct Lcg(pub u64);
impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    /// True with probability `pct` percent.
    pub fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
}

/// What an impaired path did to a capture.
#[derive(Debug, Default, Clone)]
pub struct Damage {
    pub swapped: usize,
    pub duplicated: usize,
    pub dropped: usize,
    pub dropped_bytes: usize,
}

/// Reorders (swaps adjacent data segments of the same direction), duplicates and drops data segments.
/// Timestamps stay in capture order (a swap exchanges the packets, not the times). Only segments with
/// payload are touched, and never a FIN or SYN, so each stream's extent stays known.
pub fn impair(p: &Pcap, seed: u64, reorder_pct: u64, dup_pct: u64, drop_pct: u64) -> (Pcap, Damage) {
    let mut rng = Lcg(seed);
    let mut d = Damage::default();
    let mut recs = p.records.clone();
    let data_seg = |r: &Record| p.tcp(r).filter(|s| s.payload > 0 && s.flags & 0x03 == 0);
    let mut i = 0;
    while i + 1 < recs.len() {
        if let (Some(a), Some(b)) = (data_seg(&recs[i]), data_seg(&recs[i + 1])) {
            if a.same_direction(&b) && rng.chance(reorder_pct) {
                let (ta, fa) = (recs[i].ts_sec, recs[i].ts_frac);
                let (tb, fb) = (recs[i + 1].ts_sec, recs[i + 1].ts_frac);
                recs.swap(i, i + 1);
                (recs[i].ts_sec, recs[i].ts_frac) = (ta, fa);
                (recs[i + 1].ts_sec, recs[i + 1].ts_frac) = (tb, fb);
                d.swapped += 1;
                i += 2;
                continue;
            }
        }
        i += 1;
    }
    let mut out = Vec::with_capacity(recs.len());
    for r in recs {
        match data_seg(&r) {
            Some(s) if rng.chance(drop_pct) => {
                d.dropped += 1;
                d.dropped_bytes += s.payload;
            }
            Some(_) if rng.chance(dup_pct) => {
                out.push(r.clone());
                out.push(r);
                d.duplicated += 1;
            }
            _ => out.push(r),
        }
    }
    (Pcap { records: out, ..p.clone() }, d)
}

/// A capture that started `skip` packets late.
pub fn cut_start(p: &Pcap, skip: usize) -> Pcap {
    Pcap { records: p.records.iter().skip(skip).cloned().collect(), ..p.clone() }
}

/// Every record cut to `snaplen` bytes (as `tcpdump -s` / `editcap -s` do), and the header's snap length.
pub fn snap(p: &Pcap, snaplen: usize) -> Pcap {
    let mut q = p.clone();
    let v = snaplen as u32;
    q.header[16..20].copy_from_slice(&if p.big_endian { v.to_be_bytes() } else { v.to_le_bytes() });
    for r in &mut q.records {
        r.data.truncate(snaplen);
    }
    q
}

/// A scratch directory for generated captures, removed when dropped (also when the test fails).
pub fn scratch(tag: &str) -> crate::common::Scratch {
    crate::common::Scratch::new(tag)
}

/// What a full capture ring does: runs of consecutive packets of every kind (data, ACKs, FINs, both
/// directions) never reach the capture. A run starts at a packet with probability `per_mille` / 1000 and
/// is 1 to `max_run` packets long. Returns the damaged capture and the packets dropped.
pub fn drop_runs(p: &Pcap, seed: u64, per_mille: u64, max_run: u64) -> (Pcap, usize) {
    let mut rng = Lcg(seed);
    let mut left = 0;
    let mut dropped = 0;
    let mut out = Vec::with_capacity(p.records.len());
    for r in &p.records {
        if left == 0 && rng.next() % 1000 < per_mille {
            left = 1 + rng.next() % max_run.max(1);
        }
        if left > 0 {
            left -= 1;
            dropped += 1;
        } else {
            out.push(r.clone());
        }
    }
    (Pcap { records: out, ..p.clone() }, dropped)
}

/// Where the TCP header of a record starts, for a supported link type.
fn tcp_offset(p: &Pcap, r: &Record) -> Option<usize> {
    p.tcp(r)?;
    let link = match p.linktype {
        0 | 108 => 4,
        1 => 14,
        113 => 16,
        276 => 20,
        _ => 0,
    };
    let ip = r.data.get(link..)?;
    Some(link + if ip.first()? >> 4 == 4 { (ip[0] & 0x0f) as usize * 4 } else { 40 })
}

/// One stray packet whose clock runs ahead: a copy of the middle TCP record moved to ports 40001 -> 7777
/// (another connection, to another server) with its timestamp `secs` later, inserted after the original.
/// Every packet after it is then earlier than the capture clock.
pub fn stray_ahead(p: &Pcap, secs: u32) -> Option<Pcap> {
    let (i, off) = p.records.iter().enumerate().skip(p.records.len() / 2).find_map(|(i, r)| tcp_offset(p, r).map(|o| (i, o)))?;
    let mut stray = p.records[i].clone();
    stray.data.get_mut(off..off + 4)?.copy_from_slice(&[0x9c, 0x41, 0x1e, 0x61]);
    stray.ts_sec = stray.ts_sec.saturating_add(secs);
    let mut out = p.clone();
    out.records.insert(i + 1, stray);
    Some(out)
}

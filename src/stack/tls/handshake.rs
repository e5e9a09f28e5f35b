//! Handshake messages of one direction (RFC 8446 §4, RFC 5246 §7.4): reassembles messages that span
//! records (or share one) and reads the few fields the decryptor needs from ClientHello, ServerHello and
//! EncryptedExtensions: randoms, versions, cipher suite, ALPN, SNI, early data. Everything else in a
//! message is skipped. Every read is bounds-checked; a short or odd message yields `None`, never a panic.

/// RFC 8446 §4 HandshakeType values used here.
pub const CLIENT_HELLO: u8 = 1;
pub const SERVER_HELLO: u8 = 2;
pub const NEW_SESSION_TICKET: u8 = 4;
pub const ENCRYPTED_EXTENSIONS: u8 = 8;
pub const FINISHED: u8 = 20;
pub const KEY_UPDATE: u8 = 24;

/// Largest handshake message reassembled (certificate chains are the big ones; they are skipped whole).
const MAX_MESSAGE: usize = 1 << 17;

/// Handshake message reassembly of one direction.
#[derive(Debug, Default)]
pub struct HandshakeReader {
    /// Handshake bytes not yet forming a whole message.
    carry: Vec<u8>,
    /// Bytes still to skip of a message over `MAX_MESSAGE`.
    skip: usize,
}

impl HandshakeReader {
    /// Feeds handshake-record plaintext; calls `out(type, body)` per complete message.
    pub fn feed<F: FnMut(u8, &[u8])>(&mut self, mut bytes: &[u8], out: &mut F) {
        if self.skip > 0 {
            let n = self.skip.min(bytes.len());
            self.skip -= n;
            bytes = bytes.get(n..).unwrap_or_default();
        }
        // ALLOC: handshake message carry, bounded by MAX_MESSAGE
        self.carry.extend_from_slice(bytes);
        let mut at = 0usize;
        loop {
            let rest = self.carry.get(at..).unwrap_or_default();
            let Some(h) = rest.first_chunk::<4>() else { break };
            let len = usize::from(h[1]) << 16 | usize::from(h[2]) << 8 | usize::from(h[3]);
            if len > MAX_MESSAGE {
                let have = rest.len().saturating_sub(4);
                self.skip = len.saturating_sub(have);
                at = self.carry.len();
                break;
            }
            let Some(body) = rest.get(4..4 + len) else { break };
            out(h[0], body);
            at += 4 + len;
        }
        self.carry.drain(..at.min(self.carry.len()));
    }
}

/// A bounds-checked reader over a message body.
struct Cur<'a>(&'a [u8]);

impl<'a> Cur<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (a, b) = self.0.split_at_checked(n)?;
        self.0 = b;
        Some(a)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1)?.first().copied()
    }
    fn u16(&mut self) -> Option<u16> {
        let b = self.take(2)?;
        Some(u16::from_be_bytes(b.try_into().ok()?))
    }
    fn vec8(&mut self) -> Option<&'a [u8]> {
        let n = self.u8()?;
        self.take(usize::from(n))
    }
    fn vec16(&mut self) -> Option<&'a [u8]> {
        let n = self.u16()?;
        self.take(usize::from(n))
    }
}

/// What the decryptor needs of a ClientHello.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientHello {
    pub random: [u8; 32],
    pub sni: String,
    pub alpn: Vec<String>,
    /// RFC 8446 §4.2.10 `early_data` offered (0-RTT).
    pub early_data: bool,
    /// RFC 8446 §4.2.11 `pre_shared_key` offered (resumption).
    pub psk: bool,
}

/// What the decryptor needs of a ServerHello.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerHello {
    pub random: [u8; 32],
    /// `supported_versions` selection (0x0304 for TLS 1.3), else the legacy version field.
    pub version: u16,
    pub cipher_suite: u16,
    /// ALPN selected (TLS 1.2 ServerHello; in 1.3 it is in EncryptedExtensions).
    pub alpn: Option<String>,
    /// RFC 8446 §4.1.3: a HelloRetryRequest is a ServerHello with this fixed random.
    pub retry: bool,
    /// RFC 7366 `encrypt_then_mac` accepted: a CBC suite's MAC follows the ciphertext.
    pub encrypt_then_mac: bool,
}

/// RFC 8446 §4.1.3: SHA-256 of "HelloRetryRequest".
const HRR_RANDOM: [u8; 32] = [
    0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11,
    0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
];

const EXT_SNI: u16 = 0;
const EXT_ALPN: u16 = 16;
const EXT_PSK: u16 = 41;
const EXT_EARLY_DATA: u16 = 42;
const EXT_SUPPORTED_VERSIONS: u16 = 43;
const EXT_ENCRYPT_THEN_MAC: u16 = 22;

/// RFC 8446 §4.1.2 ClientHello: legacy_version(2) random(32) legacy_session_id<0..32>
/// cipher_suites<2..> legacy_compression_methods<1..> extensions<8..>.
pub fn client_hello(body: &[u8]) -> Option<ClientHello> {
    let mut c = Cur(body);
    c.u16()?;
    let random: [u8; 32] = c.take(32)?.try_into().ok()?;
    c.vec8()?;
    c.vec16()?;
    c.vec8()?;
    let mut ch = ClientHello { random, ..ClientHello::default() };
    let Some(exts) = c.vec16() else { return Some(ch) };
    each_extension(exts, |ty, data| match ty {
        EXT_SNI => {
            // RFC 6066 §3: server_name_list<1..> of (name_type(1), HostName<1..>).
            let mut d = Cur(data);
            if let Some(list) = d.vec16() {
                let mut l = Cur(list);
                if let (Some(0), Some(name)) = (l.u8(), l.vec16()) {
                    ch.sni = String::from_utf8_lossy(name).into_owned();
                }
            }
        }
        EXT_ALPN => ch.alpn = alpn_list(data),
        EXT_EARLY_DATA => ch.early_data = true,
        EXT_PSK => ch.psk = true,
        _ => {}
    });
    Some(ch)
}

/// RFC 8446 §4.1.3 ServerHello: legacy_version(2) random(32) legacy_session_id_echo<0..32>
/// cipher_suite(2) legacy_compression_method(1) extensions<6..>.
pub fn server_hello(body: &[u8]) -> Option<ServerHello> {
    let mut c = Cur(body);
    let legacy = c.u16()?;
    let random: [u8; 32] = c.take(32)?.try_into().ok()?;
    c.vec8()?;
    let cipher_suite = c.u16()?;
    c.u8()?;
    let mut sh = ServerHello { random, version: legacy, cipher_suite, alpn: None, retry: random == HRR_RANDOM, encrypt_then_mac: false };
    if let Some(exts) = c.vec16() {
        each_extension(exts, |ty, data| match ty {
            // RFC 8446 §4.2.1: in a ServerHello, `selected_version`.
            EXT_SUPPORTED_VERSIONS => {
                if let Some(v) = Cur(data).u16() {
                    sh.version = v;
                }
            }
            EXT_ALPN => sh.alpn = alpn_list(data).into_iter().next(),
            EXT_ENCRYPT_THEN_MAC => sh.encrypt_then_mac = true,
            _ => {}
        });
    }
    Some(sh)
}

/// RFC 8446 §4.3.1 EncryptedExtensions: extensions<0..2^16-1>; returns the ALPN selected, if any.
pub fn encrypted_extensions_alpn(body: &[u8]) -> Option<String> {
    let exts = Cur(body).vec16()?;
    let mut alpn = None;
    each_extension(exts, |ty, data| {
        if ty == EXT_ALPN {
            alpn = alpn_list(data).into_iter().next();
        }
    });
    alpn
}

fn each_extension<F: FnMut(u16, &[u8])>(exts: &[u8], mut f: F) {
    let mut c = Cur(exts);
    while let (Some(ty), Some(data)) = (c.u16(), c.vec16()) {
        f(ty, data);
    }
}

/// RFC 7301 §3.1: `ProtocolName protocol_name_list<2..2^16-1>`, each `opaque ProtocolName<1..2^8-1>`.
fn alpn_list(data: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(list) = Cur(data).vec16() {
        let mut l = Cur(list);
        while let Some(p) = l.vec8() {
            out.push(String::from_utf8_lossy(p).into_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// RFC 8448 §3 ClientHello and ServerHello (handshake messages with their 4-byte headers).
    const CH: &str = "010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7000006130113031302010000910000000b0009000006736572766572ff01000100000a00140012001d0017001800190100010101020103010400230000003300260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020304000d0020001e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001";
    const SH: &str = "020000560303a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dac155772ed3e2692800130100002e00330024001d0020c9828876112095fe66762bdbf7c672e156d6cc253b833df1dd69b1b04e751f0f002b00020304";

    #[test]
    fn hellos_of_rfc8448_parse_across_any_split() {
        let mut all = hex(CH);
        all.extend(hex(SH));
        for i in 0..=all.len() {
            let mut r = HandshakeReader::default();
            let mut msgs = Vec::new();
            r.feed(&all[..i], &mut |t, b| msgs.push((t, b.to_vec())));
            r.feed(&all[i..], &mut |t, b| msgs.push((t, b.to_vec())));
            assert_eq!(msgs.len(), 2, "split {i}");
            let ch = client_hello(&msgs[0].1).unwrap();
            assert_eq!(ch.random[..4], [0xcb, 0x34, 0xec, 0xb1]);
            assert_eq!(ch.sni, "server");
            assert!(!ch.early_data);
            let sh = server_hello(&msgs[1].1).unwrap();
            assert_eq!(sh.version, 0x0304);
            assert_eq!(sh.cipher_suite, 0x1301);
            assert!(!sh.retry);
        }
    }

    #[test]
    fn truncated_hellos_never_panic() {
        let ch = hex(CH);
        for i in 0..ch.len() {
            let _ = client_hello(&ch[4..4.max(i)]);
            let _ = server_hello(&ch[4..4.max(i)]);
            let _ = encrypted_extensions_alpn(&ch[4..4.max(i)]);
        }
        assert!(client_hello(&[3, 3]).is_none());
    }

    #[test]
    fn alpn_is_read() {
        // extensions: ALPN ["h2", "http/1.1"]
        let ee = hex("00120010000e000c02683208687474702f312e31");
        assert_eq!(encrypted_extensions_alpn(&ee).as_deref(), Some("h2"));
    }
}

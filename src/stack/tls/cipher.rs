//! Record protection: one direction's AEAD, its IV and record sequence number, for TLS 1.2 (RFC 5288 GCM,
//! RFC 7905 ChaCha20-Poly1305) and TLS 1.3 (RFC 8446 §5.2-§5.4), and TLS 1.2's AES-CBC with HMAC (RFC 5246
//! §6.2.3.2 MAC-then-encrypt, RFC 7366 encrypt-then-MAC). It owns nonce, additional-data and MAC input
//! construction, CBC padding and the inner plaintext of 1.3; the primitives are RustCrypto's (`aes-gcm`,
//! `chacha20poly1305`, `aes` + `cbc`, `hmac` over `sha1`/`sha2`).

use aes_gcm::aead::{Aead as _, KeyInit, Payload};
use aes_gcm::{Aes128Gcm, Aes256Gcm};
use chacha20poly1305::ChaCha20Poly1305;

use super::keys::{HashAlg, KeyIv};

/// The AEAD algorithm of a cipher suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AeadAlg {
    Aes128Gcm,
    Aes256Gcm,
    ChaCha20Poly1305,
}

impl AeadAlg {
    pub fn key_len(self) -> usize {
        match self {
            AeadAlg::Aes128Gcm => 16,
            AeadAlg::Aes256Gcm | AeadAlg::ChaCha20Poly1305 => 32,
        }
    }
    /// TLS 1.2 implicit IV length: the 4-byte GCM salt (RFC 5288 §3), the full 12-byte IV for ChaCha20
    /// (RFC 7905 §2).
    pub fn tls12_iv_len(self) -> usize {
        match self {
            AeadAlg::Aes128Gcm | AeadAlg::Aes256Gcm => 4,
            AeadAlg::ChaCha20Poly1305 => 12,
        }
    }
}

/// How the records of a suite the analyzer can decrypt are protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// With the PRF (1.2) or HKDF (1.3) hash.
    Aead(AeadAlg, HashAlg),
    /// TLS 1.2 only.
    Cbc(CbcSuite),
}

/// What the analyzer can decrypt of a cipher suite, or `None` (3DES, CCM, Camellia, RSA-PSK-only, ...).
pub fn suite(id: u16) -> Option<Suite> {
    match aead_suite(id) {
        Some((aead, hash)) => Some(Suite::Aead(aead, hash)),
        None => cbc_suite(id).map(Suite::Cbc),
    }
}

fn aead_suite(id: u16) -> Option<(AeadAlg, HashAlg)> {
    Some(match id {
        // RFC 8446 §B.4
        0x1301 => (AeadAlg::Aes128Gcm, HashAlg::Sha256),
        0x1302 => (AeadAlg::Aes256Gcm, HashAlg::Sha384),
        0x1303 => (AeadAlg::ChaCha20Poly1305, HashAlg::Sha256),
        // RFC 5289 ECDHE-{ECDSA,RSA}-AES-GCM, RFC 5288 (DHE-)RSA-AES-GCM: the key log's master secret makes
        // the key exchange irrelevant.
        0xc02b | 0xc02f | 0x009c | 0x009e => (AeadAlg::Aes128Gcm, HashAlg::Sha256),
        0xc02c | 0xc030 | 0x009d | 0x009f => (AeadAlg::Aes256Gcm, HashAlg::Sha384),
        // RFC 7905 ECDHE-{RSA,ECDSA}-, DHE-RSA-CHACHA20-POLY1305
        0xcca8..=0xccaa => (AeadAlg::ChaCha20Poly1305, HashAlg::Sha256),
        _ => return None,
    })
}

/// The HMAC of a TLS 1.2 CBC suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MacAlg {
    Sha1,
    Sha256,
    Sha384,
}

impl MacAlg {
    pub fn output_len(self) -> usize {
        match self {
            MacAlg::Sha1 => 20,
            MacAlg::Sha256 => 32,
            MacAlg::Sha384 => 48,
        }
    }
}

/// A TLS 1.2 AES-CBC suite: AES key length, record MAC, PRF hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CbcSuite {
    pub key_len: usize,
    pub mac: MacAlg,
    pub prf: HashAlg,
}

/// The AES-CBC suites of TLS 1.2 (RFC 5246 §A.5, RFC 4492/8422, RFC 5289). Only the PRF hash of the
/// SHA-384 suites differs from TLS 1.2's default SHA-256.
pub fn cbc_suite(id: u16) -> Option<CbcSuite> {
    let (key_len, mac) = match id {
        // TLS_RSA_, DHE_RSA_, ECDHE_ECDSA_, ECDHE_RSA_WITH_AES_128_CBC_SHA
        0x002f | 0x0033 | 0xc009 | 0xc013 => (16, MacAlg::Sha1),
        // ..._WITH_AES_256_CBC_SHA
        0x0035 | 0x0039 | 0xc00a | 0xc014 => (32, MacAlg::Sha1),
        // ..._WITH_AES_128_CBC_SHA256
        0x003c | 0x0067 | 0xc023 | 0xc027 => (16, MacAlg::Sha256),
        // ..._WITH_AES_256_CBC_SHA256
        0x003d | 0x006b => (32, MacAlg::Sha256),
        // ECDHE_{ECDSA,RSA}_WITH_AES_256_CBC_SHA384
        0xc024 | 0xc028 => (32, MacAlg::Sha384),
        _ => return None,
    };
    let prf = if mac == MacAlg::Sha384 { HashAlg::Sha384 } else { HashAlg::Sha256 };
    Some(CbcSuite { key_len, mac, prf })
}

/// One direction's CBC record protection (TLS 1.1+ explicit IV: the first block of each fragment). The AES
/// key schedule and the keyed HMAC are made once; each record clones them.
#[derive(Clone)]
pub struct CbcCipher {
    block: BlockKey,
    mac: MacKey,
    /// RFC 7366 negotiated: the MAC covers the IV and ciphertext and follows them.
    encrypt_then_mac: bool,
    seq: u64,
}

#[derive(Clone)]
enum BlockKey {
    Aes128(Box<aes::Aes128>),
    Aes256(Box<aes::Aes256>),
}

#[derive(Clone)]
enum MacKey {
    Sha1(Box<hmac::Hmac<sha1::Sha1>>),
    Sha256(Box<hmac::Hmac<sha2::Sha256>>),
    Sha384(Box<hmac::Hmac<sha2::Sha384>>),
}

impl MacKey {
    fn new(alg: MacAlg, key: &[u8]) -> Option<MacKey> {
        use hmac::digest::KeyInit as _;
        (key.len() == alg.output_len()).then_some(())?;
        Some(match alg {
            MacAlg::Sha1 => MacKey::Sha1(Box::new(hmac::Hmac::new_from_slice(key).ok()?)),
            MacAlg::Sha256 => MacKey::Sha256(Box::new(hmac::Hmac::new_from_slice(key).ok()?)),
            MacAlg::Sha384 => MacKey::Sha384(Box::new(hmac::Hmac::new_from_slice(key).ok()?)),
        })
    }

    fn len(&self) -> usize {
        match self {
            MacKey::Sha1(_) => MacAlg::Sha1.output_len(),
            MacKey::Sha256(_) => MacAlg::Sha256.output_len(),
            MacKey::Sha384(_) => MacAlg::Sha384.output_len(),
        }
    }

    /// `tag` is the HMAC of `head` then `data` (compared in constant time, as the crate does).
    fn verifies(&self, head: &[u8], data: &[u8], tag: &[u8]) -> bool {
        fn run<M: hmac::Mac + Clone>(key: &M, head: &[u8], data: &[u8], tag: &[u8]) -> bool {
            let mut m = key.clone();
            m.update(head);
            m.update(data);
            m.verify_slice(tag).is_ok()
        }
        match self {
            MacKey::Sha1(k) => run(k.as_ref(), head, data, tag),
            MacKey::Sha256(k) => run(k.as_ref(), head, data, tag),
            MacKey::Sha384(k) => run(k.as_ref(), head, data, tag),
        }
    }
}

impl std::fmt::Debug for CbcCipher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bits = match self.block {
            BlockKey::Aes128(_) => 128,
            BlockKey::Aes256(_) => 256,
        };
        write!(f, "CbcCipher(AES-{bits}, HMAC of {} bytes, etm {}, seq {})", self.mac.len(), self.encrypt_then_mac, self.seq)
    }
}

const BLOCK: usize = 16;

impl CbcCipher {
    pub fn new(suite: CbcSuite, key: &[u8], mac_key: &[u8], encrypt_then_mac: bool) -> Option<CbcCipher> {
        use cbc::cipher::KeyInit as _;
        let block = match (suite.key_len, key.len()) {
            (16, 16) => BlockKey::Aes128(Box::new(aes::Aes128::new_from_slice(key).ok()?)),
            (32, 32) => BlockKey::Aes256(Box::new(aes::Aes256::new_from_slice(key).ok()?)),
            _ => return None,
        };
        Some(CbcCipher { block, mac: MacKey::new(suite.mac, mac_key)?, encrypt_then_mac, seq: 0 })
    }

    /// Opens the next record (`None`: bad padding or MAC, the sequence number stays).
    pub fn open(&mut self, header: &[u8; 5], fragment: &[u8]) -> Option<Opened> {
        let plaintext = if self.encrypt_then_mac { self.open_etm(header, fragment)? } else { self.open_mte(header, fragment)? };
        self.seq = self.seq.wrapping_add(1);
        Some(Opened { content_type: header[0], plaintext })
    }

    /// RFC 7366 §3: `MAC(MAC_write_key, seq_num + type + version + length + IV + ENC(content + padding +
    /// padding_length))`, `length` that of IV and ciphertext.
    fn open_etm(&self, header: &[u8; 5], fragment: &[u8]) -> Option<Vec<u8>> {
        let (sealed, tag) = fragment.split_at_checked(fragment.len().checked_sub(self.mac.len())?)?;
        if !self.mac.verifies(&self.mac_head(header, sealed.len())?, sealed, tag) {
            return None;
        }
        unpad(self.decrypt(sealed)?)
    }

    /// RFC 5246 §6.2.3.2: `ENC(content + MAC(MAC_write_key, seq_num + type + version + length + content) +
    /// padding + padding_length)`, `length` that of the content.
    fn open_mte(&self, header: &[u8; 5], fragment: &[u8]) -> Option<Vec<u8>> {
        let mut plain = unpad(self.decrypt(fragment)?)?;
        let content_len = plain.len().checked_sub(self.mac.len())?;
        let (content, tag) = plain.split_at(content_len);
        if !self.mac.verifies(&self.mac_head(header, content_len)?, content, tag) {
            return None;
        }
        plain.truncate(content_len);
        Some(plain)
    }

    /// What the MAC covers before the data: `seq_num + type + version + length`.
    fn mac_head(&self, header: &[u8; 5], len: usize) -> Option<[u8; 13]> {
        let mut head = [0u8; 13];
        head.get_mut(..8)?.copy_from_slice(&self.seq.to_be_bytes());
        head.get_mut(8..11)?.copy_from_slice(header.get(..3)?);
        head.get_mut(11..)?.copy_from_slice(&u16::try_from(len).ok()?.to_be_bytes());
        Some(head)
    }

    /// AES-CBC with the fragment's first block as IV; the rest must be whole blocks.
    fn decrypt(&self, fragment: &[u8]) -> Option<Vec<u8>> {
        use cbc::cipher::block_padding::NoPadding;
        use cbc::cipher::{BlockDecryptMut, InnerIvInit};
        let (iv, body) = fragment.split_at_checked(BLOCK)?;
        if body.is_empty() || body.len() % BLOCK != 0 {
            return None;
        }
        let mut buf = body.to_vec();
        let n = match &self.block {
            BlockKey::Aes128(k) => cbc::Decryptor::inner_iv_slice_init(k.as_ref().clone(), iv).ok()?.decrypt_padded_mut::<NoPadding>(&mut buf).ok()?.len(),
            BlockKey::Aes256(k) => cbc::Decryptor::inner_iv_slice_init(k.as_ref().clone(), iv).ok()?.decrypt_padded_mut::<NoPadding>(&mut buf).ok()?.len(),
        };
        buf.truncate(n);
        Some(buf)
    }
}

/// RFC 5246 §6.2.3.2: the last byte is the padding length, and every padding byte holds that value.
fn unpad(mut padded: Vec<u8>) -> Option<Vec<u8>> {
    let pad = usize::from(*padded.last()?);
    let keep = padded.len().checked_sub(pad + 1)?;
    if padded.get(keep..)?.iter().any(|&b| usize::from(b) != pad) {
        return None;
    }
    padded.truncate(keep);
    Some(padded)
}

#[derive(Clone)]
enum Aead {
    Aes128(Box<Aes128Gcm>),
    Aes256(Box<Aes256Gcm>),
    ChaCha(Box<ChaCha20Poly1305>),
}

impl std::fmt::Debug for Aead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Aead::Aes128(_) => "Aes128Gcm",
            Aead::Aes256(_) => "Aes256Gcm",
            Aead::ChaCha(_) => "ChaCha20Poly1305",
        })
    }
}

impl Aead {
    fn new(alg: AeadAlg, key: &[u8]) -> Option<Aead> {
        Some(match alg {
            AeadAlg::Aes128Gcm => Aead::Aes128(Box::new(Aes128Gcm::new_from_slice(key).ok()?)),
            AeadAlg::Aes256Gcm => Aead::Aes256(Box::new(Aes256Gcm::new_from_slice(key).ok()?)),
            AeadAlg::ChaCha20Poly1305 => Aead::ChaCha(Box::new(ChaCha20Poly1305::new_from_slice(key).ok()?)),
        })
    }

    fn open(&self, nonce: &[u8; 12], aad: &[u8], msg: &[u8]) -> Option<Vec<u8>> {
        let p = Payload { msg, aad };
        match self {
            Aead::Aes128(c) => c.decrypt(nonce.into(), p).ok(),
            Aead::Aes256(c) => c.decrypt(nonce.into(), p).ok(),
            Aead::ChaCha(c) => c.decrypt(nonce.into(), p).ok(),
        }
    }
}

/// Which record layer's nonce and additional data apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    Tls12,
    Tls13,
}

const TAG_LEN: usize = 16;

/// One direction's record protection: key, IV, next sequence number.
#[derive(Debug, Clone)]
pub struct RecordCipher {
    aead: Aead,
    alg: AeadAlg,
    iv: Vec<u8>,
    seq: u64,
    layer: Layer,
}

/// A record opened: its (inner, for 1.3) content type and plaintext.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub content_type: u8,
    pub plaintext: Vec<u8>,
}

impl RecordCipher {
    pub fn new(alg: AeadAlg, keys: &KeyIv, layer: Layer) -> Option<RecordCipher> {
        Some(RecordCipher { aead: Aead::new(alg, &keys.key)?, alg, iv: keys.iv.clone(), seq: 0, layer })
    }

    /// Opens the next record of this direction (`header` is the 5-byte record header, `fragment` what
    /// follows). `None` if authentication fails (wrong key, lost or altered record); the sequence number
    /// moves on only on success.
    pub fn open(&mut self, header: &[u8; 5], fragment: &[u8]) -> Option<Opened> {
        let opened = match self.layer {
            Layer::Tls12 => self.open12(header, fragment)?,
            Layer::Tls13 => self.open13(header, fragment)?,
        };
        self.seq = self.seq.wrapping_add(1);
        Some(opened)
    }

    /// Per-record nonce: the IV XOR the sequence number left-padded to 12 bytes (RFC 8446 §5.3, RFC 7905
    /// §2 for TLS 1.2 ChaCha20).
    fn xor_nonce(&self) -> Option<[u8; 12]> {
        let mut n: [u8; 12] = self.iv.as_slice().try_into().ok()?;
        for (b, s) in n.iter_mut().skip(4).zip(self.seq.to_be_bytes()) {
            *b ^= s;
        }
        Some(n)
    }

    /// RFC 5246 §6.2.3.3: `additional_data = seq_num + TLSCompressed.type + TLSCompressed.version +
    /// TLSCompressed.length` (the plaintext length). RFC 5288 §3: GCM's nonce is the 4-byte salt followed
    /// by the 8-byte explicit nonce sent at the start of the fragment.
    fn open12(&self, header: &[u8; 5], fragment: &[u8]) -> Option<Opened> {
        let (nonce, body) = match self.alg {
            AeadAlg::ChaCha20Poly1305 => (self.xor_nonce()?, fragment),
            AeadAlg::Aes128Gcm | AeadAlg::Aes256Gcm => {
                let (explicit, body) = fragment.split_at_checked(8)?;
                let mut n = [0u8; 12];
                n.get_mut(..4)?.copy_from_slice(self.iv.get(..4)?);
                n.get_mut(4..)?.copy_from_slice(explicit);
                (n, body)
            }
        };
        let plain_len = u16::try_from(body.len().checked_sub(TAG_LEN)?).ok()?;
        let mut aad = [0u8; 13];
        aad.get_mut(..8)?.copy_from_slice(&self.seq.to_be_bytes());
        aad.get_mut(8..11)?.copy_from_slice(header.get(..3)?);
        aad.get_mut(11..)?.copy_from_slice(&plain_len.to_be_bytes());
        let plaintext = self.aead.open(&nonce, &aad, body)?;
        Some(Opened { content_type: header[0], plaintext })
    }

    /// RFC 8446 §5.2: the additional data is the record header; the plaintext is `TLSInnerPlaintext =
    /// content || ContentType type || uint8 zeros[length_of_padding]`: the real type is the last non-zero
    /// byte.
    fn open13(&self, header: &[u8; 5], fragment: &[u8]) -> Option<Opened> {
        let mut plaintext = self.aead.open(&self.xor_nonce()?, header, fragment)?;
        let end = plaintext.iter().rposition(|&b| b != 0)?;
        let content_type = *plaintext.get(end)?;
        plaintext.truncate(end);
        Some(Opened { content_type, plaintext })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::tls::keys::tls13_traffic_keys;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// RFC 8448 §3: "{client} send application_data record", 50 bytes 00..31 under the client
    /// application traffic secret, sequence 0.
    #[test]
    fn open13_decrypts_the_rfc8448_client_application_record() {
        let secret = hex("9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5");
        let keys = tls13_traffic_keys(HashAlg::Sha256, &secret, 16).unwrap();
        let mut c = RecordCipher::new(AeadAlg::Aes128Gcm, &keys, Layer::Tls13).unwrap();
        let rec = hex("1703030043a23f7054b62c94d0affafe8228ba55cbefacea42f914aa66bcab3f2b9819a8a5b46b395bd54a9a20441e2b62974e1f5a6292a2977014bd1e3deae63aeebb21694915e4");
        let header: [u8; 5] = rec[..5].try_into().unwrap();
        let mut again = c.clone();
        let o = c.open(&header, &rec[5..]).unwrap();
        assert_eq!(o.content_type, 23);
        assert_eq!(o.plaintext, (0u8..=0x31).collect::<Vec<u8>>());
        // A flipped bit fails authentication, and the sequence number does not move on.
        let mut bad = rec[5..].to_vec();
        bad[3] ^= 1;
        assert!(again.open(&header, &bad).is_none());
        assert!(again.open(&header, &rec[5..]).is_some());
        // The second record of a direction uses sequence 1: the same bytes no longer open.
        assert!(c.open(&header, &rec[5..]).is_none());
    }

    /// A TLS 1.2 CBC record as a sender makes it, with RustCrypto's encryptor: MAC-then-encrypt, or
    /// encrypt-then-MAC.
    #[allow(clippy::too_many_arguments)]
    fn seal_cbc(suite: CbcSuite, key: &[u8], mac_key: &[u8], etm: bool, seq: u64, header: [u8; 5], content: &[u8], pad: u8) -> Vec<u8> {
        use cbc::cipher::block_padding::NoPadding;
        use cbc::cipher::{BlockEncryptMut, KeyIvInit};
        use hmac::Mac;
        let tag = |data: &[u8]| -> Vec<u8> {
            let mut head = seq.to_be_bytes().to_vec();
            head.extend_from_slice(&header[..3]);
            head.extend_from_slice(&(data.len() as u16).to_be_bytes());
            match suite.mac {
                MacAlg::Sha1 => <hmac::Hmac<sha1::Sha1> as Mac>::new_from_slice(mac_key).unwrap().chain_update(&head).chain_update(data).finalize().into_bytes().to_vec(),
                MacAlg::Sha256 => <hmac::Hmac<sha2::Sha256> as Mac>::new_from_slice(mac_key).unwrap().chain_update(&head).chain_update(data).finalize().into_bytes().to_vec(),
                MacAlg::Sha384 => <hmac::Hmac<sha2::Sha384> as Mac>::new_from_slice(mac_key).unwrap().chain_update(&head).chain_update(data).finalize().into_bytes().to_vec(),
            }
        };
        let iv = [0x5a_u8; 16];
        let mut plain = content.to_vec();
        if !etm {
            plain.extend(tag(content));
        }
        // Padding up to the block, then `pad` more whole blocks (RFC 5246 allows up to 255 bytes).
        let short = 16 - (plain.len() + 1) % 16;
        let n = (short % 16) + 16 * usize::from(pad);
        plain.extend(std::iter::repeat_n(n as u8, n + 1));
        let len = plain.len();
        let sealed = match key.len() {
            16 => cbc::Encryptor::<aes::Aes128>::new_from_slices(key, &iv).unwrap().encrypt_padded_mut::<NoPadding>(&mut plain, len).unwrap().to_vec(),
            _ => cbc::Encryptor::<aes::Aes256>::new_from_slices(key, &iv).unwrap().encrypt_padded_mut::<NoPadding>(&mut plain, len).unwrap().to_vec(),
        };
        let mut frag = iv.to_vec();
        frag.extend(sealed);
        if etm {
            let t = tag(&frag);
            frag.extend(t);
        }
        frag
    }

    #[test]
    fn cbc_records_open_in_both_mac_orders_and_refuse_a_bad_mac_or_padding() {
        let content = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n{\"jsonrpc\":\"2.0\"}";
        let header = [23u8, 3, 3, 0, 0];
        for id in [0xc013, 0xc014, 0xc027, 0xc028] {
            let suite = cbc_suite(id).unwrap();
            let (key, mac_key) = (vec![3u8; suite.key_len], vec![4u8; suite.mac.output_len()]);
            for etm in [false, true] {
                let mut c = CbcCipher::new(suite, &key, &mac_key, etm).unwrap();
                for (seq, pad) in [(0u64, 0u8), (1, 2)] {
                    let rec = seal_cbc(suite, &key, &mac_key, etm, seq, header, content, pad);
                    let mut bad = rec.clone();
                    let last = bad.len() - 1;
                    bad[last] ^= 1;
                    assert!(c.clone().open(&header, &bad).is_none(), "{id:04x} etm {etm}: a flipped last byte");
                    let o = c.open(&header, &rec).unwrap_or_else(|| panic!("{id:04x} etm {etm} seq {seq}"));
                    assert_eq!((o.content_type, o.plaintext.as_slice()), (23, &content[..]));
                }
                // The sequence number is in the MAC: record 0 again no longer opens as record 2.
                assert!(c.open(&header, &seal_cbc(suite, &key, &mac_key, etm, 0, header, content, 0)).is_none());
            }
        }
        // Suites: AES-128-CBC-SHA with the default PRF, AES-256-CBC-SHA384 with SHA-384's.
        assert_eq!(cbc_suite(0xc013), Some(CbcSuite { key_len: 16, mac: MacAlg::Sha1, prf: HashAlg::Sha256 }));
        assert_eq!(cbc_suite(0xc028).map(|s| s.prf), Some(HashAlg::Sha384));
        assert_eq!(cbc_suite(0xc02f), None);
    }

    #[test]
    fn open12_gcm_and_chacha_round_trip_with_rustcrypto_seal() {
        for alg in [AeadAlg::Aes128Gcm, AeadAlg::Aes256Gcm, AeadAlg::ChaCha20Poly1305] {
            let keys = KeyIv { key: vec![7; alg.key_len()], iv: vec![9; alg.tls12_iv_len()] };
            let aead = Aead::new(alg, &keys.key).unwrap();
            let plain = b"GET / HTTP/1.1\r\n\r\n";
            let header = [23u8, 3, 3, 0, 0];
            let mut aad = vec![0u8; 8];
            aad.extend_from_slice(&[23, 3, 3]);
            aad.extend_from_slice(&(plain.len() as u16).to_be_bytes());
            let (nonce, prefix) = match alg {
                AeadAlg::ChaCha20Poly1305 => ([9u8; 12], vec![]),
                _ => {
                    let mut n = [9u8; 12];
                    n[4..].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
                    (n, vec![1, 2, 3, 4, 5, 6, 7, 8])
                }
            };
            let sealed = match &aead {
                Aead::Aes128(c) => c.encrypt((&nonce).into(), Payload { msg: plain, aad: &aad }).unwrap(),
                Aead::Aes256(c) => c.encrypt((&nonce).into(), Payload { msg: plain, aad: &aad }).unwrap(),
                Aead::ChaCha(c) => c.encrypt((&nonce).into(), Payload { msg: plain, aad: &aad }).unwrap(),
            };
            let mut frag = prefix;
            frag.extend_from_slice(&sealed);
            let mut c = RecordCipher::new(alg, &keys, Layer::Tls12).unwrap();
            let o = c.open(&header, &frag).unwrap();
            assert_eq!(o.plaintext, plain, "{alg:?}");
            assert_eq!(o.content_type, 23);
        }
    }
}

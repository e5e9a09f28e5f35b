//! Key schedules: the TLS 1.2 PRF key expansion (RFC 5246 §5, §6.3) and the TLS 1.3 HKDF-Expand-Label
//! derivations (RFC 8446 §7.1, §7.3, §7.2 KeyUpdate). It owns turning a logged secret into a record key and
//! IV; it never sees records. All primitives come from RustCrypto (`hmac`, `hkdf`, `sha2`).

use hkdf::Hkdf;
use hmac::{Hmac, Mac};
use sha2::{Sha256, Sha384};

/// The hash of a cipher suite (PRF hash in TLS 1.2, HKDF hash in TLS 1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashAlg {
    Sha256,
    Sha384,
}

impl HashAlg {
    pub fn output_len(self) -> usize {
        match self {
            HashAlg::Sha256 => 32,
            HashAlg::Sha384 => 48,
        }
    }
}

/// A record protection key and its IV (TLS 1.2: the implicit salt; TLS 1.3: the full 12-byte IV).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyIv {
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
}

/// RFC 5246 §5: `P_hash(secret, seed) = HMAC_hash(secret, A(1) + seed) + HMAC_hash(secret, A(2) + seed) + ...`
/// with `A(0) = seed`, `A(i) = HMAC_hash(secret, A(i-1))`; `PRF(secret, label, seed) = P_<hash>(secret, label + seed)`.
pub fn prf(hash: HashAlg, secret: &[u8], label: &[u8], seed: &[u8], len: usize) -> Vec<u8> {
    match hash {
        HashAlg::Sha256 => p_hash::<Hmac<Sha256>>(secret, label, seed, len),
        HashAlg::Sha384 => p_hash::<Hmac<Sha384>>(secret, label, seed, len),
    }
}

fn p_hash<M: Mac + hmac::digest::KeyInit + Clone>(secret: &[u8], label: &[u8], seed: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    let Ok(base) = <M as hmac::digest::KeyInit>::new_from_slice(secret) else {
        return out; // HMAC takes keys of any length; unreachable
    };
    let mut a: Vec<u8> = {
        let mut m = base.clone();
        m.update(label);
        m.update(seed);
        m.finalize().into_bytes().to_vec()
    };
    while out.len() < len {
        let mut m = base.clone();
        m.update(&a);
        m.update(label);
        m.update(seed);
        let block = m.finalize().into_bytes();
        let take = (len - out.len()).min(block.len());
        out.extend_from_slice(block.get(..take).unwrap_or_default());
        let mut m = base.clone();
        m.update(&a);
        a = m.finalize().into_bytes().to_vec();
    }
    out
}

/// RFC 5246 §6.3 for an AEAD suite: the key block ([`key_block`]) cut into client/server write keys, then
/// client/server IVs (no MAC keys). Returns (client, server).
pub fn tls12_keys(hash: HashAlg, master: &[u8], client_random: &[u8], server_random: &[u8], key_len: usize, iv_len: usize) -> (KeyIv, KeyIv) {
    let block = key_block(hash, master, client_random, server_random, 2 * key_len + 2 * iv_len);
    let part = |from: usize, len: usize| block.get(from..from + len).unwrap_or_default().to_vec();
    let client = KeyIv { key: part(0, key_len), iv: part(2 * key_len, iv_len) };
    let server = KeyIv { key: part(key_len, key_len), iv: part(2 * key_len + iv_len, iv_len) };
    (client, server)
}

/// RFC 5246 §6.3: `key_block = PRF(master_secret, "key expansion", server_random + client_random)`, `len`
/// bytes of it.
fn key_block(hash: HashAlg, master: &[u8], client_random: &[u8], server_random: &[u8], len: usize) -> Vec<u8> {
    let mut seed = Vec::with_capacity(64);
    seed.extend_from_slice(server_random);
    seed.extend_from_slice(client_random);
    prf(hash, master, b"key expansion", &seed, len)
}

/// One direction's keys of a TLS 1.2 CBC suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CbcKeys {
    pub mac: Vec<u8>,
    pub key: Vec<u8>,
}

/// RFC 5246 §6.3 for a block cipher: the key block holds the two MAC keys, then the two write keys; TLS 1.1+
/// sends each record's IV with it, so no IV comes from the block. Returns (client, server).
pub fn tls12_cbc_keys(hash: HashAlg, master: &[u8], client_random: &[u8], server_random: &[u8], mac_len: usize, key_len: usize) -> (CbcKeys, CbcKeys) {
    let block = key_block(hash, master, client_random, server_random, 2 * mac_len + 2 * key_len);
    let part = |from: usize, len: usize| block.get(from..from + len).unwrap_or_default().to_vec();
    let client = CbcKeys { mac: part(0, mac_len), key: part(2 * mac_len, key_len) };
    let server = CbcKeys { mac: part(mac_len, mac_len), key: part(2 * mac_len + key_len, key_len) };
    (client, server)
}

/// RFC 8446 §7.1: `HKDF-Expand-Label(Secret, Label, Context, Length) = HKDF-Expand(Secret, HkdfLabel, Length)`
/// with `struct { uint16 length; opaque label<7..255> = "tls13 " + Label; opaque context<0..255>; } HkdfLabel`.
/// `None` when the secret is shorter than the hash (not a PRK) or the label/length is out of range.
pub fn hkdf_expand_label(hash: HashAlg, secret: &[u8], label: &[u8], context: &[u8], len: usize) -> Option<Vec<u8>> {
    let full_label_len = u8::try_from(6 + label.len()).ok()?;
    let mut info = Vec::with_capacity(4 + full_label_len as usize + context.len());
    info.extend_from_slice(&u16::try_from(len).ok()?.to_be_bytes());
    info.push(full_label_len);
    info.extend_from_slice(b"tls13 ");
    info.extend_from_slice(label);
    info.push(u8::try_from(context.len()).ok()?);
    info.extend_from_slice(context);
    let mut out = vec![0u8; len];
    match hash {
        HashAlg::Sha256 => Hkdf::<Sha256>::from_prk(secret).ok()?.expand(&info, &mut out).ok()?,
        HashAlg::Sha384 => Hkdf::<Sha384>::from_prk(secret).ok()?.expand(&info, &mut out).ok()?,
    }
    Some(out)
}

/// RFC 8446 §7.3: `[sender]_write_key = HKDF-Expand-Label(Secret, "key", "", key_length)`,
/// `[sender]_write_iv = HKDF-Expand-Label(Secret, "iv", "", iv_length)`.
pub fn tls13_traffic_keys(hash: HashAlg, secret: &[u8], key_len: usize) -> Option<KeyIv> {
    Some(KeyIv { key: hkdf_expand_label(hash, secret, b"key", b"", key_len)?, iv: hkdf_expand_label(hash, secret, b"iv", b"", 12)? })
}

/// RFC 8446 §7.2: `application_traffic_secret_N+1 = HKDF-Expand-Label(application_traffic_secret_N,
/// "traffic upd", "", Hash.length)` (after a KeyUpdate, §4.6.3).
pub fn tls13_next_secret(hash: HashAlg, secret: &[u8]) -> Option<Vec<u8>> {
    hkdf_expand_label(hash, secret, b"traffic upd", b"", hash.output_len())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use sha2::Digest;

    pub fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// The TLS 1.2 PRF (SHA-256) vector circulated on the IETF TLS working group list.
    #[test]
    fn prf_sha256_matches_the_tls_wg_vector() {
        let out = prf(HashAlg::Sha256, &hex("9bbe436ba940f017b17652849a71db35"), b"test label", &hex("a0ba9f936cda311827a6f796ffd5198c"), 100);
        assert_eq!(
            out,
            hex("e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a6b301791e90d35c9c9a46b4e14baf9af0fa022f7077def17abfd3797c0564bab4fbc91666e9def9b97fce34f796789baa48082d122ee42c5a72e5a5110fff70187347b66")
        );
        // A prefix of the output is the output for a shorter length (P_hash is a stream).
        let short = prf(HashAlg::Sha256, &hex("9bbe436ba940f017b17652849a71db35"), b"test label", &hex("a0ba9f936cda311827a6f796ffd5198c"), 33);
        assert_eq!(short, out[..33]);
    }

    fn extract(salt: &[u8], ikm: &[u8]) -> Vec<u8> {
        Hkdf::<Sha256>::extract(Some(salt), ikm).0.to_vec()
    }

    /// RFC 8448 §3 (Simple 1-RTT Handshake): from the (EC)DHE shared secret and the transcript hashes of the
    /// trace, the handshake and application traffic secrets, keys and IVs.
    #[test]
    fn tls13_key_schedule_matches_rfc8448_simple_1rtt() {
        let h = HashAlg::Sha256;
        let early = extract(&[], &[0u8; 32]);
        assert_eq!(early, hex("33ad0a1c607ec03b09e6cd9893680ce210adf300aa1f2660e1b22e10f170f92a"));
        let empty_hash = Sha256::digest(b"").to_vec();
        let derived = hkdf_expand_label(h, &early, b"derived", &empty_hash, 32).unwrap();
        assert_eq!(derived, hex("6f2615a108c702c5678f54fc9dbab69716c076189c48250cebeac3576c3611ba"));
        let hs = extract(&derived, &hex("8bd4054fb55b9d63fdfbacf9f04b9f0d35e6d63f537563efd46272900f89492d"));
        assert_eq!(hs, hex("1dc826e93606aa6fdc0aadc12f741b01046aa6b99f691ed221a9f0ca043fbeac"));
        let th_sh = hex("860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8");
        let c_hs = hkdf_expand_label(h, &hs, b"c hs traffic", &th_sh, 32).unwrap();
        let s_hs = hkdf_expand_label(h, &hs, b"s hs traffic", &th_sh, 32).unwrap();
        assert_eq!(c_hs, hex("b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21"));
        assert_eq!(s_hs, hex("b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38"));
        let k = tls13_traffic_keys(h, &s_hs, 16).unwrap();
        assert_eq!(k.key, hex("3fce516009c21727d0f2e4e86ee403bc"));
        assert_eq!(k.iv, hex("5d313eb2671276ee13000b30"));
        let k = tls13_traffic_keys(h, &c_hs, 16).unwrap();
        assert_eq!(k.key, hex("dbfaa693d1762c5b666af5d950258d01"));
        assert_eq!(k.iv, hex("5bd3c71b836e0b76bb73265f"));
        let derived = hkdf_expand_label(h, &hs, b"derived", &empty_hash, 32).unwrap();
        let master = extract(&derived, &[0u8; 32]);
        assert_eq!(master, hex("18df06843d13a08bf2a449844c5f8a478001bc4d4c627984d5a41da8d0402919"));
        let th_sf = hex("9608102a0f1ccc6db6250b7b7e417b1a000eaada3daae4777a7686c9ff83df13");
        let c_ap = hkdf_expand_label(h, &master, b"c ap traffic", &th_sf, 32).unwrap();
        let s_ap = hkdf_expand_label(h, &master, b"s ap traffic", &th_sf, 32).unwrap();
        assert_eq!(c_ap, hex("9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5"));
        assert_eq!(s_ap, hex("a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643"));
        let k = tls13_traffic_keys(h, &c_ap, 16).unwrap();
        assert_eq!(k.key, hex("17422dda596ed5d9acd890e3c63f5051"));
        assert_eq!(k.iv, hex("5b78923dee08579033e523d9"));
        let k = tls13_traffic_keys(h, &s_ap, 16).unwrap();
        assert_eq!(k.key, hex("9f02283b6c9c07efc26bb9f2ac92e356"));
        assert_eq!(k.iv, hex("cf782b88dd83549aadf1e984"));
    }

    #[test]
    fn next_secret_changes_and_is_deterministic() {
        let s = hex("9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5");
        let n1 = tls13_next_secret(HashAlg::Sha256, &s).unwrap();
        assert_eq!(n1.len(), 32);
        assert_ne!(n1, s);
        assert_eq!(n1, hkdf_expand_label(HashAlg::Sha256, &s, b"traffic upd", b"", 32).unwrap());
        assert!(hkdf_expand_label(HashAlg::Sha384, &s, b"key", b"", 16).is_none(), "a 32-byte secret is not a SHA-384 PRK");
    }
}

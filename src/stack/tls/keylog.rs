//! The key store: secrets from NSS key-log files (`SSLKEYLOGFILE`, `--keylog`) and from pcapng Decryption
//! Secrets Blocks, indexed by client random. It owns parsing the key-log format only; it never derives keys.
//!
//! Format (NSS "Key Log Format", also draft-ietf-tls-keylogfile): one secret per line,
//! `<label> <client_random hex> <secret hex>`; `#` starts a comment; labels used here are `CLIENT_RANDOM`
//! (TLS 1.2 master secret, 48 bytes) and the TLS 1.3 traffic secrets. Lines are tolerated with CRLF,
//! mixed-case hex, surrounding blanks and any order; a malformed line is counted and skipped.

use std::collections::HashMap;

/// The secrets logged for one client random.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    /// TLS 1.2 (and earlier) master secret, `CLIENT_RANDOM`.
    pub master: Option<Vec<u8>>,
    pub client_handshake: Option<Vec<u8>>,
    pub server_handshake: Option<Vec<u8>>,
    pub client_app0: Option<Vec<u8>>,
    pub server_app0: Option<Vec<u8>>,
}

/// Every secret given to the run, by client random.
#[derive(Debug, Clone, Default)]
pub struct KeyLog {
    by_random: HashMap<[u8; 32], Secrets>,
    /// Lines that were not a comment, blank, or a well-formed secret.
    pub malformed_lines: u64,
    /// Well-formed lines with a label mcptap does not use (early traffic, exporter secrets).
    pub ignored_lines: u64,
    /// Well-formed secret lines stored.
    pub secret_lines: u64,
}

impl KeyLog {
    pub fn new() -> KeyLog {
        KeyLog::default()
    }

    /// No secret at all was given (the "no key log" reason, as opposed to "no matching client random").
    pub fn is_empty(&self) -> bool {
        self.by_random.is_empty()
    }

    pub fn get(&self, client_random: &[u8; 32]) -> Option<&Secrets> {
        self.by_random.get(client_random)
    }

    /// Adds every line of a key log (bytes: a DSB or file may hold anything).
    pub fn add_text(&mut self, text: &[u8]) {
        for line in text.split(|&b| b == b'\n') {
            self.add_line(line);
        }
    }

    fn add_line(&mut self, line: &[u8]) {
        let line = line.trim_ascii();
        if line.is_empty() || line.first() == Some(&b'#') {
            return;
        }
        let mut parts = line.split(|b| b.is_ascii_whitespace()).filter(|p| !p.is_empty());
        let (Some(label), Some(random), Some(secret), None) = (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            self.malformed_lines += 1;
            return;
        };
        let (Some(random), Some(secret)) = (unhex(random), unhex(secret)) else {
            self.malformed_lines += 1;
            return;
        };
        let Ok(random) = <[u8; 32]>::try_from(random.as_slice()) else {
            self.malformed_lines += 1;
            return;
        };
        // TLS 1.2 master secret is 48 bytes (RFC 5246 §8.1); TLS 1.3 secrets are Hash.length (32 or 48).
        let ok_len = match label {
            b"CLIENT_RANDOM" => secret.len() == 48,
            _ => secret.len() == 32 || secret.len() == 48,
        };
        if !ok_len {
            self.malformed_lines += 1;
            return;
        }
        let slot = {
            let e = self.by_random.entry(random).or_default();
            match label {
                b"CLIENT_RANDOM" => &mut e.master,
                b"CLIENT_HANDSHAKE_TRAFFIC_SECRET" => &mut e.client_handshake,
                b"SERVER_HANDSHAKE_TRAFFIC_SECRET" => &mut e.server_handshake,
                b"CLIENT_TRAFFIC_SECRET_0" => &mut e.client_app0,
                b"SERVER_TRAFFIC_SECRET_0" => &mut e.server_app0,
                _ => {
                    self.ignored_lines += 1;
                    if *e == Secrets::default() {
                        self.by_random.remove(&random);
                    }
                    return;
                }
            }
        };
        // ALLOC: one secret per key-log line, bounded by the key-log files the operator gives
        *slot = Some(secret);
        self.secret_lines += 1;
    }
}

fn unhex(s: &[u8]) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.chunks_exact(2)
        .map(|p| match p {
            [h, l] => Some(nibble(*h)? << 4 | nibble(*l)?),
            _ => None,
        })
        .collect()
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    const R1: &str = "0102030405060708091011121314151617181920212223242526272829303132";

    #[test]
    fn keylog_tolerates_crlf_case_comments_blanks_and_counts_malformed() {
        let master = "AB".repeat(48);
        let text = format!(
            "# comment\r\n\r\n  CLIENT_RANDOM {} {}\r\nSERVER_TRAFFIC_SECRET_0 {R1} {}\nBOGUS\nCLIENT_RANDOM {R1} 12\nEXPORTER_SECRET {R1} {}\nCLIENT_RANDOM zz{} {master}\n",
            R1.to_uppercase(),
            master.to_lowercase(),
            "cd".repeat(32),
            "00".repeat(32),
            &R1[2..]
        );
        let mut k = KeyLog::new();
        k.add_text(text.as_bytes());
        let mut r = [0u8; 32];
        for (i, b) in r.iter_mut().enumerate() {
            *b = u8::from_str_radix(&R1[i * 2..i * 2 + 2], 16).unwrap();
        }
        let s = k.get(&r).unwrap();
        assert_eq!(s.master.as_deref(), Some(&[0xab; 48][..]));
        assert_eq!(s.server_app0.as_deref(), Some(&[0xcd; 32][..]));
        assert_eq!(s.client_app0, None);
        assert_eq!(k.malformed_lines, 3);
        assert_eq!(k.ignored_lines, 1);
        assert_eq!(k.secret_lines, 2);
    }

    #[test]
    fn keylog_empty_and_unknown_random() {
        let mut k = KeyLog::new();
        assert!(k.is_empty());
        k.add_text(b"# nothing\n");
        assert!(k.is_empty());
        assert!(k.get(&[0; 32]).is_none());
    }
}

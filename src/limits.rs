//! Every cap mcptap puts on memory, in one place, with its default. Each is overridable from the CLI
//! (`--limit NAME=VALUE`) and each hit is counted in the summary, so a bound never silently loses data.

/// Resource caps. Defaults suit a sensor watching a few thousand concurrent MCP sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Open TCP connections tracked at once; the least recently active is evicted past this.
    pub max_connections: usize,
    /// Out-of-order bytes buffered per stream direction before the hole is declared a gap.
    pub max_ooo_bytes_per_stream: usize,
    /// Out-of-order bytes buffered across the whole capture.
    pub max_ooo_bytes_total: usize,
    /// Bytes of one HTTP request or response head (request line + headers).
    pub max_header_bytes: usize,
    /// Bytes of one JSON body kept for JSON-RPC decoding; larger bodies are counted and not decoded.
    pub max_body_bytes: usize,
    /// Bytes of one SSE event (all its lines) kept before it is cut.
    pub max_sse_event_bytes: usize,
    /// MCP sessions tracked at once; the least recently active is evicted past this.
    pub max_sessions: usize,
    /// Pending JSON-RPC request ids remembered per session.
    pub max_pending_per_session: usize,
    /// Distinct SSE event ids remembered per session for reuse detection.
    pub max_event_ids_per_session: usize,
    /// A connection with no packet for this long (capture time, seconds) is closed as idle.
    pub conn_idle_secs: i64,
    /// A session with no traffic for this long (capture time, seconds) is finished and released.
    pub session_idle_secs: i64,
    /// Incident rows kept (one per rule and session); past it, new incidents are merged into one row per
    /// rule with session `*`, so a flood of sessions each tripping a rule cannot exhaust memory.
    pub max_incidents: usize,
    /// Bytes the Content-Encoding decoders may produce for one body (every stage of a stack counts);
    /// past it the body is reported undecoded. Bounds the CPU a decompression bomb costs (memory is
    /// bounded by the decoders' fixed chunks, whatever this is).
    pub max_decoded_bytes_per_body: u64,
    /// The same, over all bodies of one connection.
    pub max_decoded_bytes_per_conn: u64,
    /// Live TLS: bytes of records one connection holds while its secrets are not in the key log yet.
    pub max_tls_wait_bytes_per_conn: usize,
    /// Live TLS: bytes held that way across all connections.
    pub max_tls_wait_bytes_total: usize,
    /// Live TLS: capture time (seconds) a connection waits for its secrets to be logged.
    pub tls_key_wait_secs: i64,
    /// HTTP/2: bytes of one header block (HEADERS + CONTINUATION) and of the header list it decodes to
    /// (RFC 9113 §6.5.2 size: name + value + 32 per field). Past it the fields are cut (an HPACK bomb).
    pub max_h2_header_list_bytes: usize,
    /// HTTP/2: streams open at once on one connection; a stream past it is not analysed (counted).
    pub max_h2_streams_per_conn: usize,
    /// HTTP/2: bytes of one frame buffered; a larger frame stops the connection's analysis (counted).
    pub max_h2_frame_bytes: usize,
    /// Not a cap: how reassembly treats wrong TCP checksums (`--checksums`).
    pub checksums: crate::decode::ChecksumPolicy,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 100_000,
            max_ooo_bytes_per_stream: 1 << 20,
            max_ooo_bytes_total: 64 << 20,
            max_header_bytes: 64 << 10,
            max_body_bytes: 4 << 20,
            max_sse_event_bytes: 1 << 20,
            max_sessions: 100_000,
            max_pending_per_session: 1024,
            max_event_ids_per_session: 4096,
            conn_idle_secs: 300,
            session_idle_secs: 1800,
            max_incidents: 100_000,
            max_decoded_bytes_per_body: 64 << 20,
            max_decoded_bytes_per_conn: 256 << 20,
            max_tls_wait_bytes_per_conn: 256 << 10,
            max_tls_wait_bytes_total: 16 << 20,
            tls_key_wait_secs: 5,
            max_h2_header_list_bytes: 64 << 10,
            max_h2_streams_per_conn: 1024,
            max_h2_frame_bytes: 1 << 20,
            checksums: crate::decode::ChecksumPolicy::Auto,
        }
    }
}

impl Limits {
    /// One shard's share with `--threads N`: the caps on what the whole run holds (connections, sessions,
    /// incident rows, buffered bytes) are split evenly, rounded up, so the shards together hold what the
    /// user set; the caps on one connection, stream, body or session stay as they are.
    pub fn per_shard(&self, shards: usize) -> Limits {
        let n = shards.max(1);
        Limits {
            max_connections: self.max_connections.div_ceil(n),
            max_ooo_bytes_total: self.max_ooo_bytes_total.div_ceil(n),
            max_sessions: self.max_sessions.div_ceil(n),
            max_incidents: self.max_incidents.div_ceil(n),
            max_tls_wait_bytes_total: self.max_tls_wait_bytes_total.div_ceil(n),
            ..self.clone()
        }
    }

    /// The names accepted by `--limit NAME=VALUE`, in the order the README documents them.
    pub const NAMES: &'static [&'static str] = &[
        "max_connections",
        "max_ooo_bytes_per_stream",
        "max_ooo_bytes_total",
        "max_header_bytes",
        "max_body_bytes",
        "max_sse_event_bytes",
        "max_sessions",
        "max_pending_per_session",
        "max_event_ids_per_session",
        "conn_idle_secs",
        "session_idle_secs",
        "max_incidents",
        "max_decoded_bytes_per_body",
        "max_decoded_bytes_per_conn",
        "max_tls_wait_bytes_per_conn",
        "max_tls_wait_bytes_total",
        "tls_key_wait_secs",
        "max_h2_header_list_bytes",
        "max_h2_streams_per_conn",
        "max_h2_frame_bytes",
    ];

    /// Sets one limit by name; the error names what was wrong.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let n: u64 = value
            .parse()
            .map_err(|_| format!("limit {name}: '{value}' is not a non-negative integer"))?;
        let as_usize = || usize::try_from(n).map_err(|_| format!("limit {name}: {n} is too large"));
        let as_i64 = || i64::try_from(n).map_err(|_| format!("limit {name}: {n} is too large"));
        match name {
            "max_connections" => self.max_connections = as_usize()?,
            "max_ooo_bytes_per_stream" => self.max_ooo_bytes_per_stream = as_usize()?,
            "max_ooo_bytes_total" => self.max_ooo_bytes_total = as_usize()?,
            "max_header_bytes" => self.max_header_bytes = as_usize()?,
            "max_body_bytes" => self.max_body_bytes = as_usize()?,
            "max_sse_event_bytes" => self.max_sse_event_bytes = as_usize()?,
            "max_sessions" => self.max_sessions = as_usize()?,
            "max_pending_per_session" => self.max_pending_per_session = as_usize()?,
            "max_event_ids_per_session" => self.max_event_ids_per_session = as_usize()?,
            "conn_idle_secs" => self.conn_idle_secs = as_i64()?,
            "session_idle_secs" => self.session_idle_secs = as_i64()?,
            "max_incidents" => self.max_incidents = as_usize()?,
            "max_decoded_bytes_per_body" => self.max_decoded_bytes_per_body = n,
            "max_decoded_bytes_per_conn" => self.max_decoded_bytes_per_conn = n,
            "max_tls_wait_bytes_per_conn" => self.max_tls_wait_bytes_per_conn = as_usize()?,
            "max_tls_wait_bytes_total" => self.max_tls_wait_bytes_total = as_usize()?,
            "tls_key_wait_secs" => self.tls_key_wait_secs = as_i64()?,
            "max_h2_header_list_bytes" => self.max_h2_header_list_bytes = as_usize()?,
            "max_h2_streams_per_conn" => self.max_h2_streams_per_conn = as_usize()?,
            "max_h2_frame_bytes" => self.max_h2_frame_bytes = as_usize()?,
            _ => {
                return Err(format!(
                    "unknown limit '{name}' (known: {})",
                    Self::NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn set_every_named_limit() {
        for name in Limits::NAMES {
            let mut l = Limits::default();
            l.set(name, "7").unwrap();
            assert_ne!(l, Limits::default(), "{name} did not change anything");
        }
    }

    #[test]
    fn readme_documents_every_limit_with_its_default() {
        let readme = include_str!("../README.md");
        let d = Limits::default();
        for name in Limits::NAMES {
            let mut probe = d.clone();
            // The default as the README writes it: the value `set` would need to leave it unchanged.
            let row = readme.lines().find(|l| l.starts_with(&format!("| {name} |"))).unwrap_or_else(|| panic!("README has no row for {name}"));
            let value = row.split('|').nth(2).unwrap().trim();
            probe.set(name, value).unwrap();
            assert_eq!(probe, d, "README's default for {name} is {value}");
        }
    }

    #[test]
    fn set_rejects_unknown_and_bad_values() {
        let mut l = Limits::default();
        assert!(l.set("nope", "1").unwrap_err().contains("unknown limit"));
        assert!(l.set("max_sessions", "-1").unwrap_err().contains("not a non-negative"));
    }
}

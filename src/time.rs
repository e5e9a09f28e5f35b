//! Capture time. Every clock in mcptap is a packet timestamp (Zeek's `network_time`): expiry, windows and
//! report times never read the wall clock, so the same capture always gives the same report.

use std::fmt;

/// Nanoseconds since the Unix epoch, as read from a pcap/pcapng record header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp(pub i64);

impl Timestamp {
    pub const ZERO: Timestamp = Timestamp(0);

    pub fn from_secs_nanos(secs: i64, nanos: u32) -> Self {
        Timestamp(secs.saturating_mul(1_000_000_000).saturating_add(i64::from(nanos)))
    }

    pub fn from_secs_micros(secs: i64, micros: u32) -> Self {
        Self::from_secs_nanos(secs, micros.saturating_mul(1000))
    }

    pub fn nanos(self) -> i64 {
        self.0
    }

    /// The whole second this instant falls in (towards the past, also before 1970).
    pub fn whole_second(self) -> Timestamp {
        Timestamp(self.0.div_euclid(1_000_000_000) * 1_000_000_000)
    }

    /// Time elapsed since `earlier`, zero if `earlier` is later (captures are not always in order).
    pub fn since(self, earlier: Timestamp) -> Duration {
        Duration(self.0.saturating_sub(earlier.0).max(0))
    }

    pub fn plus(self, d: Duration) -> Timestamp {
        Timestamp(self.0.saturating_add(d.0))
    }

    /// RFC 3339, UTC, microsecond precision: the CSV's `first_seen`/`last_seen` format.
    pub fn rfc3339(self) -> String {
        let secs = self.0.div_euclid(1_000_000_000);
        let nanos = self.0.rem_euclid(1_000_000_000) as u32;
        match chrono::DateTime::from_timestamp(secs, nanos) {
            Some(dt) => dt.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string(),
            None => "1970-01-01T00:00:00.000000Z".to_string(),
        }
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rfc3339())
    }
}

/// A span of capture time in nanoseconds; never negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(pub i64);

impl Duration {
    pub const fn from_secs(s: i64) -> Self {
        Duration(s * 1_000_000_000)
    }
    pub const fn from_millis(ms: i64) -> Self {
        Duration(ms * 1_000_000)
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn rfc3339_has_microseconds_and_z() {
        let t = Timestamp::from_secs_micros(1_700_000_000, 123_456);
        assert_eq!(t.rfc3339(), "2023-11-14T22:13:20.123456Z");
    }

    #[test]
    fn rfc3339_truncates_nanoseconds() {
        let t = Timestamp::from_secs_nanos(0, 999_999_999);
        assert_eq!(t.rfc3339(), "1970-01-01T00:00:00.999999Z");
    }

    #[test]
    fn since_never_negative() {
        let a = Timestamp(10);
        let b = Timestamp(5);
        assert_eq!(b.since(a), Duration(0));
        assert_eq!(a.since(b), Duration(5));
    }
}

//! The run's wall time and rate, the last line of the summary on standard error (`  elapsed: ...`).
//! The one place offline analysis reads the clock: it measures mcptap, not the traffic, so it never
//! reaches the reports (CSV, JSON lines, sessions, timeline, HTML), which stay byte-identical between
//! runs. Tests compare summaries with this line normalised (`tests/common`: `normalise_elapsed`).

use std::time::Instant;

pub struct Stopwatch(Instant);

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch(Instant::now())
    }

    /// `  elapsed:   412.0 ms wall time, 32.6 MB/s, 235,000 packets/s` (seconds from 1 s on).
    pub fn line(&self, bytes: u64, packets: u64) -> String {
        line(self.0.elapsed().as_secs_f64(), bytes, packets)
    }
}

fn line(secs: f64, bytes: u64, packets: u64) -> String {
    // Below 0.1 ms the rate says nothing; a zero-length run would divide by zero.
    let rate = if secs >= 0.0001 {
        format!(", {:.1} MB/s, {} packets/s", bytes as f64 / secs / 1e6, thousands((packets as f64 / secs).round() as u64))
    } else {
        String::new()
    };
    let wall = if secs < 1.0 { format!("{:.1} ms", secs * 1000.0) } else { format!("{secs:.3} s") };
    format!("  elapsed:   {wall} wall time{rate}\n")
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_line_gives_wall_time_and_rates() {
        assert_eq!(line(2.0, 64_000_000, 1_234_568), "  elapsed:   2.000 s wall time, 32.0 MB/s, 617,284 packets/s\n");
        assert_eq!(line(0.0, 10, 1), "  elapsed:   0.0 ms wall time\n");
        assert_eq!(line(0.5, 1_000_000, 10), "  elapsed:   500.0 ms wall time, 2.0 MB/s, 20 packets/s\n");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }
}

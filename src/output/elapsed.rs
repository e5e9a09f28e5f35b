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

/// CPU time the calling thread has used so far, from the scheduler's account
/// (`/proc/thread-self/schedstat`, nanoseconds on the CPU); `None` where the kernel does not keep it.
pub fn thread_cpu_secs() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// `  workers:   4, CPU s each 0.61 0.58 0.55 0.49 (busiest 0.61), reading 0.40` for `--threads N`: how
/// evenly the servers spread the work, and what N cores would give (the busiest worker bounds the run).
/// Past [`EACH_SHOWN`] workers the line gives the spread instead (`CPU s min 0.01, median 0.02, max 0.61`),
/// so that it stays a line.
pub fn workers_line(reader: Option<f64>, workers: &[Option<f64>]) -> String {
    let fmt = |s: Option<f64>| s.map_or_else(|| "?".to_string(), |s| format!("{s:.2}"));
    let busiest = workers.iter().flatten().copied().fold(None, |m: Option<f64>, s| Some(m.map_or(s, |m| m.max(s))));
    let cpu = if workers.len() <= EACH_SHOWN {
        let each: Vec<String> = workers.iter().map(|&s| fmt(s)).collect();
        format!("each {}", each.join(" "))
    } else {
        let mut known: Vec<f64> = workers.iter().flatten().copied().collect();
        known.sort_by(f64::total_cmp);
        let unknown = workers.len() - known.len();
        let spread = format!("min {}, median {}, max {}", fmt(known.first().copied()), fmt(known.get(known.len() / 2).copied()), fmt(known.last().copied()));
        if unknown > 0 { format!("{spread}, {unknown} unmeasured") } else { spread }
    };
    format!("  workers:   {}, CPU s {cpu} (busiest {}), reading {}\n", workers.len(), fmt(busiest), fmt(reader))
}

/// Workers whose CPU times the `workers:` line lists one by one.
const EACH_SHOWN: usize = 16;

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
        assert_eq!(workers_line(Some(0.4), &[Some(1.0), None, Some(1.25)]), "  workers:   3, CPU s each 1.00 ? 1.25 (busiest 1.25), reading 0.40\n");
        let sixteen: Vec<Option<f64>> = (0..16).map(|i| Some(f64::from(i) / 100.0)).collect();
        let each: Vec<String> = (0..16).map(|i| format!("{:.2}", f64::from(i) / 100.0)).collect();
        assert_eq!(workers_line(None, &sixteen), format!("  workers:   16, CPU s each {} (busiest 0.15), reading ?\n", each.join(" ")));
        let many: Vec<Option<f64>> = (0..1000).map(|i| if i == 7 { None } else { Some(f64::from(i % 100) / 100.0) }).collect();
        assert_eq!(workers_line(Some(0.13), &many), "  workers:   1000, CPU s min 0.00, median 0.50, max 0.99, 1 unmeasured (busiest 0.99), reading 0.13\n");
        assert!(thread_cpu_secs().is_none_or(|s| s >= 0.0));
    }
}

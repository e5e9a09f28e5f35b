//! The progress bar of an offline run, on standard error: bytes of the input files read, rate, MCP
//! sessions open and incidents so far. Shown only when standard error is a terminal (and `-q` is not
//! given); a pipe or a log file gets nothing, so scripted runs stay clean.
//!
//! This is UI, not analysis: indicatif reads the wall clock for the rate and redraws at most
//! `REDRAW_HZ` times a second; the analyzer never sees either. The caller ticks it once per packet and it
//! touches the bar only every `TICK_PACKETS` packets, so the cost per packet is one counter increment.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

const REDRAW_HZ: u8 = 10;
const TICK_PACKETS: u64 = 4096;

pub struct Progress {
    bar: Option<ProgressBar>,
    packets: u64,
}

impl Progress {
    /// A bar over `total` bytes (unknown for standard input), or a silent one when standard error is not
    /// a terminal or `enabled` is false.
    pub fn new(enabled: bool, total: Option<u64>) -> Progress {
        if !enabled || !std::io::stderr().is_terminal() {
            return Progress { bar: None, packets: 0 };
        }
        let bar = match total {
            Some(t) => ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr_with_hz(REDRAW_HZ)),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(REDRAW_HZ)),
        };
        let template = if total.is_some() {
            "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}  {msg}"
        } else {
            "{spinner} {bytes} {binary_bytes_per_sec}  {msg}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Progress { bar: Some(bar), packets: 0 }
    }

    pub fn is_shown(&self) -> bool {
        self.bar.is_some()
    }

    /// Called per packet; `stats` is evaluated only when the bar is redrawn: (bytes read, open sessions,
    /// incidents).
    pub fn tick(&mut self, stats: impl FnOnce() -> (u64, usize, usize)) {
        let Some(bar) = &self.bar else { return };
        self.packets += 1;
        if !self.packets.is_multiple_of(TICK_PACKETS) {
            return;
        }
        let (bytes, sessions, incidents) = stats();
        bar.set_position(bytes);
        bar.set_message(format!("{} packets, {sessions} sessions open, {incidents} incidents", self.packets));
    }

    /// Removes the bar before the summary is printed.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn progress_disabled_never_asks_for_stats() {
        let mut p = Progress::new(false, Some(10));
        assert!(!p.is_shown());
        for _ in 0..(TICK_PACKETS * 2) {
            p.tick(|| panic!("stats read while the bar is off"));
        }
        p.finish();
    }
}

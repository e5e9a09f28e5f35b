// Panicking on a broken expectation is what a test is for.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

// One integration binary (ripgrep style): each module below is a group of end-to-end tests that run the
// real `mcptap` binary.

// Shared helpers: running the binary, golden-file comparison with a readable diff.
mod common;
// Every sample capture against its golden CSV report and summary, plus what each sample must show.
mod e2e;
// Flags, exit codes and error messages.
mod cli;
// The incident catalogue: expectations per sample, and every rule proven by a sample.
mod rules;
// Live capture on loopback with real SDK traffic (needs the `live` feature, root and the samples venv).
#[cfg(feature = "live")]
mod live;

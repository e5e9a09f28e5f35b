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
// Reports people act on: JSON lines, Wireshark filters, session inventory, timeline, CI gate.
mod reports;
// The HTML report in headless Chromium (skipped when Chromium is not installed).
mod html;
// TLS samples: decryption gives what the plaintext twin gives, tshark agrees, missing keys are reported.
mod tls;
// A classic-pcap editor for the damage tests: cut, snap, impair.
mod pcapedit;
// Damaged captures: impaired paths, midstream starts, snap-length cuts.
mod damage;
// The HTTP transactions mcptap reassembles against tshark's (skipped without tshark).
mod tshark;
// Real SDK traffic through an impaired path reports what its clean twin reports.
mod impaired;
// Damaged files, broken pipes, whole CSV rows, no wall clock in src/ (docs/robustness.md).
mod robust;
// Adversarial traffic against the caps, with a downgrade session that must still be found.
mod adversarial;
// Compressed bodies: real gzip/br/zstd sessions report what their uncompressed twins do; damage is reported.
mod compressed;
// Live capture on loopback with real SDK traffic (needs the `live` feature, root and the samples venv).
#[cfg(feature = "live")]
mod live;

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
// Real traffic of other implementations (conformance suite, third-party SDKs, gateways) against its labels.
mod ecosystem;
// Reports people act on: JSON lines, Wireshark filters, session inventory, timeline, CI gate.
mod reports;
// The HTML report in headless Chromium (ignored, with the reason, when Chromium is not on PATH).
mod html;
// TLS samples: decryption gives what the plaintext twin gives, tshark agrees, missing keys are reported.
mod tls;
// A classic-pcap editor for the damage tests: cut, snap, impair.
mod pcapedit;
// Damaged captures: impaired paths, midstream starts, snap-length cuts.
mod damage;
// The HTTP transactions mcptap reassembles against tshark's (ignored, with the reason, without tshark).
mod tshark;
// Real SDK traffic through an impaired path reports what its clean twin reports.
mod impaired;
// Damaged files, broken pipes, whole CSV rows, no wall clock in src/ (docs/robustness.md).
mod robust;
// Captures with nothing mcptap can analyse: said in one line, exit 2, a coverage row.
mod unreadable;
// The stated minimum Rust covers every locked dependency.
mod msrv;
// The suite itself: tests needing external tools are ignored with the reason, never silently passed.
mod honest;
// Adversarial traffic against the caps, with a downgrade session that must still be found.
mod adversarial;
// Compressed bodies: real gzip/br/zstd sessions report what their uncompressed twins do; damage is reported.
mod compressed;
// Live capture on loopback with real SDK traffic (needs the `live` feature, root and the samples venv).
#[cfg(feature = "live")]
mod live;

//! mcptap: a passive analyzer of Model Context Protocol traffic.
//!
//! The pipeline, one stage per module, each handing typed values forward and none reaching back:
//! `capture` (packets) -> `decode` (TCP segments) -> `reassembly` (byte streams) -> `http` (messages, SSE
//! events) -> `mcp` (JSON-RPC, sessions, era) -> `classify` (per-session facts) -> `detect` (rules) ->
//! `output` (CSV). The core is synchronous and sans-IO: `Analyzer::on_packet` / `Analyzer::finish`.

#![forbid(unsafe_code)]

pub mod capture;
pub mod decode;
pub mod http;
pub mod limits;
pub mod reassembly;
pub mod time;

//! rust5 harness for mcp-transport-rs 0.1.0 (crates.io, arthasyou/mcp-rs): its client `SseTransport` (legacy
//! HTTP+SSE: GET the SSE URL with eventsource-client, wait for the `endpoint` event, POST every request there with
//! service_utils_rs/reqwest, read the response from the GET stream).
//!
//!   mtrs-harness URL [--hold S]
//!
//! start(), then over `send()` (requests only: the transport refuses a message without an id, so no
//! `notifications/initialized` can be sent through it): initialize (2024-11-05), tools/list, add(1,2),
//! echo("hello"), slow_count(3), no_such_tool, fail, [S seconds idle], add(40,2), close(). Each send is bounded
//! to 10 s by this harness (the transport itself waits for ever).
use std::time::Duration;

use mcp_core_rs::protocol::message::{JsonRpcMessage, JsonRpcRequest};
use mcp_transport_rs::client::impls::sse::SseTransport;
use mcp_transport_rs::client::traits::ClientTransport;
use serde_json::{json, Value};

async fn req(t: &SseTransport, id: u64, method: &str, params: Value) {
    // A struct literal, not JsonRpcRequest::new: mcp-core-rs 0.1.0's constructor writes `"jsonrpc":"jsonrpc"` (its
    // constant JSONRPC_VERSION_FIELD is the field's name, not "2.0"), which the Python SDK server rejects unanswered.
    let m = JsonRpcMessage::Request(JsonRpcRequest { jsonrpc: "2.0".to_string(), id: Some(id), method: method.to_string(), params: Some(params) });
    match tokio::time::timeout(Duration::from_secs(10), t.send(m)).await {
        Ok(Ok(r)) => println!("{} #{} -> {}", method, id, serde_json::to_string(&r).unwrap_or_default().chars().take(200).collect::<String>()),
        Ok(Err(e)) => println!("{} #{} -> error {}", method, id, e),
        Err(_) => println!("{} #{} -> no answer in 10 s", method, id),
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args.get(1).expect("usage: mtrs-harness URL [--hold S]");
    let hold: f64 = args.iter().position(|a| a == "--hold").map(|i| args[i + 1].parse().unwrap()).unwrap_or(0.0);
    let t = SseTransport::new(url);
    match tokio::time::timeout(Duration::from_secs(10), t.start()).await {
        Ok(Ok(())) => println!("started"),
        other => { println!("start failed: {:?}", other.map(|r| r.map_err(|e| e.to_string()))); return; }
    }
    req(&t, 1, "initialize", json!({"protocolVersion": "2024-11-05", "capabilities": {},
        "clientInfo": {"name": "rust5-mcp-transport-rs", "version": "0.1.0"}})).await;
    req(&t, 2, "tools/list", json!({})).await;
    req(&t, 3, "tools/call", json!({"name": "add", "arguments": {"a": 1, "b": 2}})).await;
    req(&t, 4, "tools/call", json!({"name": "echo", "arguments": {"text": "hello"}})).await;
    req(&t, 5, "tools/call", json!({"name": "slow_count", "arguments": {"n": 3}})).await;
    req(&t, 6, "tools/call", json!({"name": "no_such_tool", "arguments": {}})).await;
    req(&t, 7, "tools/call", json!({"name": "fail", "arguments": {}})).await;
    if hold > 0.0 {
        println!("holding {} s", hold);
        tokio::time::sleep(Duration::from_secs_f64(hold)).await;
    }
    req(&t, 8, "tools/call", json!({"name": "add", "arguments": {"a": 40, "b": 2}})).await;
    let _ = t.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    println!("done");
}

//! mcp-protocol-sdk 0.5.1 harness (samples/gen/ecosystem/rust-sdks3.sh):
//!   mps-harness server --port P   HttpMcpServer::new + add_tool (add, echo, slow_count) + start(HttpServerTransport::new
//!                                 ("127.0.0.1:P")), as its examples/server/http_server.rs (POST /mcp JSON replies,
//!                                 POST /mcp/notify, GET /mcp/events, GET /health)
//!   mps-harness client --url BASE [--sse]  McpClient::new + connect(HttpClientTransport::new(BASE, None or
//!                                 Some(BASE/mcp/events))): it POSTs to BASE/mcp and BASE/mcp/notify; tools/list,
//!                                 add(1,2), echo("hello"), slow_count(3), add(40,2), disconnect
//! Its tools get no request context (no progress): slow_count only waits 0.1 s a step.
use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use mcp_protocol_sdk::{
    client::McpClient,
    core::{error::McpResult, tool::ToolHandler},
    protocol::types::{ContentBlock, ToolResult},
    server::HttpMcpServer,
    transport::http::{HttpClientTransport, HttpServerTransport},
};
use serde_json::{json, Value};

fn text(s: String) -> ToolResult {
    ToolResult { content: vec![ContentBlock::text(s)], is_error: None, structured_content: None, meta: None }
}
struct Add;
struct Echo;
struct Slow;
#[async_trait]
impl ToolHandler for Add {
    async fn call(&self, a: HashMap<String, Value>) -> McpResult<ToolResult> {
        let n = |k: &str| a.get(k).and_then(Value::as_i64).unwrap_or(0);
        Ok(text((n("a") + n("b")).to_string()))
    }
}
#[async_trait]
impl ToolHandler for Echo {
    async fn call(&self, a: HashMap<String, Value>) -> McpResult<ToolResult> {
        Ok(text(a.get("text").and_then(Value::as_str).unwrap_or("").to_string()))
    }
}
#[async_trait]
impl ToolHandler for Slow {
    async fn call(&self, a: HashMap<String, Value>) -> McpResult<ToolResult> {
        let n = a.get("n").and_then(Value::as_u64).unwrap_or(3);
        for _ in 0..n {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(text(format!("counted to {n}")))
    }
}

async fn server(port: u16) -> anyhow::Result<()> {
    let mut http = HttpMcpServer::new("rust-sdks3-mcp-protocol-sdk".to_string(), "0.0.0".to_string());
    {
        let s = http.server().await;
        let s = s.lock().await;
        let obj = |props: Value, req: Value| json!({"type": "object", "properties": props, "required": req});
        s.add_tool("add".into(), Some("Add two integers".into()),
                   obj(json!({"a": {"type": "integer"}, "b": {"type": "integer"}}), json!(["a", "b"])), Add).await?;
        s.add_tool("echo".into(), Some("Echo a text".into()), obj(json!({"text": {"type": "string"}}), json!(["text"])), Echo)
            .await?;
        s.add_tool("slow_count".into(), Some("Count to n, 0.1 s a step".into()),
                   obj(json!({"n": {"type": "integer"}}), json!(["n"])), Slow).await?;
    }
    http.start(HttpServerTransport::new(format!("127.0.0.1:{port}"))).await?;
    tokio::signal::ctrl_c().await?;
    Ok(())
}

async fn client(base: &str, sse: bool) -> anyhow::Result<()> {
    let mut c = McpClient::new("rust-sdks3-mcp-protocol-sdk-client".to_string(), "0.0.0".to_string());
    let events = format!("{base}/mcp/events");
    let t = HttpClientTransport::new(base, if sse { Some(events.as_str()) } else { None }).await?;
    let init = c.connect(t).await?;
    println!("initialized {} {}", init.protocol_version, init.server_info.name);
    let tools = c.list_tools(None).await?;
    println!("tools {:?}", tools.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>());
    for (name, args) in [("add", json!({"a": 1, "b": 2})), ("echo", json!({"text": "hello"})),
                         ("slow_count", json!({"n": 3})), ("add", json!({"a": 40, "b": 2}))] {
        let map: HashMap<String, Value> = args.as_object().unwrap().clone().into_iter().collect();
        match c.call_tool(name.to_string(), Some(map)).await {
            Ok(r) => println!("{name} {args} -> {:?}", r.content),
            Err(e) => println!("{name} {args} -> ERROR {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    c.disconnect().await?;
    println!("disconnected");
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let opt = |k: &str| args.iter().position(|a| a == k).map(|i| args[i + 1].clone());
    match args.get(1).map(String::as_str) {
        Some("server") => server(opt("--port").expect("--port").parse()?).await,
        Some("client") => tokio::time::timeout(Duration::from_secs(50),
                                               client(&opt("--url").expect("--url"), args.iter().any(|a| a == "--sse"))).await?,
        _ => anyhow::bail!("usage: mps-harness server --port P | client --url BASE [--sse]"),
    }
}

//! prism-mcp-rs 3.1.0 harness (samples/gen/ecosystem/rust-sdks3.sh):
//!   prism-harness server --port P [--mode auto|legacy|modern]
//!       McpServer::create + add_tool (add, echo, slow_count) + start(HttpServerTransport::new("127.0.0.1:P"))
//!       (its only HTTP server: POST /mcp JSON replies, POST /mcp/notify, GET /mcp/events, GET /health);
//!       protocol mode default Auto (both eras)
//!   prism-harness client --url U [--mode auto|legacy|modern]
//!       McpClient::new + connect_with_http(U, None), tools/list, add(1,2), echo("hello"), slow_count(3), add(40,2),
//!       disconnect. Its tools get no request context, so slow_count sends no progress: it only waits 0.1 s a step.
use std::time::Duration;

use prism_mcp_rs::prelude::*;
use prism_mcp_rs::protocol::ProtocolMode;
use prism_mcp_rs::transport::HttpServerTransport;

struct Add;
struct Echo;
struct Slow;

#[async_trait]
impl ToolHandler for Add {
    async fn call(&self, a: HashMap<String, Value>) -> McpResult<ToolResult> {
        let n = |k: &str| a.get(k).and_then(Value::as_i64).unwrap_or(0);
        Ok(ToolResult::text((n("a") + n("b")).to_string()))
    }
}
#[async_trait]
impl ToolHandler for Echo {
    async fn call(&self, a: HashMap<String, Value>) -> McpResult<ToolResult> {
        Ok(ToolResult::text(a.get("text").and_then(Value::as_str).unwrap_or("").to_string()))
    }
}
#[async_trait]
impl ToolHandler for Slow {
    async fn call(&self, a: HashMap<String, Value>) -> McpResult<ToolResult> {
        let n = a.get("n").and_then(Value::as_u64).unwrap_or(3);
        for _ in 0..n {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(ToolResult::text(format!("counted to {n}")))
    }
}

fn mode(m: Option<String>) -> ProtocolMode {
    match m.as_deref() {
        Some("legacy") => ProtocolMode::LegacyOnly,
        Some("modern") => ProtocolMode::ModernOnly,
        _ => ProtocolMode::Auto,
    }
}

async fn server(port: u16, m: ProtocolMode) -> anyhow::Result<()> {
    let mut srv = McpServer::create("rust-sdks3-prism", "0.0.0");
    srv.set_protocol_mode(m);
    let obj = |props: Value, req: Value| json!({"type": "object", "properties": props, "required": req});
    srv.add_tool("add", Some("Add two integers"),
                 obj(json!({"a": {"type": "integer"}, "b": {"type": "integer"}}), json!(["a", "b"])), Add).await?;
    srv.add_tool("echo", Some("Echo a text"), obj(json!({"text": {"type": "string"}}), json!(["text"])), Echo).await?;
    srv.add_tool("slow_count", Some("Count to n, 0.1 s a step"), obj(json!({"n": {"type": "integer"}}), json!(["n"])), Slow)
        .await?;
    srv.start(HttpServerTransport::new(format!("127.0.0.1:{port}"))).await?;
    tokio::signal::ctrl_c().await?;
    Ok(())
}

async fn client(url: &str, m: ProtocolMode) -> anyhow::Result<()> {
    let mut c = McpClient::new("rust-sdks3-prism-client".to_string(), "0.0.0".to_string());
    c.set_protocol_mode(m);
    let r = c.connect_with_http(url, None).await?;
    println!("connected {:?}", r.protocol);
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
        Some("server") => server(opt("--port").expect("--port").parse()?, mode(opt("--mode"))).await,
        Some("client") => {
            tokio::time::timeout(Duration::from_secs(50), client(&opt("--url").expect("--url"), mode(opt("--mode")))).await?
        }
        _ => anyhow::bail!("usage: prism-harness server --port P | client --url U"),
    }
}

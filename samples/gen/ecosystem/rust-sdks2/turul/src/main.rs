//! turul-mcp-server 0.4.5 / turul-mcp-client 0.4.6 harness of the mcptap ecosystem group `rust-sdks2`, default
//! features (the crates' default build: MCP 2026-07-28 stateless core on the server; a "bilingual" client that
//! negotiates 2026-07-28 or 2025-11-25 per connection).
//!
//!   turul-harness server --port P
//!       McpServer::builder() (the README's Quick Start: name, version, tools, bind_address, build, run) on
//!       127.0.0.1:P, endpoint /mcp, with add(a,b), echo(text) (#[mcp_tool]) and slow_count(n) (#[derive(McpTool)]:
//!       n notifications/progress 0.1 s apart through SessionContext::notify_request_progress_with_message, which
//!       sends only when the request carries a progressToken).
//!   turul-harness client --url URL [--slow N]
//!       McpClientBuilder + transport::HttpTransport (defaults): connect, tools/list, add(1,2), echo("hello"),
//!       slow_count(N, default 3) with call_tool_with_progress (token 1), add(40,2), disconnect.
use std::time::{Duration, Instant};

use turul_mcp_client::transport::HttpTransport;
use turul_mcp_client::McpClientBuilder;
use turul_mcp_derive::{mcp_tool, McpTool};
use turul_mcp_server::prelude::*;

#[mcp_tool(name = "add", description = "Add two integers.")]
async fn add(#[param(description = "a")] a: f64, #[param(description = "b")] b: f64) -> McpResult<f64> {
    Ok(a + b)
}

#[mcp_tool(name = "echo", description = "Echo the text back.")]
async fn echo(#[param(description = "text")] text: String) -> McpResult<String> {
    Ok(text)
}

#[derive(McpTool, Clone, Default)]
#[tool(name = "slow_count", description = "Count to n, one progress notification every 0.1 s.")]
struct SlowCount {
    #[param(description = "how many steps")]
    n: f64,
}

impl SlowCount {
    async fn execute(&self, session: Option<SessionContext>) -> McpResult<String> {
        let n = self.n as u32;
        for k in 1..=n {
            if let Some(s) = &session {
                s.notify_request_progress_with_message(k as f64, Some(n as f64), format!("step {k}")).await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(format!("counted to {n}"))
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

async fn server(port: u16) -> Result<(), Box<dyn std::error::Error>> {
    let bind_address: std::net::SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let server = McpServer::builder()
        .name("rust-sdks2-turul-server")
        .version("1.0.0")
        .tool_fn(add)
        .tool_fn(echo)
        .tool(SlowCount::default())
        .bind_address(bind_address)
        .build()?;
    server.run().await?;
    Ok(())
}

async fn client(url: &str, slow: u32) -> Result<(), Box<dyn std::error::Error>> {
    let t0 = Instant::now();
    let log = move |s: String| eprintln!("[{:.3}] {s}", t0.elapsed().as_secs_f64());
    let transport = HttpTransport::new(url)?;
    let client = McpClientBuilder::new().with_transport(Box::new(transport)).build();
    client.connect().await?;
    log(format!("negotiated {:?}", client.negotiated_version().await));
    match client.list_tools().await {
        Ok(t) => log(format!("tools {:?}", t.iter().map(|t| t.name.clone()).collect::<Vec<_>>())),
        Err(e) => log(format!("tools/list failed: {e}")),
    }
    for (name, a) in [("add", serde_json::json!({"a": 1, "b": 2})), ("echo", serde_json::json!({"text": "hello"}))] {
        match client.call_tool(name, a.clone()).await {
            Ok(r) => log(format!("{name} {a} -> {:?}", r.content)),
            Err(e) => log(format!("{name} {a} failed: {e}")),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let a = serde_json::json!({"n": slow});
    match client
        .call_tool_with_progress("slow_count", a.clone(), serde_json::json!(1), |p| {
            eprintln!("[{:.3}] progress {p}", t0.elapsed().as_secs_f64())
        })
        .await
    {
        Ok(r) => log(format!("slow_count {a} -> {:?}", r.content)),
        Err(e) => {
            log(format!("slow_count with progress failed: {e}; plain call_tool instead"));
            match client.call_tool("slow_count", a.clone()).await {
                Ok(r) => log(format!("slow_count {a} -> {:?}", r.content)),
                Err(e) => log(format!("slow_count {a} failed: {e}")),
            }
        }
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let a = serde_json::json!({"a": 40, "b": 2});
    match client.call_tool("add", a.clone()).await {
        Ok(r) => log(format!("add {a} -> {:?}", r.content)),
        Err(e) => log(format!("add {a} failed: {e}")),
    }
    client.disconnect().await?;
    log("closed".into());
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("server") => server(arg(&args, "--port").expect("--port").parse()?).await,
        Some("client") => {
            let slow = arg(&args, "--slow").map(|s| s.parse().unwrap()).unwrap_or(3);
            client(&arg(&args, "--url").expect("--url"), slow).await
        }
        _ => {
            eprintln!("usage: turul-harness server --port P | client --url URL [--slow N]");
            std::process::exit(2)
        }
    }
}

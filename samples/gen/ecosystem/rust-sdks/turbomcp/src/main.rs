//! turbomcp harness: its own Streamable HTTP server (`run_http`, endpoint /mcp) and its HTTP client
//! (`Client::connect_http`), both with defaults, for loopback captures.
//!
//!   turbomcp-harness server --port N
//!   turbomcp-harness client --url http://HOST:PORT      (the client appends /mcp)
//!
//! Server tools: add(a,b), echo(text), slow_count(n) (n progress notifications, 100 ms apart, when the request
//! carries a progressToken). Client: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with a
//! progressToken, add(40,2), then shut down. A failed call is printed and the next call follows.
use std::{collections::HashMap, time::Duration};

use turbomcp::prelude::*;
use turbomcp_client::Client;
use turbomcp_protocol::MessageId;

#[derive(Clone)]
struct Demo;

#[turbomcp::server(name = "turbomcp-harness", version = "0.1.0")]
impl Demo {
    /// Add two integers
    #[tool(description = "Add two integers")]
    async fn add(&self, a: i64, b: i64) -> McpResult<String> {
        Ok((a + b).to_string())
    }

    /// Echo a text
    #[tool(description = "Echo a text")]
    async fn echo(&self, text: String) -> McpResult<String> {
        Ok(text)
    }

    /// Count to n, sending a progress notification per step
    #[tool(description = "Count to n, sending a progress notification per step")]
    async fn slow_count(&self, n: i64, ctx: &RequestContext) -> McpResult<String> {
        for step in 1..=n {
            let r = ctx.report_progress(step as f64, Some(n as f64), Some(&format!("step {step}"))).await;
            eprintln!("slow_count: progress {step} sent: {r:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(format!("counted to {n}"))
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

async fn server(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let port: u16 = arg(args, "--port").expect("--port").parse()?;
    eprintln!("turbomcp server on 127.0.0.1:{port} pid={}", std::process::id());
    Demo.run_http(&format!("127.0.0.1:{port}")).await?;
    Ok(())
}

async fn client(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let url = arg(args, "--url").expect("--url");
    let client = Client::connect_http(url).await?;
    let tools = client.list_tools().await?;
    println!("tools: {:?}", tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>());
    for (name, a, progress) in [
        ("add", serde_json::json!({"a": 1, "b": 2}), None),
        ("echo", serde_json::json!({"text": "hello"}), None),
        ("slow_count", serde_json::json!({"n": 3}), Some(1)),
        ("add", serde_json::json!({"a": 40, "b": 2}), None),
    ] {
        let args: HashMap<String, serde_json::Value> = serde_json::from_value(a).expect("args");
        let token = progress.map(MessageId::Number);
        // a failed call is printed and the session goes on with the next call
        match client.call_tool_response_with_progress(name, Some(args), None, token).await {
            Ok(r) => println!("{name}: {r:?}"),
            Err(e) => println!("{name}: error {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    client.shutdown().await?;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("server") => server(&args).await,
        Some("client") => client(&args).await,
        _ => Err("usage: turbomcp-harness server|client ...".into()),
    }
}

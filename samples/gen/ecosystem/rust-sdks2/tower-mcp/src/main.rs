//! tower-mcp 0.25.0 harness of the mcptap ecosystem group `rust-sdks2`.
//!
//!   tower-mcp-harness server --port P [--sse-responses]
//!       McpRouter with add(a,b), echo(text), slow_count(n) (n notifications/progress 0.1 s apart when the request
//!       carries a progressToken), served by HttpTransport (Streamable HTTP, endpoint `/`) on 127.0.0.1:P. Defaults:
//!       sessions optional, JSON replies, the in-memory event store. --sse-responses: `.sse_responses(true)` (every
//!       POST reply as SSE, the crate's rmcp-compatible option).
//!   tower-mcp-harness client --url URL [--slow N]
//!       McpClient over HttpClientTransport (defaults; request_progress so tools/call carries a progressToken):
//!       initialize, tools/list, add(1,2), echo("hello"), slow_count(N, default 3), add(40,2), shutdown.
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Deserialize;
use tower_mcp::client::{HttpClientTransport, McpClient, NotificationHandler};
use tower_mcp::extract::{Context, Json};
use tower_mcp::transport::http::HttpTransport;
use tower_mcp::{BoxError, CallToolResult, McpRouter, ToolBuilder};

#[derive(Debug, Deserialize, JsonSchema)]
struct AddInput {
    a: i64,
    b: i64,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct EchoInput {
    text: String,
}

#[derive(Debug, Deserialize, JsonSchema, Clone)]
struct SlowInput {
    n: u32,
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

async fn server(port: u16, sse: bool) -> Result<(), BoxError> {
    let add = ToolBuilder::new("add")
        .description("Add two integers.")
        .handler(|i: AddInput| async move { Ok(CallToolResult::text((i.a + i.b).to_string())) })
        .build();
    let echo = ToolBuilder::new("echo")
        .description("Echo the text back.")
        .handler(|i: EchoInput| async move { Ok(CallToolResult::text(i.text)) })
        .build();
    let slow = ToolBuilder::new("slow_count")
        .description("Count to n, one progress notification every 0.1 s.")
        .extractor_handler((), |ctx: Context, Json(i): Json<SlowInput>| async move {
            for k in 1..=i.n {
                ctx.report_progress(k as f64, Some(i.n as f64), Some(&format!("step {k}"))).await;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Ok(CallToolResult::text(format!("counted to {}", i.n)))
        })
        .build();
    let router = McpRouter::new()
        .server_info("rust-sdks2-tower-mcp-server", "1.0.0")
        .tool(add)
        .tool(echo)
        .tool(slow);
    let mut t = HttpTransport::new(router);
    if sse {
        t = t.sse_responses(true);
    }
    t.serve(&format!("127.0.0.1:{port}")).await?;
    Ok(())
}

async fn client(url: &str, slow: u32) -> Result<(), BoxError> {
    let t0 = Instant::now();
    let log = move |s: String| eprintln!("[{:.3}] {s}", t0.elapsed().as_secs_f64());
    let handler = NotificationHandler::new()
        .on_progress(move |p| eprintln!("[{:.3}] progress {} / {:?}", t0.elapsed().as_secs_f64(), p.progress, p.total));
    let transport = HttpClientTransport::new(url);
    let client = McpClient::builder().request_progress().connect(transport, handler).await?;
    let init = client.initialize("rust-sdks2-tower-mcp-client", "1.0.0").await?;
    log(format!("negotiated {} with {}", init.protocol_version, init.server_info.name));
    match client.list_tools().await {
        Ok(r) => log(format!("tools {:?}", r.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>())),
        Err(e) => log(format!("tools/list failed: {e}")),
    }
    let calls = [
        ("add", serde_json::json!({"a": 1, "b": 2})),
        ("echo", serde_json::json!({"text": "hello"})),
        ("slow_count", serde_json::json!({"n": slow})),
        ("add", serde_json::json!({"a": 40, "b": 2})),
    ];
    for (name, args) in calls {
        match client.call_tool(name, args.clone()).await {
            Ok(r) => log(format!("{name} {args} -> {}", r.all_text())),
            Err(e) => log(format!("{name} {args} failed: {e}")),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    client.shutdown().await?;
    log("closed".into());
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("server") => {
            let port: u16 = arg(&args, "--port").expect("--port").parse()?;
            server(port, args.iter().any(|a| a == "--sse-responses")).await
        }
        Some("client") => {
            let url = arg(&args, "--url").expect("--url");
            let slow = arg(&args, "--slow").map(|s| s.parse().unwrap()).unwrap_or(3);
            client(&url, slow).await
        }
        _ => {
            eprintln!("usage: tower-mcp-harness server --port P [--sse-responses] | client --url URL [--slow N]");
            std::process::exit(2)
        }
    }
}

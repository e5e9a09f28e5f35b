//! rust5 harness for model-context-protocol 0.2.2 (crates.io, tsharp): the crate's HTTP server and HTTP client.
//!
//!   mcpproto-harness server PORT      McpHttpServer::run on 127.0.0.1:PORT (POST /rpc, GET /tools, POST /call,
//!                                     GET /health): tools add, echo, slow_count (sleeps N x 0.1 s), fail (Err)
//!   mcpproto-harness client URL       HttpTransportAdapter (the crate's HTTP client, as its hub uses it):
//!                                     list_tools, add(1,2), echo("hello"), slow_count(3), no_such_tool, fail,
//!                                     add(40,2); [--hold S] idles S seconds before the last add
//! Everything the wire shows is the crate's; this file only registers tools and calls the client API.
use std::sync::Arc;
use std::time::Duration;

use model_context_protocol::client::http::HttpTransportAdapter;
use model_context_protocol::server::http::McpHttpServer;
use model_context_protocol::server::McpServerConfig;
use model_context_protocol::tool::{BoxFuture, FnTool, ToolCallResult};
use model_context_protocol::transport::McpTransport;
use model_context_protocol::{McpToolDefinition, ToolContent};
use serde_json::{json, Value};

fn tool<F>(name: &str, desc: &str, schema: Value, f: F) -> Arc<FnTool<F>>
where
    F: Fn(Value) -> BoxFuture<'static, ToolCallResult> + Send + Sync,
{
    Arc::new(FnTool::new(
        McpToolDefinition::new(name).with_description(desc).with_schema(schema),
        f,
    ))
}

async fn server(port: u16) {
    let num = json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]});
    let config = McpServerConfig::builder()
        .name("rust5-mcpproto")
        .version("0.2.2")
        .with_dyn_tool(tool("add", "Add two numbers", num, |a: Value| -> BoxFuture<'static, ToolCallResult> {
            Box::pin(async move {
                let s = a["a"].as_f64().unwrap_or(0.0) + a["b"].as_f64().unwrap_or(0.0);
                Ok(vec![ToolContent::text(format!("{}", s))])
            })
        }))
        .with_dyn_tool(tool("echo", "Echo the text", json!({"type": "object", "properties": {"text": {"type": "string"}}}),
            |a: Value| -> BoxFuture<'static, ToolCallResult> {
                Box::pin(async move { Ok(vec![ToolContent::text(a["text"].as_str().unwrap_or("").to_string())]) })
            }))
        .with_dyn_tool(tool("slow_count", "Count to n, 0.1 s a step", json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
            |a: Value| -> BoxFuture<'static, ToolCallResult> {
                Box::pin(async move {
                    let n = a["n"].as_u64().unwrap_or(3);
                    for _ in 0..n {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    Ok(vec![ToolContent::text(format!("counted to {}", n))])
                })
            }))
        .with_dyn_tool(tool("fail", "Always fails", json!({"type": "object"}),
            |_a: Value| -> BoxFuture<'static, ToolCallResult> { Box::pin(async move { Err("boom: this tool always fails".to_string()) }) }))
        .build();
    eprintln!("mcpproto server on 127.0.0.1:{}", port);
    if let Err(e) = McpHttpServer::run(config, "127.0.0.1", port).await {
        eprintln!("server error: {:?}", e);
    }
}

async fn client(url: &str, hold: f64) {
    let t = HttpTransportAdapter::with_timeout(url, Duration::from_secs(10)).expect("client");
    match t.list_tools().await {
        Ok(tools) => println!("tools {:?}", tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>()),
        Err(e) => println!("tools/list -> error {}", e),
    }
    let calls: Vec<(&str, Value)> = vec![
        ("add", json!({"a": 1, "b": 2})),
        ("echo", json!({"text": "hello"})),
        ("slow_count", json!({"n": 3})),
        ("no_such_tool", json!({})),
        ("fail", json!({})),
    ];
    for (name, args) in calls {
        match t.call_tool(name, args.clone()).await {
            Ok(v) => println!("{} {} -> {}", name, args, v),
            Err(e) => println!("{} {} -> error {}", name, args, e),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if hold > 0.0 {
        println!("holding {} s", hold);
        tokio::time::sleep(Duration::from_secs_f64(hold)).await;
    }
    match t.call_tool("add", json!({"a": 40, "b": 2})).await {
        Ok(v) => println!("add {{\"a\":40,\"b\":2}} -> {}", v),
        Err(e) => println!("add {{\"a\":40,\"b\":2}} -> error {}", e),
    }
    let _ = t.shutdown().await;
    println!("done");
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(|s| s.as_str()) {
        Some("server") => server(args[2].parse().expect("PORT")).await,
        Some("client") => {
            let hold = args.iter().position(|a| a == "--hold").map(|i| args[i + 1].parse().unwrap()).unwrap_or(0.0);
            client(&args[2], hold).await
        }
        _ => eprintln!("usage: mcpproto-harness server PORT | client URL [--hold S]"),
    }
}

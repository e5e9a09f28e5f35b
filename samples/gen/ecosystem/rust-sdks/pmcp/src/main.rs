//! pmcp harness: its Streamable HTTP server (StreamableHttpServer, default config: stateful, SSE replies, event
//! store) and its Streamable HTTP client (StreamableHttpTransport, default config), for loopback captures.
//!
//!   pmcp-harness server --port N
//!   pmcp-harness client --url URL
//!
//! Server tools: add(a,b), echo(text), slow_count(n) (n progress notifications, 100 ms apart, when the request
//! carries a progressToken). Client: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with a
//! progressToken, add(40,2), then drop the client.
use std::{net::SocketAddr, sync::Arc, time::Duration};

use pmcp::{
    server::streamable_http_server::StreamableHttpServer,
    shared::streamable_http::{StreamableHttpTransport, StreamableHttpTransportConfigBuilder},
    types::{capabilities::ServerCapabilities, notifications::ProgressToken, protocol::RequestMeta},
    Client, ClientCapabilities, RequestHandlerExtra, Server, SimpleTool,
};
use serde_json::{json, Value};

type Fut = std::pin::Pin<Box<dyn std::future::Future<Output = pmcp::Result<Value>> + Send>>;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

async fn server(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let port: u16 = arg(args, "--port").expect("--port").parse()?;
    let int = json!({"type": "integer"});
    let add = SimpleTool::new(
        "add",
        Box::new(|a: Value, _e: RequestHandlerExtra| {
            Box::pin(async move {
                let n = |k: &str| a.get(k).and_then(|v| v.as_i64()).unwrap_or(0);
                Ok(json!((n("a") + n("b")).to_string()))
            }) as Fut
        }),
    )
    .with_description("Add two integers")
    .with_schema(json!({"type": "object", "properties": {"a": int, "b": int}, "required": ["a", "b"]}));
    let echo = SimpleTool::new(
        "echo",
        Box::new(|a: Value, _e: RequestHandlerExtra| {
            Box::pin(async move { Ok(json!(a.get("text").and_then(|v| v.as_str()).unwrap_or(""))) }) as Fut
        }),
    )
    .with_description("Echo a text")
    .with_schema(json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}));
    let slow = SimpleTool::new(
        "slow_count",
        Box::new(|a: Value, e: RequestHandlerExtra| {
            Box::pin(async move {
                let n = a.get("n").and_then(|v| v.as_i64()).unwrap_or(0);
                for step in 1..=n {
                    // a no-op when the request carries no progressToken
                    let _ = e.report_progress(step as f64, Some(n as f64), Some(format!("step {step}"))).await;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Ok(json!(format!("counted to {n}")))
            }) as Fut
        }),
    )
    .with_description("Count to n, sending a progress notification per step")
    .with_schema(json!({"type": "object", "properties": {"n": int}, "required": ["n"]}));
    let server = Server::builder()
        .name("pmcp-harness")
        .version("0.1.0")
        .capabilities(ServerCapabilities::tools_only())
        .tool("add", add)
        .tool("echo", echo)
        .tool("slow_count", slow)
        .build()?;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let http = StreamableHttpServer::new(addr, Arc::new(tokio::sync::Mutex::new(server)));
    let (bound, handle) = http.start().await?;
    eprintln!("pmcp server on {bound} pid={}", std::process::id());
    handle.await?;
    Ok(())
}

async fn client(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let url = arg(args, "--url").expect("--url");
    let config = StreamableHttpTransportConfigBuilder::new(url::Url::parse(&url)?).build();
    let transport = StreamableHttpTransport::new(config);
    let mut client = Client::new(transport.clone());
    let init = client.initialize(ClientCapabilities::minimal()).await?;
    println!("server: {} {}", init.server_info.name, init.protocol_version.0);
    let tools = client.list_tools(None).await?;
    println!("tools: {:?}", tools.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>());
    for (name, a, progress) in [
        ("add", json!({"a": 1, "b": 2}), None),
        ("echo", json!({"text": "hello"}), None),
        ("slow_count", json!({"n": 3}), Some(1)),
        ("add", json!({"a": 40, "b": 2}), None),
    ] {
        let r = match progress {
            Some(p) => {
                let meta = RequestMeta::new().with_progress_token(ProgressToken::Number(p));
                client.call_tool_with_meta(name.to_string(), a, meta).await?
            }
            None => client.call_tool(name.to_string(), a).await?,
        };
        println!("{name}: {}", serde_json::to_string(&r.content)?);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(client);
    tokio::time::sleep(Duration::from_millis(300)).await;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("server") => server(&args).await,
        Some("client") => client(&args).await,
        _ => Err("usage: pmcp-harness server|client ...".into()),
    }
}

//! rust-mcp-sdk 1.x harness (the 2025-era line: initialize, Mcp-Session-Id, standalone GET stream): its axum server
//! (rust-mcp-axum, Streamable HTTP on /mcp) and its Streamable HTTP client, for loopback captures.
//!
//!   rust-mcp-sdk-1-harness server --port N [--event-store]
//!   rust-mcp-sdk-1-harness client --url URL
//!
//! Server: stateful defaults (session ids, SSE replies); --event-store adds the SDK's InMemoryEventStore
//! (resumability). Tools: add(a,b), echo(text), slow_count(n) (n progress notifications, 100 ms apart, when the
//! request carries a progressToken). Client: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with a
//! progressToken, add(40,2), then shut down. A failed call (10 s timeout) is printed and the next call follows.
use std::{sync::Arc, time::Duration};

use async_trait::async_trait;
use rust_mcp_axum::{create_axum_server, AxumServerOptions};
use rust_mcp_sdk::{
    event_store::InMemoryEventStore,
    mcp_client::{client_runtime, ClientHandler},
    mcp_server::{ServerHandler, ToMcpServerHandler},
    schema::{
        schema_utils::CallToolError, CallToolRequestParams, CallToolResult, ClientCapabilities, Implementation,
        InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams,
        ProgressNotificationParams, RpcError, ServerCapabilities, ServerCapabilitiesTools, TextContent, Tool,
        LATEST_PROTOCOL_VERSION,
    },
    McpClient, McpServer, RequestOptions, StreamableTransportOptions,
};

fn tool(name: &str, description: &str, props: serde_json::Value, required: &[&str]) -> Tool {
    serde_json::from_value(serde_json::json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": props, "required": required},
    }))
    .expect("tool")
}

fn text(s: String) -> CallToolResult {
    CallToolResult::text_content(vec![TextContent::new(s, None, None)])
}

struct Demo;

#[async_trait]
impl ServerHandler for Demo {
    async fn handle_list_tools_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ListToolsResult, RpcError> {
        let int = serde_json::json!({"type": "integer"});
        Ok(ListToolsResult {
            tools: vec![
                tool("add", "Add two integers", serde_json::json!({"a": int, "b": int}), &["a", "b"]),
                tool("echo", "Echo a text", serde_json::json!({"text": {"type": "string"}}), &["text"]),
                tool("slow_count", "Count to n, sending a progress notification per step",
                     serde_json::json!({"n": int}), &["n"]),
            ],
            meta: None,
            next_cursor: None,
        })
    }

    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        runtime: Arc<dyn McpServer>,
    ) -> Result<CallToolResult, CallToolError> {
        let args = params.arguments.clone().unwrap_or_default();
        let int = |k: &str| args.get(k).and_then(|v| v.as_i64()).unwrap_or(0);
        Ok(match params.name.as_str() {
            "add" => text((int("a") + int("b")).to_string()),
            "echo" => text(args.get("text").and_then(|v| v.as_str()).unwrap_or("").to_string()),
            "slow_count" => {
                let n = int("n");
                if let Some(token) = params.meta.as_ref().and_then(|m| m.progress_token.clone()) {
                    for step in 1..=n {
                        let r = runtime
                            .notify_progress(ProgressNotificationParams {
                                progress_token: token.clone(),
                                progress: step as f64,
                                total: Some(n as f64),
                                message: Some(format!("step {step}")),
                                meta: None,
                            })
                            .await;
                        eprintln!("slow_count: progress {step} sent: {r:?}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
                text(format!("counted to {n}"))
            }
            other => return Err(CallToolError::unknown_tool(other.to_string())),
        })
    }
}

struct Printer;
#[async_trait]
impl ClientHandler for Printer {
    async fn handle_progress_notification(
        &self,
        params: ProgressNotificationParams,
        _runtime: &dyn McpClient,
    ) -> Result<(), RpcError> {
        println!("progress {} / {:?}", params.progress, params.total);
        Ok(())
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

async fn server(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let port: u16 = arg(args, "--port").expect("--port").parse()?;
    let details = InitializeResult {
        server_info: Implementation {
            name: "rust-mcp-sdk-1-harness".into(),
            version: "0.1.0".into(),
            title: None,
            description: None,
            icons: vec![],
            website_url: None,
        },
        capabilities: ServerCapabilities {
            tools: Some(ServerCapabilitiesTools { list_changed: None }),
            ..Default::default()
        },
        meta: None,
        instructions: None,
        protocol_version: LATEST_PROTOCOL_VERSION.into(),
    };
    let event_store: Option<Arc<dyn rust_mcp_sdk::event_store::EventStore>> =
        if args.iter().any(|a| a == "--event-store") { Some(Arc::new(InMemoryEventStore::default())) } else { None };
    let server = create_axum_server(
        details,
        Demo.to_mcp_server_handler(),
        AxumServerOptions { host: "127.0.0.1".into(), port, event_store, ..Default::default() },
    );
    eprintln!("rust-mcp-sdk 1.x server on 127.0.0.1:{port} pid={}", std::process::id());
    server.start().await?;
    Ok(())
}

async fn client(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let url = arg(args, "--url").expect("--url");
    let details = InitializeRequestParams {
        capabilities: ClientCapabilities::default(),
        client_info: Implementation {
            name: "rust-mcp-sdk-1-harness-client".into(),
            version: "0.1.0".into(),
            title: None,
            description: None,
            icons: vec![],
            website_url: None,
        },
        protocol_version: LATEST_PROTOCOL_VERSION.into(),
        meta: None,
    };
    let options = StreamableTransportOptions {
        mcp_url: url.clone(),
        request_options: RequestOptions { request_timeout: Duration::from_secs(10), ..RequestOptions::default() },
    };
    let client = client_runtime::with_transport_options(details, options, Printer, None, None, None);
    client.clone().start().await?;
    let tools = client.request_tool_list(None).await?;
    println!("tools: {:?}", tools.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>());
    for (name, a, progress) in [
        ("add", serde_json::json!({"a": 1, "b": 2}), None),
        ("echo", serde_json::json!({"text": "hello"}), None),
        ("slow_count", serde_json::json!({"n": 3}), Some(1)),
        ("add", serde_json::json!({"a": 40, "b": 2}), None),
    ] {
        let mut p = serde_json::json!({"name": name, "arguments": a});
        if let Some(t) = progress {
            p["_meta"] = serde_json::json!({"progressToken": t});
        }
        let params: CallToolRequestParams = serde_json::from_value(p).expect("params");
        // a failed call (timeout) is printed and the session goes on with the next call
        match client.request_tool_call(params).await {
            Ok(r) => println!("{name}: {}", serde_json::to_string(&r).unwrap_or_default()),
            Err(e) => println!("{name}: error {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    client.shut_down().await?;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("server") => server(&args).await,
        Some("client") => client(&args).await,
        _ => Err("usage: rust-mcp-sdk-1-harness server|client ...".into()),
    }
}

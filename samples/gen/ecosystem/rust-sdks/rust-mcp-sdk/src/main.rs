//! rust-mcp-sdk harness: its axum server (Streamable HTTP on /mcp, legacy HTTP+SSE on /sse + /messages) and its
//! clients (Streamable HTTP, or legacy SSE with --sse), for loopback captures.
//!
//!   rust-mcp-sdk-harness server --port N
//!   rust-mcp-sdk-harness client --url URL [--sse]
//!
//! Server tools: add(a,b), echo(text), slow_count(n) (n progress notifications, 100 ms apart, when the request
//! carries a progressToken). Client: tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken,
//! add(40,2), then shut down. A failed call (10 s timeout) is printed and the next call follows.
use std::{sync::Arc, time::Duration};

use async_trait::async_trait;
use rust_mcp_axum::{create_axum_server, AxumServerOptions};
use rust_mcp_sdk::{
    mcp_client::{client_runtime, ClientHandler, McpClientOptions, ToMcpClientHandler},
    mcp_server::{ServerHandler, ToMcpServerHandler},
    schema::{
        schema_utils::{CallToolError, MessageFromClient, RequestFromClient},
        CallToolRequestParams, CallToolResult, ClientCapabilities, ContentBlock, Implementation,
        ListToolsResult, PaginatedRequestParams, ProgressNotificationParams, ProgressToken,
        ProtocolVersion, RequestMetaObject, RpcError, ServerCapabilities, ServerCapabilitiesTools,
        ServerResult, TextContent, Tool,
    },
    ClientDetails, ClientSseTransport, ClientSseTransportOptions, McpClient, McpServer,
    RequestContext, RequestOptions, ServerDetails, StreamableTransportOptions,
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
    CallToolResult {
        content: vec![ContentBlock::TextContent(TextContent::new(s, None, None))],
        is_error: None,
        meta: None,
        result_type: "complete".to_string(),
        structured_content: None,
    }
}

struct Demo;

#[async_trait]
impl ServerHandler for Demo {
    async fn handle_list_tools_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ListToolsResult, RpcError> {
        let int = serde_json::json!({"type": "integer"});
        Ok(serde_json::from_value(serde_json::json!({
            "tools": [
                tool("add", "Add two integers", serde_json::json!({"a": int, "b": int}), &["a", "b"]),
                tool("echo", "Echo a text", serde_json::json!({"text": {"type": "string"}}), &["text"]),
                tool("slow_count", "Count to n, sending a progress notification per step",
                     serde_json::json!({"n": int}), &["n"]),
            ],
            "resultType": "complete",
            "cacheScope": "private",
            "ttlMs": 0,
        }))
        .expect("list"))
    }

    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        runtime: Arc<dyn McpServer>,
    ) -> Result<ServerResult, CallToolError> {
        let args = params.arguments.clone().unwrap_or_default();
        let int = |k: &str| args.get(k).and_then(|v| v.as_i64()).unwrap_or(0);
        let r = match params.name.as_str() {
            "add" => text((int("a") + int("b")).to_string()),
            "echo" => text(args.get("text").and_then(|v| v.as_str()).unwrap_or("").to_string()),
            "slow_count" => {
                let n = int("n");
                if let Some(token) = params.meta.progress_token.clone() {
                    for step in 1..=n {
                        eprintln!("slow_count: progress {step}");
                        let _ = runtime
                            .notify_progress(ProgressNotificationParams {
                                progress_token: token.clone(),
                                progress: step as f64,
                                total: Some(n as f64),
                                message: Some(format!("step {step}")),
                                meta: None,
                            })
                            .await;
                        eprintln!("slow_count: progress {step} sent");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
                text(format!("counted to {n}"))
            }
            other => return Err(CallToolError::unknown_tool(other.to_string())),
        };
        Ok(r.into())
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
    let details = ServerDetails {
        server_info: Implementation {
            name: "rust-mcp-sdk-harness".into(),
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
    };
    let server = create_axum_server(
        details,
        Demo.to_mcp_server_handler(),
        AxumServerOptions {
            host: "127.0.0.1".into(),
            port,
            sse_support: true,
            ..Default::default()
        },
    );
    eprintln!("rust-mcp-sdk server on 127.0.0.1:{port} pid={}", std::process::id());
    server.start().await?;
    Ok(())
}

fn call(client: &dyn McpClient, name: &str, a: serde_json::Value, progress: Option<i64>) -> RequestFromClient {
    let d = client.client_details();
    let mut meta = RequestMetaObject::new(ProtocolVersion::latest().to_string(), d.capabilities.clone())
        .with_client_info(d.client_info.clone());
    if let Some(p) = progress {
        meta = meta.with_progress_token(ProgressToken::Integer(p));
    }
    let params: CallToolRequestParams = serde_json::from_value(serde_json::json!({
        "name": name, "arguments": a, "_meta": meta,
    }))
    .expect("params");
    RequestFromClient::CallToolRequest(params)
}

async fn client(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let url = arg(args, "--url").expect("--url");
    let details = ClientDetails {
        client_info: Implementation {
            name: "rust-mcp-sdk-harness-client".into(),
            version: "0.1.0".into(),
            title: None,
            description: None,
            icons: vec![],
            website_url: None,
        },
        capabilities: ClientCapabilities::default(),
    };
    let client = if args.iter().any(|a| a == "--sse") {
        let transport = ClientSseTransport::new(&url, ClientSseTransportOptions::default())?;
        client_runtime::create_client(McpClientOptions::new(details, transport, Printer.to_mcp_client_handler()))
    } else {
        let options = StreamableTransportOptions {
            mcp_url: url.clone(),
            request_options: RequestOptions { request_timeout: Duration::from_secs(10), ..RequestOptions::default() },
        };
        client_runtime::with_transport_options(details, options, Printer, None)
    };
    client.clone().start().await?;
    let tools = client.request_tool_list(None).await?;
    println!("tools: {:?}", tools.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>());
    for (name, a, progress) in [
        ("add", serde_json::json!({"a": 1, "b": 2}), None),
        ("echo", serde_json::json!({"text": "hello"}), None),
        ("slow_count", serde_json::json!({"n": 3}), Some(1)),
        ("add", serde_json::json!({"a": 40, "b": 2}), None),
    ] {
        let req = call(client.as_ref(), name, a, progress);
        // a failed call (timeout) is printed and the session goes on with the next call
        match client.send(MessageFromClient::RequestFromClient(req), None, Some(Duration::from_secs(10))).await {
            Ok(r) => println!("{name}: {}", r.map(|m| serde_json::to_string(&m).unwrap_or_default()).unwrap_or_default()),
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
        _ => Err("usage: rust-mcp-sdk-harness server|client ...".into()),
    }
}

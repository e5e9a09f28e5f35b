//! rust4 harness for mcp-core 0.1.50 (stevohuncho, feature `sse`): its HTTP+SSE server (ServerSseTransport, actix-web:
//! GET /sse, POST /message?sessionId=) with the tools add, echo, slow_count (0.1 s a step; mcp-core hands its tools no
//! request context, so no progress) and fail (a tool result with isError), and its HTTP+SSE client
//! (ClientSseTransportBuilder, reqwest-eventsource).
//!   mcpcore-harness server --port P [--version 2025-03-26]
//!   mcpcore-harness client --url http://127.0.0.1:P/sse
use std::time::Duration;

use anyhow::Result;
use mcp_core::{
    client::ClientBuilder,
    protocol::RequestOptions,
    server::Server,
    tool_error_response, tool_text_response,
    tools::ToolHandlerFn,
    transport::{ClientSseTransportBuilder, ServerSseTransport, Transport},
    types::{CallToolRequest, ProtocolVersion, ServerCapabilities, Tool, ToolCapabilities},
};
use serde_json::{json, Value};

fn arg(req: &CallToolRequest, k: &str) -> Value {
    req.arguments.as_ref().and_then(|a| a.get(k)).cloned().unwrap_or(Value::Null)
}

fn tool(name: &str, desc: &str, schema: Value) -> Tool {
    Tool { name: name.into(), description: Some(desc.into()), input_schema: schema, annotations: None }
}

fn add() -> ToolHandlerFn {
    |req| Box::pin(async move {
        let s = arg(&req, "a").as_i64().unwrap_or(0) + arg(&req, "b").as_i64().unwrap_or(0);
        tool_text_response!(s)
    })
}
fn echo() -> ToolHandlerFn {
    |req| Box::pin(async move { tool_text_response!(arg(&req, "text").as_str().unwrap_or("").to_string()) })
}
fn slow_count() -> ToolHandlerFn {
    |req| Box::pin(async move {
        let n = arg(&req, "n").as_i64().unwrap_or(3).clamp(0, 100);
        for _ in 0..n {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tool_text_response!(format!("counted to {n}"))
    })
}
fn fail() -> ToolHandlerFn {
    |_req| Box::pin(async move { tool_error_response!("fail: this tool always fails") })
}

async fn server(port: u16, version: ProtocolVersion) -> Result<()> {
    let num = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]});
    let protocol = Server::builder("rust4-mcpcore".to_string(), "0.1.50".to_string(), version)
        .set_capabilities(ServerCapabilities { tools: Some(ToolCapabilities::default()), ..Default::default() })
        .register_tool(tool("add", "Add two integers", num), add())
        .register_tool(tool("echo", "Echo the text", json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})), echo())
        .register_tool(tool("slow_count", "Count to n, 0.1 s a step", json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})), slow_count())
        .register_tool(tool("fail", "Always fails (isError)", json!({"type": "object", "properties": {}})), fail())
        .build();
    Server::start(ServerSseTransport::new("127.0.0.1".to_string(), port, protocol)).await
}

async fn client(url: &str) -> Result<()> {
    let transport = ClientSseTransportBuilder::new(url.to_string()).build();
    let client = ClientBuilder::new(transport.clone())
        .set_protocol_version(ProtocolVersion::V2024_11_05)
        .set_client_info("rust4-mcpcore-client", "0.1.50")
        .build();
    client.open().await?;
    let init = client.initialize().await?;
    eprintln!("negotiated {} server {:?}", init.protocol_version, init.server_info.name);
    let opts = || RequestOptions::default().timeout(Duration::from_secs(10));
    let tools = client.request("tools/list", None, opts()).await?;
    eprintln!("tools {}", tools["tools"].as_array().map(|t| t.iter().map(|x| x["name"].to_string()).collect::<Vec<_>>().join(",")).unwrap_or_default());
    for (name, a) in [("add", json!({"a": 1, "b": 2})), ("echo", json!({"text": "hello"})), ("slow_count", json!({"n": 3})),
                      ("no_such_tool", json!({})), ("add", json!({"a": 40, "b": 2}))] {
        match client.call_tool(name, Some(a.clone())).await {
            Ok(r) => eprintln!("{name} {a} -> {}", serde_json::to_string(&r.content).unwrap_or_default()),
            Err(e) => eprintln!("{name} {a} failed: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // bounded: the SSE transport's close did not return in a first run (the client was ended by `timeout 60`)
    match tokio::time::timeout(Duration::from_secs(2), transport.close()).await {
        Ok(r) => r?,
        Err(_) => eprintln!("close did not return within 2 s"),
    }
    eprintln!("closed");
    Ok(())
}

#[tokio::main]
async fn main() -> Result<()> {
    let a: Vec<String> = std::env::args().collect();
    let opt = |k: &str| a.iter().position(|x| x == k).and_then(|i| a.get(i + 1)).cloned();
    match a.get(1).map(String::as_str) {
        Some("server") => {
            let port = opt("--port").expect("--port").parse()?;
            let v = if opt("--version").as_deref() == Some("2025-03-26") { ProtocolVersion::V2025_03_26 } else { ProtocolVersion::V2024_11_05 };
            server(port, v).await
        }
        Some("client") => client(&opt("--url").expect("--url")).await,
        _ => anyhow::bail!("usage: mcpcore-harness server --port P [--version V] | client --url U"),
    }
}

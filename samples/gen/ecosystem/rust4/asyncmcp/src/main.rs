//! rust4 harness for async-mcp 0.1.3 (v3g42): its HTTP server (actix-web, the handlers of async_mcp::sse::http_server:
//! GET /sse, POST /message?sessionId=, GET /ws) with the tools add, echo, slow_count (0.1 s a step; no request
//! context, so no progress) and fail (a tool result with isError), and its SSE client (ClientSseTransportBuilder).
//! The library's own `run_http_server(port, ..)` binds 0.0.0.0 and announces `http://0.0.0.0:PORT/message?..`; the
//! harness builds the same App (JwtAuth(None), the three routes, SessionState) bound to 127.0.0.1 only and announces
//! the library's default endpoint string unless --endpoint is given.
//!   asyncmcp-harness server --port P [--endpoint http://127.0.0.1:P]
//!   asyncmcp-harness client --url http://127.0.0.1:P [--hold S]  (the client appends /sse and /message itself;
//!                           --hold: S seconds idle before the last add(40,2), the log says "holding" first)
//!   asyncmcp-harness client --ws ws://127.0.0.1:P/ws   (ClientWsTransportBuilder: MCP over WebSocket)
use std::{collections::HashMap, sync::{Arc, Mutex}, time::Duration};

use actix_web::{web, App, HttpServer};
use anyhow::Result;
use async_mcp::{
    client::ClientBuilder,
    protocol::RequestOptions,
    server::Server,
    sse::{http_server::{message_handler, sse_handler, ws_handler, SessionState}, middleware::JwtAuth},
    transport::{ClientSseTransportBuilder, ClientWsTransportBuilder, ServerHttpTransport, Transport},
    types::{CallToolRequest, CallToolResponse, Implementation, ServerCapabilities, Tool, ToolResponseContent},
};
use serde_json::{json, Value};

fn arg(req: &CallToolRequest, k: &str) -> Value {
    req.arguments.as_ref().and_then(|a| a.get(k)).cloned().unwrap_or(Value::Null)
}
fn text(s: String, is_error: Option<bool>) -> Result<CallToolResponse> {
    Ok(CallToolResponse { content: vec![ToolResponseContent::Text { text: s }], is_error, meta: None })
}
fn tool(name: &str, desc: &str, schema: Value) -> Tool {
    Tool { name: name.into(), description: Some(desc.into()), input_schema: schema, output_schema: None }
}

fn build_server(t: ServerHttpTransport) -> Server<ServerHttpTransport> {
    let mut b = Server::builder(t)
        .name("rust4-asyncmcp")
        .version("0.1.3")
        .capabilities(ServerCapabilities { tools: Some(json!({})), ..Default::default() });
    let num = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]});
    b.register_tool(tool("add", "Add two integers", num), |req| Box::pin(async move {
        text((arg(&req, "a").as_i64().unwrap_or(0) + arg(&req, "b").as_i64().unwrap_or(0)).to_string(), None)
    }));
    b.register_tool(tool("echo", "Echo the text", json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})),
        |req| Box::pin(async move { text(arg(&req, "text").as_str().unwrap_or("").to_string(), None) }));
    b.register_tool(tool("slow_count", "Count to n, 0.1 s a step", json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})),
        |req| Box::pin(async move {
            let n = arg(&req, "n").as_i64().unwrap_or(3).clamp(0, 100);
            for _ in 0..n { tokio::time::sleep(Duration::from_millis(100)).await; }
            text(format!("counted to {n}"), None)
        }));
    b.register_tool(tool("fail", "Always fails (isError)", json!({"type": "object", "properties": {}})),
        |_req| Box::pin(async move { text("fail: this tool always fails".into(), Some(true)) }));
    b.build()
}

async fn server(port: u16, endpoint: String) -> Result<()> {
    let sessions = Arc::new(Mutex::new(HashMap::new()));
    let build = Arc::new(move |t: ServerHttpTransport, _meta: Option<Value>, _sid: String| {
        Box::pin(async move { Ok(build_server(t)) }) as futures::future::BoxFuture<'static, Result<Server<ServerHttpTransport>>>
    });
    let state = SessionState::new(endpoint, build, sessions);
    HttpServer::new(move || {
        App::new()
            .wrap(JwtAuth::new(None))
            .app_data(web::Data::new(state.clone()))
            .route("/sse", web::get().to(sse_handler))
            .route("/message", web::post().to(message_handler))
            .route("/ws", web::get().to(ws_handler))
    })
    .bind(("127.0.0.1", port))?
    .run()
    .await?;
    Ok(())
}

async fn client(url: &str, hold: f64) -> Result<()> {
    let transport = ClientSseTransportBuilder::new(url.to_string()).build();
    transport.open().await?;
    exercise(transport, hold).await
}

async fn ws_client(url: &str) -> Result<()> {
    let transport = ClientWsTransportBuilder::new(url.to_string()).build();
    transport.open().await?;
    exercise(transport, 0.0).await
}

async fn exercise<T: Transport + Clone>(transport: T, hold: f64) -> Result<()> {
    let client = ClientBuilder::new(transport.clone()).build();
    let c2 = client.clone();
    let listener = tokio::spawn(async move { c2.start().await });
    let init = client.initialize(Implementation { name: "rust4-asyncmcp-client".into(), version: "0.1.3".into() }).await?;
    eprintln!("negotiated {} server {}", init.protocol_version, init.server_info.name);
    let opts = || RequestOptions::default().timeout(Duration::from_secs(10));
    match client.request("tools/list", Some(json!({})), opts()).await {
        Ok(t) => eprintln!("tools {}", t["tools"].as_array().map(|t| t.iter().map(|x| x["name"].to_string()).collect::<Vec<_>>().join(",")).unwrap_or_default()),
        Err(e) => eprintln!("tools/list failed: {e}"),
    }
    for (name, a) in [("add", json!({"a": 1, "b": 2})), ("echo", json!({"text": "hello"})), ("slow_count", json!({"n": 3})),
                      ("no_such_tool", json!({})), ("add", json!({"a": 40, "b": 2}))] {
        if name == "add" && a["a"] == 40 && hold > 0.0 {
            eprintln!("holding {hold} s");
            tokio::time::sleep(Duration::from_secs_f64(hold)).await;
        }
        match client.request("tools/call", Some(json!({"name": name, "arguments": a})), opts()).await {
            Ok(r) => eprintln!("{name} {a} -> {}", r["content"]),
            Err(e) => eprintln!("{name} {a} failed: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // bounded: the WebSocket transport's close did not return in a first run
    match tokio::time::timeout(Duration::from_secs(2), transport.close()).await {
        Ok(r) => r?,
        Err(_) => eprintln!("close did not return within 2 s"),
    }
    listener.abort();
    eprintln!("closed");
    Ok(())
}

#[tokio::main]
async fn main() -> Result<()> {
    let a: Vec<String> = std::env::args().collect();
    let opt = |k: &str| a.iter().position(|x| x == k).and_then(|i| a.get(i + 1)).cloned();
    match a.get(1).map(String::as_str) {
        Some("server") => {
            let port: u16 = opt("--port").expect("--port").parse()?;
            server(port, opt("--endpoint").unwrap_or_else(|| format!("http://0.0.0.0:{port}"))).await
        }
        Some("client") => match opt("--ws") {
            Some(u) => ws_client(&u).await,
            None => client(&opt("--url").expect("--url"), opt("--hold").map(|h| h.parse()).transpose()?.unwrap_or(0.0)).await,
        },
        _ => anyhow::bail!("usage: asyncmcp-harness server --port P [--endpoint E] | client --url U | client --ws U"),
    }
}

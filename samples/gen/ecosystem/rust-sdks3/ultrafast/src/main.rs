//! ultrafast-mcp 202506018.1.0 harness (samples/gen/ecosystem/rust-sdks3.sh):
//!   ultrafast-harness server --port P   UltraFastServer::run_streamable_http("127.0.0.1", P) (defaults: /mcp)
//!   ultrafast-harness client --url U    UltraFastClient::connect_streamable_http(U) (it appends /mcp; it runs
//!                                       initialize itself), tools/list,
//!                                       add(1,2), echo("hello"), slow_count(3), add(40,2), shutdown, disconnect
//! Tools add, echo, slow_count (its ToolHandler gets no request context, so it cannot send progress: it only waits).
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use ultrafast_mcp::prelude::*;
use ultrafast_mcp::{ListToolsRequest, ListToolsResponse, ToolContent};

struct Tools;

fn text(s: String) -> ToolResult {
    ToolResult { content: vec![ToolContent::text(s)], is_error: Some(false) }
}

#[async_trait::async_trait]
impl ToolHandler for Tools {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        let a: Value = call.arguments.unwrap_or_default();
        match call.name.as_str() {
            "add" => Ok(text((a["a"].as_i64().unwrap_or(0) + a["b"].as_i64().unwrap_or(0)).to_string())),
            "echo" => Ok(text(a["text"].as_str().unwrap_or("").to_string())),
            "slow_count" => {
                let n = a["n"].as_u64().unwrap_or(3);
                for _ in 0..n {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Ok(text(format!("counted to {n}")))
            }
            other => Err(MCPError::method_not_found(format!("Unknown tool: {other}"))),
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        let obj = |props: Value, req: Value| json!({"type": "object", "properties": props, "required": req});
        Ok(ListToolsResponse {
            tools: vec![
                Tool::new("add".into(), "Add two integers".into(),
                          obj(json!({"a": {"type": "integer"}, "b": {"type": "integer"}}), json!(["a", "b"]))),
                Tool::new("echo".into(), "Echo a text".into(), obj(json!({"text": {"type": "string"}}), json!(["text"]))),
                Tool::new("slow_count".into(), "Count to n, 0.1 s a step".into(),
                          obj(json!({"n": {"type": "integer"}}), json!(["n"]))),
            ],
            next_cursor: None,
        })
    }
}

async fn server(port: u16) -> anyhow::Result<()> {
    let caps = ServerCapabilities { tools: Some(ultrafast_mcp::ToolsCapability { list_changed: Some(false) }), ..Default::default() };
    let srv = UltraFastServer::new(ServerInfo::new("rust-sdks3-ultrafast".into(), "0.0.0".into()), caps)
        .with_tool_handler(Arc::new(Tools));
    srv.run_streamable_http("127.0.0.1", port).await?;
    Ok(())
}

async fn client(url: &str) -> anyhow::Result<()> {
    let info = ClientInfo { name: "rust-sdks3-ultrafast-client".into(), version: "0.0.0".into(), description: None,
                            homepage: None, repository: None, authors: None, license: None };
    let c = UltraFastClient::new(info, ClientCapabilities::default());
    c.connect_streamable_http(url).await?; // connects and runs the initialize handshake itself
    println!("initialized");
    let tools = c.list_tools(ListToolsRequest { cursor: None }).await?;
    println!("tools {:?}", tools.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>());
    for (name, args) in [("add", json!({"a": 1, "b": 2})), ("echo", json!({"text": "hello"})),
                         ("slow_count", json!({"n": 3})), ("add", json!({"a": 40, "b": 2}))] {
        match c.call_tool(ToolCall { name: name.into(), arguments: Some(args.clone()) }).await {
            Ok(r) => println!("{name} {args} -> {:?}", r.content),
            Err(e) => println!("{name} {args} -> ERROR {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if let Err(e) = c.shutdown(None).await { println!("shutdown: {e}"); }
    c.disconnect().await?;
    println!("disconnected");
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let opt = |k: &str| args.iter().position(|a| a == k).map(|i| args[i + 1].clone());
    match args.get(1).map(String::as_str) {
        Some("server") => server(opt("--port").expect("--port").parse()?).await,
        Some("client") => tokio::time::timeout(Duration::from_secs(50), client(&opt("--url").expect("--url"))).await?,
        _ => anyhow::bail!("usage: ultrafast-harness server --port P | client --url U"),
    }
}

//! mcpkit 0.7.0 harness (samples/gen/ecosystem/rust-sdks3.sh):
//!   mcpkit-harness server --port P   mcpkit-axum 0.7.0 McpRouter::new(handler).serve("127.0.0.1:P") (defaults: POST,
//!                                    GET and DELETE on /mcp, the deprecated SSE alias /mcp/sse); tools add, echo,
//!                                    slow_count (Context::progress once per step, 0.1 s apart, when the request
//!                                    carries a progressToken)
//!   mcpkit-harness client --url U    mcpkit Client (ClientBuilder) over mcpkit-transport HttpTransport::connect
//!                                    (HttpTransportConfig::new(U) defaults): tools/list, add(1,2), echo("hello"),
//!                                    slow_count(3) via request_with_progress (progressToken "p1"), add(40,2), close
use std::time::Duration;

use mcpkit::capability::{ServerCapabilities, ServerInfo};
use mcpkit::client::ClientBuilder;
use mcpkit::error::McpError;
use mcpkit::protocol::ProgressToken;
use mcpkit::server::context::Context;
use mcpkit::server::{PromptHandler, ResourceHandler, ServerHandler, ToolHandler};
use mcpkit::transport::http::{HttpTransport, HttpTransportConfig};
use mcpkit::types::{GetPromptResult, Prompt, Resource, ResourceContents, Tool, ToolOutput};
use serde_json::{json, Value};

struct Srv;

impl ServerHandler for Srv {
    fn server_info(&self) -> ServerInfo {
        ServerInfo { name: "rust-sdks3-mcpkit".into(), title: None, version: "0.0.0".into(), protocol_version: None,
                     description: None, website_url: None, icons: None }
    }
    fn capabilities(&self) -> ServerCapabilities {
        ServerCapabilities::new().with_tools()
    }
}

impl ToolHandler for Srv {
    async fn list_tools(&self, _ctx: &Context<'_>) -> Result<Vec<Tool>, McpError> {
        let obj = |props: Value, req: Value| json!({"type": "object", "properties": props, "required": req});
        Ok(vec![
            Tool::new("add").description("Add two integers")
                .input_schema(obj(json!({"a": {"type": "integer"}, "b": {"type": "integer"}}), json!(["a", "b"]))),
            Tool::new("echo").description("Echo a text").input_schema(obj(json!({"text": {"type": "string"}}), json!(["text"]))),
            Tool::new("slow_count").description("Count to n, 0.1 s a step, with progress")
                .input_schema(obj(json!({"n": {"type": "integer"}}), json!(["n"]))),
        ])
    }

    async fn call_tool(&self, name: &str, a: serde_json::Map<String, Value>, ctx: &Context<'_>)
        -> Result<ToolOutput, McpError> {
        match name {
            "add" => Ok(ToolOutput::text((a["a"].as_i64().unwrap_or(0) + a["b"].as_i64().unwrap_or(0)).to_string())),
            "echo" => Ok(ToolOutput::text(a.get("text").and_then(Value::as_str).unwrap_or(""))),
            "slow_count" => {
                let n = a.get("n").and_then(Value::as_u64).unwrap_or(3);
                for i in 1..=n {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    ctx.progress(i as f64, Some(n as f64), Some(&format!("step {i}"))).await?;
                }
                Ok(ToolOutput::text(format!("counted to {n}")))
            }
            other => Ok(ToolOutput::error(format!("unknown tool {other}"))),
        }
    }
}

impl ResourceHandler for Srv {
    async fn list_resources(&self, _ctx: &Context<'_>) -> Result<Vec<Resource>, McpError> {
        Ok(vec![])
    }
    async fn read_resource(&self, uri: &str, _ctx: &Context<'_>) -> Result<Vec<ResourceContents>, McpError> {
        Ok(vec![ResourceContents::text(uri, "")])
    }
}

impl PromptHandler for Srv {
    async fn list_prompts(&self, _ctx: &Context<'_>) -> Result<Vec<Prompt>, McpError> {
        Ok(vec![])
    }
    async fn get_prompt(&self, _name: &str, _args: Option<serde_json::Map<String, Value>>, _ctx: &Context<'_>)
        -> Result<GetPromptResult, McpError> {
        Ok(GetPromptResult { meta: None, description: None, messages: vec![] })
    }
}

async fn client(url: &str) -> anyhow::Result<()> {
    let transport = HttpTransport::connect(HttpTransportConfig::new(url)).await?;
    let c = ClientBuilder::new().name("rust-sdks3-mcpkit-client").version("0.0.0").build(transport).await?;
    println!("initialized");
    let tools = c.list_tools().await?;
    println!("tools {:?}", tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>());
    let show = |name: &str, args: &Value, r: Result<Value, McpError>| match r {
        Ok(v) => println!("{name} {args} -> {}", v["content"]),
        Err(e) => println!("{name} {args} -> ERROR {e}"),
    };
    for (name, args) in [("add", json!({"a": 1, "b": 2})), ("echo", json!({"text": "hello"}))] {
        show(name, &args, c.call_tool(name, args.clone()).await.map(|r| serde_json::to_value(r).unwrap()));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let args = json!({"n": 3});
    let r: Result<Value, McpError> = c.request_with_progress("tools/call", Some(json!({"name": "slow_count", "arguments": args})),
                                                             ProgressToken::String("p1".into())).await;
    show("slow_count", &args, r);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let args = json!({"a": 40, "b": 2});
    show("add", &args, c.call_tool("add", args.clone()).await.map(|r| serde_json::to_value(r).unwrap()));
    c.close().await?;
    println!("closed");
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let opt = |k: &str| args.iter().position(|a| a == k).map(|i| args[i + 1].clone());
    match args.get(1).map(String::as_str) {
        Some("server") => {
            mcpkit_axum::McpRouter::new(Srv).serve(&format!("127.0.0.1:{}", opt("--port").expect("--port"))).await?;
            Ok(())
        }
        Some("client") => tokio::time::timeout(Duration::from_secs(50), client(&opt("--url").expect("--url"))).await?,
        _ => anyhow::bail!("usage: mcpkit-harness server --port P | client --url U"),
    }
}

// rmcp Streamable HTTP server (stateful, LocalSessionManager, default config) on axum, wrapped in tower-http's
// CompressionLayer::new() (gzip, br, zstd, deflate; default predicate). 30 tools; `slow` sleeps 5 s sending a
// progress notification each second when the request carries a progressToken.
// usage: compress2-rmcp-tower PORT [json]   (json: legacy_session_mode false + json_response true, the stateless
// JSON mode: no Mcp-Session-Id, application/json replies unless a handler sends a notification first)
use std::{sync::Arc, time::Duration};

use rmcp::{
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
        PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
    transport::streamable_http_server::{
        session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService,
    },
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde_json::json;
use tower_http::compression::CompressionLayer;

#[derive(Clone)]
struct Catalog;

fn schema() -> Arc<serde_json::Map<String, serde_json::Value>> {
    let v = json!({"type": "object", "properties": {
        "text": {"type": "string", "description": "The text the tool works on, passed through unchanged."},
        "count": {"type": "integer", "description": "How many times to repeat the operation (default 1)."}}});
    Arc::new(v.as_object().unwrap().clone())
}

impl ServerHandler for Catalog {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let mut tools = vec![
            Tool::new("echo", "Echo the text back to the caller, unchanged.", schema()),
            Tool::new("slow", "Work for five seconds, reporting progress every second, then answer.", schema()),
        ];
        for i in 0..28 {
            tools.push(Tool::new(
                format!("catalog_tool_{i:02}"),
                format!("Catalogue tool number {i}: looks up an entry in the inventory catalogue and returns its description, price and stock level."),
                schema(),
            ));
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let text = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("text"))
            .and_then(|t| t.as_str())
            .unwrap_or("")
            .to_string();
        if request.name == "slow" {
            let token = context.meta.get_progress_token();
            for step in 1..=5u32 {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if let Some(token) = token.clone() {
                    let mut p = ProgressNotificationParam::new(token, step as f64);
                    p.total = Some(5.0);
                    p.message = Some(format!("step {step} of 5"));
                    let _ = context.peer.notify_progress(p).await;
                }
            }
            return Ok(CallToolResult::success(vec![ContentBlock::text(format!("slow done: {text}"))]).into());
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{}: {text}", request.name))]).into())
    }
}

#[tokio::main]
async fn main() {
    let port: u16 = std::env::args().nth(1).expect("PORT").parse().expect("PORT");
    let mut config = StreamableHttpServerConfig::default();
    if std::env::args().nth(2).as_deref() == Some("json") {
        config.legacy_session_mode = false;
        config.json_response = true;
    }
    let service = StreamableHttpService::new(
        || Ok(Catalog),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(CompressionLayer::new());
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    eprintln!("rmcp + tower-http CompressionLayer on 127.0.0.1:{port}/mcp");
    axum::serve(listener, router)
        .with_graceful_shutdown(async { let _ = tokio::signal::ctrl_c().await; })
        .await
        .unwrap();
}

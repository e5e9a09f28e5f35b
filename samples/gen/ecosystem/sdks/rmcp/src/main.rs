//! rmcp harness: a Streamable HTTP server (stateful or stateless) and a client, for loopback captures.
//!
//!   rmcp-harness server --port N [--stateless] [--reuseport]
//!   rmcp-harness client --url URL [--loop N] [--interval-ms MS]
//!
//! Server tools: add(a,b), echo(text), slow_count(n) (sends n progress notifications, 100 ms apart).
//! Client: initialize, tools/list, add, echo, slow_count(3), add; then --loop more calls (add, interval
//! apart, errors printed and skipped); then close (DELETE).
use std::time::Duration;

use rmcp::{
    ClientHandler, ErrorData, Peer, RoleServer, ServerHandler, ServiceExt,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolRequestParams, ClientConfig, ProgressNotificationParam, RequestMetaObject,
        ServerCapabilities, ServerConfig,
    },
    schemars, tool, tool_handler, tool_router,
    transport::{
        StreamableHttpClientTransport,
        streamable_http_client::StreamableHttpClientTransportConfig,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        },
    },
};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct AddReq {
    a: i64,
    b: i64,
}
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct EchoReq {
    text: String,
}
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct CountReq {
    n: u32,
}

#[derive(Debug, Clone)]
struct Demo {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Demo {
    fn new() -> Self {
        Self { tool_router: Self::tool_router() }
    }

    #[tool(description = "Add two integers")]
    fn add(&self, Parameters(AddReq { a, b }): Parameters<AddReq>) -> String {
        (a + b).to_string()
    }

    #[tool(description = "Echo a text")]
    fn echo(&self, Parameters(EchoReq { text }): Parameters<EchoReq>) -> String {
        text
    }

    #[tool(description = "Count to n, sending a progress notification per step")]
    async fn slow_count(
        &self,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        Parameters(CountReq { n }): Parameters<CountReq>,
    ) -> Result<String, ErrorData> {
        if let Some(token) = meta.get_progress_token() {
            for step in 1..=n {
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), step as f64)
                            .with_total(n as f64)
                            .with_message(format!("step {step}")),
                    )
                    .await;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        Ok(format!("counted to {n}"))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Demo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

struct ProgressPrinter;
impl ClientHandler for ProgressPrinter {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _ctx: rmcp::service::NotificationContext<rmcp::RoleClient>,
    ) {
        println!("progress {} / {:?}", params.progress, params.total);
    }
    fn get_info(&self) -> ClientConfig {
        ClientConfig::default()
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn call(name: &str, v: serde_json::Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name.to_string())
        .with_arguments(serde_json::from_value(v).expect("object"))
}

async fn server(args: &[String]) -> anyhow::Result<()> {
    let port: u16 = arg(args, "--port").expect("--port").parse()?;
    let stateless = args.iter().any(|a| a == "--stateless");
    let mut config = StreamableHttpServerConfig::default();
    if stateless {
        config = config.with_legacy_session_mode(false).with_json_response(true);
    }
    let service: StreamableHttpService<Demo, LocalSessionManager> =
        StreamableHttpService::new(|| Ok(Demo::new()), Default::default(), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    // --reuseport: SO_REUSEPORT, so a second server can listen on the port before the first one is killed
    // (a rolling restart: every connection made after the kill reaches the new process).
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.set_reuseaddr(true)?;
    if args.iter().any(|a| a == "--reuseport") {
        socket.set_reuseport(true)?;
    }
    socket.bind(std::net::SocketAddr::from(([127, 0, 0, 1], port)))?;
    let listener = socket.listen(1024)?;
    eprintln!("rmcp server on 127.0.0.1:{port} stateless={stateless} pid={}", std::process::id());
    axum::serve(listener, router).await?;
    Ok(())
}

async fn client(args: &[String]) -> anyhow::Result<()> {
    let url = arg(args, "--url").expect("--url");
    let extra: u32 = arg(args, "--loop").map(|s| s.parse().unwrap()).unwrap_or(0);
    let interval: u64 = arg(args, "--interval-ms").map(|s| s.parse().unwrap()).unwrap_or(500);
    let transport =
        StreamableHttpClientTransport::from_config(StreamableHttpClientTransportConfig::with_uri(url));
    let client = ProgressPrinter.serve(transport).await?;
    println!("server: {:?}", client.peer_info().map(|i| i.protocol_version.clone()));
    let tools = client.list_tools(Default::default()).await?;
    println!("tools: {:?}", tools.tools.iter().map(|t| t.name.to_string()).collect::<Vec<_>>());
    for (name, a) in [
        ("add", serde_json::json!({"a": 1, "b": 2})),
        ("echo", serde_json::json!({"text": "hello"})),
        ("slow_count", serde_json::json!({"n": 3})),
        ("add", serde_json::json!({"a": 40, "b": 2})),
    ] {
        let r = client.call_tool(call(name, a)).await?;
        println!("{name}: {:?}", r.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for i in 0..extra {
        tokio::time::sleep(Duration::from_millis(interval)).await;
        match client.call_tool(call("add", serde_json::json!({"a": i, "b": 100}))).await {
            Ok(r) => println!("loop {i}: {:?}", r.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone())),
            Err(e) => println!("loop {i}: error {e}"),
        }
    }
    client.cancel().await?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("server") => server(&args).await,
        Some("client") => client(&args).await,
        _ => anyhow::bail!("usage: rmcp-harness server|client ..."),
    }
}

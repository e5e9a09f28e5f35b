//! rmcp-actix-web 0.13.2 harness of the mcptap ecosystem group `rust-sdks2`: rmcp 3.11.0's Streamable HTTP service
//! (StreamableHttpService of rmcp-actix-web, actix-web 4 instead of axum), mounted at `/` as the crate's example
//! counter_streamable_http.rs does (NormalizePath::trim, LocalSessionManager, actix's default workers).
//!
//!   rmcp-actix-web-harness server --port P                    the example's builder: stateful_mode(true),
//!                                                             sse_keep_alive(30 s); everything else rmcp's defaults
//!   rmcp-actix-web-harness server --port P --stateless-json   stateful_mode(false), json_response(true)
//!
//! Tools: add(a,b), echo(text), slow_count(n) (n notifications/progress 100 ms apart when the request carries a
//! progressToken): the same tool code as ../../sdks/rmcp/src/main.rs (the rmcp server of the sdks group).
use std::{sync::Arc, time::Duration};

use actix_web::{App, HttpServer, middleware};
use rmcp::{
    ErrorData, Peer, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{ProgressNotificationParam, RequestMetaObject, ServerCapabilities, ServerConfig},
    schemars, tool, tool_handler, tool_router,
};
use rmcp_actix_web::transport::{LocalSessionManager, StreamableHttpService};

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

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) != Some("server") {
        eprintln!("usage: rmcp-actix-web-harness server --port P [--stateless-json]");
        std::process::exit(2);
    }
    let port: u16 = arg(&args, "--port").expect("--port").parse().expect("port");
    let stateless = args.iter().any(|a| a == "--stateless-json");
    let builder = StreamableHttpService::builder()
        .service_factory(Arc::new(|| Ok(Demo::new())))
        .session_manager(Arc::new(LocalSessionManager::default()));
    let http_service = if stateless {
        builder.stateful_mode(false).json_response(true).build()
    } else {
        builder.stateful_mode(true).sse_keep_alive(Duration::from_secs(30)).build()
    };
    eprintln!("rmcp-actix-web server on 127.0.0.1:{port} stateless_json={stateless}");
    HttpServer::new(move || {
        App::new()
            .wrap(middleware::NormalizePath::trim())
            .service(http_service.clone().scope())
    })
    .bind(("127.0.0.1", port))?
    .run()
    .await
}

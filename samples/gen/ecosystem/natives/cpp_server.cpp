// The natives group's C++ MCP server: hkr04/cpp-mcp's mcp::server (its own HTTP on the cpp-httplib it bundles,
// common/httplib.h) with the corpus tool set add, echo, slow_count, on 127.0.0.1 only. One process serves both of its
// transports: Streamable HTTP on /mcp (POST, GET, DELETE) and the legacy HTTP+SSE transport (GET /sse, POST
// /message?session_id=...).
//
//     cpp_server PORT
//
// cpp-mcp's tool handlers get only (arguments, session id): they cannot send progress notifications, so slow_count
// sleeps n x 0.1 s and returns n, with no progress on the wire.
#include "mcp_server.h"
#include "mcp_tool.h"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

static mcp::json text(const std::string& s) { return {{{"type", "text"}, {"text", s}}}; }

int main(int argc, char** argv) {
    mcp::server::configuration conf;
    conf.host = "127.0.0.1";
    conf.port = argc > 1 ? std::atoi(argv[1]) : 19810;
    conf.threadpool_size = 4;
    mcp::server server(conf);
    server.set_server_info("mcptap-natives-cpp", "1.0.0");
    server.set_capabilities({{"tools", mcp::json::object()}});

    server.register_tool(mcp::tool_builder("add").with_description("Add two integers")
                             .with_number_param("a", "first").with_number_param("b", "second").build(),
                         [](const mcp::json& p, const std::string&) {
                             return text(std::to_string(p.at("a").get<long>() + p.at("b").get<long>()));
                         });
    server.register_tool(mcp::tool_builder("echo").with_description("Echo a text")
                             .with_string_param("text", "text to echo").build(),
                         [](const mcp::json& p, const std::string&) { return text(p.at("text").get<std::string>()); });
    server.register_tool(mcp::tool_builder("slow_count").with_description("Count to n, 0.1 s a step")
                             .with_number_param("n", "steps").build(),
                         [](const mcp::json& p, const std::string&) {
                             long n = p.at("n").get<long>();
                             for (long i = 0; i < n; i++) std::this_thread::sleep_for(std::chrono::milliseconds(100));
                             return text("counted to " + std::to_string(n));
                         });
    std::cerr << "cpp-mcp server on 127.0.0.1:" << conf.port << std::endl;
    server.start(true);  // blocking
    return 0;
}

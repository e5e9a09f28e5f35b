// The natives group's C++ MCP client: hkr04/cpp-mcp's mcp::sse_client (the legacy HTTP+SSE transport: GET /sse, the
// endpoint event, every message POSTed there; its own HTTP on the bundled cpp-httplib) against a Python SDK server.
//
//     cpp_sse_client BASE_URL [--caps]   e.g. http://127.0.0.1:19815 (it GETs BASE_URL/sse)
//
// Without --caps the client is used as it comes: no set_capabilities, so its initialize says "capabilities": null.
// --caps sets capabilities {} first (cpp-mcp's sse_client_example sets {"roots": {"listChanged": true}}).
// The client version argument of initialize() is mcp::MCP_VERSION, as in cpp-mcp's examples.
//
// initialize, ping, tools/list, add(1,2), echo("hello"), slow_count(3), add(40,2), then the client's destructor
// closes its SSE stream. Every request times out after 10 s.
#include "mcp_sse_client.h"

#include <iostream>

int main(int argc, char** argv) {
    std::string base = argc > 1 ? argv[1] : "http://127.0.0.1:19815";
    mcp::sse_client client(base);
    if (argc > 2 && std::string(argv[2]) == "--caps") client.set_capabilities(mcp::json::object());
    client.set_timeout(10);
    try {
        if (!client.initialize("mcptap-natives-cpp-client", mcp::MCP_VERSION)) {
            std::cerr << "initialize failed" << std::endl;
            return 1;
        }
        std::cout << "initialized; ping " << client.ping() << std::endl;
        for (auto& t : client.get_tools()) std::cout << "tool " << t.name << std::endl;
        std::cout << "add " << client.call_tool("add", {{"a", 1}, {"b", 2}}).dump() << std::endl;
        std::cout << "echo " << client.call_tool("echo", {{"text", "hello"}}).dump() << std::endl;
        std::cout << "slow_count " << client.call_tool("slow_count", {{"n", 3}}).dump() << std::endl;
        std::cout << "add " << client.call_tool("add", {{"a", 40}, {"b", 2}}).dump() << std::endl;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

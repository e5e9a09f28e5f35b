#!/usr/bin/env bash
# Builds the natives group's C++ programs with g++ (no CMake needed): cpp-mcp's library sources (its src/*.cpp, its
# bundled cpp-httplib and nlohmann json in common/) compiled together with cpp_server.cpp and cpp_sse_client.cpp into
# build/cpp_server and build/cpp_sse_client. cpp-mcp must be at cpp-mcp/ beside this script (see SOURCES).
# Each output is rebuilt only when older than its source. Compile-time settings as cpp-mcp's CMakeLists defaults: MCP_MAX_SESSIONS=10, MCP_SESSION_TIMEOUT=30, no SSL.
set -euo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ -f "$D/cpp-mcp/src/mcp_server.cpp" ] || { echo "cpp-mcp sources missing at $D/cpp-mcp (see $D/SOURCES)" >&2; exit 1; }
mkdir -p "$D/build"
FLAGS=(-std=c++17 -O1 -pthread -DMCP_MAX_SESSIONS=10 -DMCP_SESSION_TIMEOUT=30 -I"$D/cpp-mcp/include" -I"$D/cpp-mcp/common")
LIB=("$D/cpp-mcp/src/mcp_message.cpp" "$D/cpp-mcp/src/mcp_resource.cpp" "$D/cpp-mcp/src/mcp_server.cpp"
     "$D/cpp-mcp/src/mcp_tool.cpp" "$D/cpp-mcp/src/mcp_sse_client.cpp")
for f in "${LIB[@]}"; do
    o="$D/build/$(basename "$f" .cpp).o"
    [ "$o" -nt "$f" ] || g++ "${FLAGS[@]}" -c "$f" -o "$o"
done
for p in cpp_server cpp_sse_client; do
    [ "$D/build/$p" -nt "$D/$p.cpp" ] || g++ "${FLAGS[@]}" "$D/$p.cpp" "$D"/build/mcp_*.o -o "$D/build/$p"
done
echo "built $D/build/cpp_server $D/build/cpp_sse_client"

// xmcp 1.1.3 config of the jsservers4 group: HTTP transport only, bound to loopback; the port is set at run time
// (dist/http.js reads it from the built config, so the build is per port: see ../../jsservers4.sh).
import { type XmcpConfig } from "xmcp";

const config: XmcpConfig = {
  http: {
    host: "127.0.0.1",
    port: Number(process.env.XMCP_PORT ?? 19536),
    endpoint: "/mcp",
  },
  paths: { prompts: false, resources: false },
  typescript: { skipTypeCheck: true },
};

export default config;

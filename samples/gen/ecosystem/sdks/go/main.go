// mcp-go harness for samples/gen/ecosystem/sdks.sh: a Streamable HTTP server (the library's defaults) and client.
//
//	mcpgo-harness server --port N
//	mcpgo-harness client --url URL [-progress-last]
//
// Server tools: add(a,b), echo(text), slow_count(n) (n progress notifications, 100 ms apart, when the request
// carries a progressToken). Client: initialize, tools/list, add, echo, slow_count(3) with a progressToken, add
// (-progress-last: add, echo, add, slow_count); then close (DELETE).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func runServer(port int) {
	s := server.NewMCPServer("sdks-mcpgo-server", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("add", mcp.WithDescription("Add two integers"),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprint(req.GetInt("a", 0) + req.GetInt("b", 0))), nil
		})
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo a text"), mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	s.AddTool(mcp.NewTool("slow_count", mcp.WithDescription("Count to n, one progress notification per step"),
		mcp.WithNumber("n", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := req.GetInt("n", 3)
			if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
				srv := server.ServerFromContext(ctx)
				for i := 1; i <= n; i++ {
					err := srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
						"progressToken": req.Params.Meta.ProgressToken, "progress": i, "total": n,
						"message": fmt.Sprintf("step %d", i),
					})
					if err != nil {
						log.Printf("progress: %v", err)
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			return mcp.NewToolResultText(fmt.Sprintf("counted to %d", n)), nil
		})
	h := server.NewStreamableHTTPServer(s) // defaults: endpoint /mcp
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	log.Printf("mcp-go server on %s", addr)
	log.Fatal((&http.Server{Addr: addr, Handler: mux}).ListenAndServe())
}

func runClient(url string, progressLast bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := client.NewStreamableHttpClient(url)
	if err != nil {
		return err
	}
	defer c.Close()
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		fmt.Println("notification", n.Method, n.Params.AdditionalFields)
	})
	if err := c.Start(ctx); err != nil {
		return err
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "sdks-mcpgo-client", Version: "1.0.0"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		return err
	}
	fmt.Println("negotiated", res.ProtocolVersion, res.ServerInfo.Name)
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return err
	}
	for _, t := range tools.Tools {
		fmt.Println("tool", t.Name)
	}
	calls := []struct {
		name string
		args map[string]any
		tok  any
	}{
		{"add", map[string]any{"a": 1, "b": 2}, nil},
		{"echo", map[string]any{"text": "hello"}, nil},
		{"slow_count", map[string]any{"n": 3}, "count-1"},
		{"add", map[string]any{"a": 40, "b": 2}, nil},
	}
	if progressLast { // the progress call last: no plain call after it
		calls[2], calls[3] = calls[3], calls[2]
	}
	for _, call := range calls {
		req := mcp.CallToolRequest{}
		req.Params.Name = call.name
		req.Params.Arguments = call.args
		if call.tok != nil {
			req.Params.Meta = &mcp.Meta{ProgressToken: call.tok}
		}
		r, err := c.CallTool(ctx, req)
		if err != nil {
			return err
		}
		if len(r.Content) > 0 {
			if t, ok := r.Content[0].(mcp.TextContent); ok {
				fmt.Println(call.name, "->", t.Text)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: mcpgo-harness server|client ...")
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	port := fs.Int("port", 0, "server port")
	url := fs.String("url", "", "server URL")
	progressLast := fs.Bool("progress-last", false, "client: make the progress call the last one")
	_ = fs.Parse(os.Args[2:])
	switch os.Args[1] {
	case "server":
		runServer(*port)
	case "client":
		if err := runClient(*url, *progressLast); err != nil {
			log.Fatal(err)
		}
	default:
		log.Fatal("usage: mcpgo-harness server|client ...")
	}
}

// The official Go MCP SDK (github.com/modelcontextprotocol/go-sdk v1.7.0, package mcp) as a server for
// samples/gen/ecosystem/load2.sh: StreamableHTTPHandler on /mcp, stateful (the default), SSE replies (the default),
// and, with --store, StreamableHTTPOptions.EventStore = mcp.NewMemoryEventStore(nil) (the SDK's own in-memory store:
// stream resumption with Last-Event-ID). Everything else is the SDK's defaults.
//
//	load2-gosdk --port N [--store]
//
// Tools: add(a,b), echo(text), slow_count(n) (n notifications/progress 100 ms apart when the request carries a
// progressToken, then "counted to n").
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}
type echoIn struct {
	Text string `json:"text"`
}
type countIn struct {
	N int `json:"n"`
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func main() {
	port := flag.Int("port", 0, "port on 127.0.0.1")
	store := flag.Bool("store", false, "StreamableHTTPOptions.EventStore = NewMemoryEventStore(nil)")
	flag.Parse()
	s := mcp.NewServer(&mcp.Implementation{Name: "load2-gosdk-server", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Add two integers"},
		func(ctx context.Context, req *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
			return text(fmt.Sprint(in.A + in.B)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo a text"},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow_count", Description: "Count to n, one progress notification per 100 ms"},
		func(ctx context.Context, req *mcp.CallToolRequest, in countIn) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= in.N; i++ {
					err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: tok, Progress: float64(i), Total: float64(in.N), Message: fmt.Sprintf("step %d", i)})
					if err != nil {
						log.Printf("progress: %v", err)
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			return text(fmt.Sprintf("counted to %d", in.N)), nil, nil
		})
	opts := &mcp.StreamableHTTPOptions{}
	if *store {
		opts.EventStore = mcp.NewMemoryEventStore(nil)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts))
	addr := fmt.Sprintf("127.0.0.1:%d", *port)
	log.Printf("load2 go-sdk server on %s (event store: %v)", addr, *store)
	log.Fatal((&http.Server{Addr: addr, Handler: mux}).ListenAndServe())
}

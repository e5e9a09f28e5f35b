// Harness of the official Go MCP SDK (github.com/modelcontextprotocol/go-sdk, package mcp) for
// samples/gen/ecosystem/go-sdk.sh: a server and a client, each with the library's defaults unless a flag says otherwise.
//
//	gosdk-harness server --port N [--json] [--stateless]   Streamable HTTP on /mcp (StreamableHTTPHandler)
//	gosdk-harness server --port N --sse                     legacy HTTP+SSE on /sse (SSEHandler)
//	gosdk-harness client --url URL [--sse]                   StreamableClientTransport (or SSEClientTransport)
//
// Server tools: add(a,b), echo(text), slow_count(n) (n notifications/progress, 100 ms apart, when the request carries
// a progressToken). Client: connect (the SDK's own handshake, bounded by the 40 s session
// context), tools/list, add(1,2), echo("hello"), slow_count(3) with
// a progressToken, add(40,2), close. A failed call is printed and the client goes on; every call has a 10 s timeout.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
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

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "gosdk-harness-server", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Add two integers"},
		func(ctx context.Context, req *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
			return text(fmt.Sprint(in.A + in.B)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo a text"},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow_count", Description: "Count to n, one progress notification per step"},
		func(ctx context.Context, req *mcp.CallToolRequest, in countIn) (*mcp.CallToolResult, any, error) {
			n := in.N
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= n; i++ {
					err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: tok, Progress: float64(i), Total: float64(n), Message: fmt.Sprintf("step %d", i)})
					if err != nil {
						log.Printf("progress: %v", err)
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			return text(fmt.Sprintf("counted to %d", n)), nil, nil
		})
	return s
}

func runServer(port int, jsonResp, stateless, sse bool) {
	s := newServer()
	get := func(*http.Request) *mcp.Server { return s }
	mux := http.NewServeMux()
	if sse {
		mux.Handle("/sse", mcp.NewSSEHandler(get, nil))
	} else {
		mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			JSONResponse: jsonResp, Stateless: stateless}))
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	log.Printf("go-sdk server on %s (json=%v stateless=%v sse=%v)", addr, jsonResp, stateless, sse)
	log.Fatal((&http.Server{Addr: addr, Handler: mux}).ListenAndServe())
}

func runClient(url string, sse bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "gosdk-harness-client", Version: "1.0.0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			fmt.Println("progress", r.Params.Progress, r.Params.Total, r.Params.Message)
		},
	})
	hc := &http.Client{Timeout: 30 * time.Second}
	var t mcp.Transport
	if sse {
		t = &mcp.SSEClientTransport{Endpoint: url, HTTPClient: &http.Client{}} // the GET stream is long-lived
	} else {
		t = &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}
	}
	// Connect with the session's context: SSEClientTransport ties its GET stream to it (a shorter context that is
	// cancelled after the handshake would cut the stream).
	cs, err := c.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if r := cs.InitializeResult(); r != nil {
		fmt.Println("negotiated", r.ProtocolVersion, r.ServerInfo.Name)
	}
	rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
	tools, err := cs.ListTools(rctx, nil)
	rcancel()
	if err != nil {
		fmt.Println("tools/list failed:", err)
	} else {
		for _, tl := range tools.Tools {
			fmt.Println("tool", tl.Name)
		}
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
	for _, call := range calls {
		p := &mcp.CallToolParams{Name: call.name, Arguments: call.args}
		if call.tok != nil {
			p.SetProgressToken(call.tok)
		}
		rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
		r, err := cs.CallTool(rctx, p)
		rcancel()
		if err != nil {
			fmt.Println(call.name, "failed:", err)
		} else if len(r.Content) > 0 {
			if tc, ok := r.Content[0].(*mcp.TextContent); ok {
				fmt.Println(call.name, "->", tc.Text)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return cs.Close()
}

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: gosdk-harness server|client ...")
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	port := fs.Int("port", 0, "server port")
	url := fs.String("url", "", "client: server URL")
	jsonResp := fs.Bool("json", false, "server: StreamableHTTPOptions.JSONResponse")
	stateless := fs.Bool("stateless", false, "server: StreamableHTTPOptions.Stateless")
	sse := fs.Bool("sse", false, "legacy HTTP+SSE (server: SSEHandler on /sse; client: SSEClientTransport)")
	_ = fs.Parse(os.Args[2:])
	switch os.Args[1] {
	case "server":
		runServer(*port, *jsonResp, *stateless, *sse)
	case "client":
		if err := runClient(*url, *sse); err != nil {
			log.Fatal(err)
		}
	default:
		log.Fatal("usage: gosdk-harness server|client ...")
	}
}

// Harness of the official Go MCP SDK (github.com/modelcontextprotocol/go-sdk, package mcp) over HTTP/2 over TLS, for
// samples/gen/ecosystem/h2tls.sh: the go-sdk group's server and client (go-sdk/main.go), with the library's defaults
// unless a flag says otherwise, plus only what a user adds to get TLS: the server is Go's net/http serving TLS
// (http.Server.ServeTLS, which offers ALPN h2 by itself), the client an http.Client whose Transport trusts the
// self-signed certificate, writes the TLS key log and keeps HTTP/2 on (ForceAttemptHTTP2, needed once a custom
// TLSClientConfig is set).
//
//	h2tls-harness server --port N --cert C --key K [--json]      Streamable HTTP on https://127.0.0.1:N/mcp
//	h2tls-harness client --url URL --ca C --keylog FILE          StreamableClientTransport over that client
//
// Server tools: add(a,b), echo(text), slow_count(n) (n notifications/progress, 100 ms apart, when the request carries
// a progressToken). Client: connect (the SDK's own handshake), tools/list, add(1,2), echo("hello"), slow_count(3)
// with a progressToken, add(40,2), close. A failed call is printed and the client goes on; every call has a 10 s
// timeout.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"log"
	"net"
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
	s := mcp.NewServer(&mcp.Implementation{Name: "h2tls-go-server", Version: "1.0.0"}, nil)
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

func runServer(port int, cert, key string, jsonResp bool) {
	s := newServer()
	get := func(*http.Request) *mcp.Server { return s }
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{JSONResponse: jsonResp}))
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("go-sdk server on https://%s/mcp (json=%v)", addr, jsonResp)
	// TLSConfig nil: net/http configures TLS itself and offers ALPN "h2", "http/1.1".
	log.Fatal((&http.Server{Handler: mux}).ServeTLS(ln, cert, key))
}

func runClient(url, ca, keylog string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	pem, err := os.ReadFile(ca)
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return fmt.Errorf("no certificate in %s", ca)
	}
	kl, err := os.OpenFile(keylog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer kl.Close()
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: roots, KeyLogWriter: kl},
		ForceAttemptHTTP2: true,
	}}
	c := mcp.NewClient(&mcp.Implementation{Name: "h2tls-go-client", Version: "1.0.0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			fmt.Println("progress", r.Params.Progress, r.Params.Total, r.Params.Message)
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
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
		log.Fatal("usage: h2tls-harness server|client ...")
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	port := fs.Int("port", 0, "server port")
	cert := fs.String("cert", "", "server: certificate (PEM)")
	key := fs.String("key", "", "server: private key (PEM)")
	jsonResp := fs.Bool("json", false, "server: StreamableHTTPOptions.JSONResponse")
	url := fs.String("url", "", "client: server URL (https)")
	ca := fs.String("ca", "", "client: CA certificate to trust (the server's self-signed certificate)")
	keylog := fs.String("keylog", "", "client: append the TLS secrets here (NSS key log format)")
	_ = fs.Parse(os.Args[2:])
	switch os.Args[1] {
	case "server":
		runServer(*port, *cert, *key, *jsonResp)
	case "client":
		if err := runClient(*url, *ca, *keylog); err != nil {
			log.Fatal(err)
		}
	default:
		log.Fatal("usage: h2tls-harness server|client ...")
	}
}

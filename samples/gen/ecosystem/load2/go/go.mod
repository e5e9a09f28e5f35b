module ecosystem/load2-gosdk

go 1.25.0

require github.com/modelcontextprotocol/go-sdk v1.7.0

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

// Built offline (GOPROXY=off) from the go-sdk group's source trees (../../go-sdk/src, pinned in ../../go-sdk/SOURCES).
replace (
	github.com/google/jsonschema-go => ../../go-sdk/src/google/jsonschema-go
	github.com/modelcontextprotocol/go-sdk => ../../go-sdk/src/modelcontextprotocol/go-sdk
	github.com/segmentio/asm => ../../go-sdk/src/segmentio/asm
	github.com/segmentio/encoding => ../../go-sdk/src/segmentio/encoding
	github.com/yosida95/uritemplate/v3 => ../../go-sdk/src/yosida95/uritemplate
	golang.org/x/oauth2 => ../../go-sdk/src/golang/oauth2
	golang.org/x/sync => ../../go-sdk/src/golang/sync
	golang.org/x/sys => ../../go-sdk/src/golang/sys
	golang.org/x/time => ../../go-sdk/src/golang/time
)

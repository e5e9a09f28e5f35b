module sdks/mcpgo-harness

go 1.25.5

require github.com/mark3labs/mcp-go v0.58.0

require (
	github.com/google/jsonschema-go v0.4.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/text v0.14.0 // indirect
)

// Built offline (GOPROXY=off): every module comes from a source tree laid out under src/ by sources.sh.
replace (
	github.com/google/jsonschema-go => ./src/google/jsonschema-go
	github.com/google/uuid => ./src/google/uuid
	github.com/mark3labs/mcp-go => ./src/mark3labs/mcp-go
	github.com/santhosh-tekuri/jsonschema/v6 => ./src/santhosh-tekuri/jsonschema
	github.com/spf13/cast => ./src/spf13/cast
	github.com/yosida95/uritemplate/v3 => ./src/yosida95/uritemplate
	golang.org/x/text => ./src/golang/text
)

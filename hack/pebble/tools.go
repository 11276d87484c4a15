//go:build tools

// Package tools pins Pebble's command so `go mod tidy` keeps its dependencies.
package tools

import _ "github.com/letsencrypt/pebble/v2/cmd/pebble"

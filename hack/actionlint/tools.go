//go:build tools

// Package tools pins the actionlint command so `go mod tidy` keeps its dependencies.
package tools

import _ "github.com/rhysd/actionlint/cmd/actionlint"

// Builds actionlint, the linter of .github/workflows (`make actionlint`). Never imported by the
// operator; see hack/build-binaries.sh.
module cdn-operator.local/hack/actionlint

go 1.24.0

require github.com/rhysd/actionlint v1.7.7

require (
	github.com/bmatcuk/doublestar/v4 v4.8.0 // indirect
	github.com/fatih/color v1.18.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/mattn/go-runewidth v0.0.16 // indirect
	github.com/mattn/go-shellwords v1.0.12 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/robfig/cron/v3 v3.0.1 // indirect
	golang.org/x/sync v0.10.0 // indirect
	golang.org/x/sys v0.29.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

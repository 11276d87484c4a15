// Command rulecheck validates Prometheus rule files and PromQL expressions with Prometheus'
// own packages (model/rulefmt and promql/parser, the code `promtool check rules` runs),
// without building all of promtool. It also lists the metric names each expression selects.
//
// Usage:
//
//	rulecheck rules FILE...   check rule files; print {"metrics": [...]} as JSON
//	rulecheck exprs < exprs.json   check a JSON array of PromQL expressions (e.g. dashboard
//	                               panel targets); print {"metrics": [...]} as JSON
//
// Exits 1 with the errors on stderr when anything is invalid.
package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sort"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

type report struct {
	// Metric names selected by the expressions.
	Metrics []string `json:"metrics"`
	// Per metric, the label names the expressions match on or aggregate by.
	Labels map[string][]string `json:"labels"`
	Rules  int                 `json:"rules"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rulecheck rules FILE... | rulecheck exprs < exprs.json")
		os.Exit(2)
	}
	var exprs []string
	var errs []string
	rules := 0
	// The parser promtool uses by default (no experimental functions).
	promql := parser.NewParser(parser.Options{})
	switch os.Args[1] {
	case "rules":
		for _, file := range os.Args[2:] {
			groups, problems := rulefmt.ParseFile(file, false, model.UTF8Validation, promql, slog.New(slog.DiscardHandler))
			for _, p := range problems {
				errs = append(errs, fmt.Sprintf("%s: %v", file, p))
			}
			if groups == nil {
				continue
			}
			for _, g := range groups.Groups {
				for _, r := range g.Rules {
					rules++
					exprs = append(exprs, r.Expr)
				}
			}
		}
	case "exprs":
		if err := json.NewDecoder(os.Stdin).Decode(&exprs); err != nil {
			fmt.Fprintf(os.Stderr, "cannot decode expressions: %v\n", err)
			os.Exit(2)
		}
	default:
		fmt.Fprintf(os.Stderr, "cannot run unknown command %q\n", os.Args[1])
		os.Exit(2)
	}
	metrics := map[string]map[string]bool{}
	for _, e := range exprs {
		expr, err := promql.ParseExpr(e)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%q: %v", e, err))
			continue
		}
		parser.Inspect(expr, func(node parser.Node, path []parser.Node) error {
			if vs, ok := node.(*parser.VectorSelector); ok {
				collect(metrics, vs, path)
			}
			return nil
		})
	}
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(os.Stderr, e)
		}
		os.Exit(1)
	}
	out := report{Metrics: make([]string, 0, len(metrics)), Labels: map[string][]string{}, Rules: rules}
	for m, names := range metrics {
		out.Metrics = append(out.Metrics, m)
		list := make([]string, 0, len(names))
		for n := range names {
			list = append(list, n)
		}
		sort.Strings(list)
		out.Labels[m] = list
	}
	sort.Strings(out.Metrics)
	_ = json.NewEncoder(os.Stdout).Encode(out)
}

// collect records the selector's metric name with the labels it matches on and the labels
// every enclosing aggregation groups by.
func collect(metrics map[string]map[string]bool, vs *parser.VectorSelector, path []parser.Node) {
	name := vs.Name
	for _, m := range vs.LabelMatchers {
		if m.Name == labels.MetricName && m.Type == labels.MatchEqual {
			name = m.Value
		}
	}
	if name == "" {
		return
	}
	if metrics[name] == nil {
		metrics[name] = map[string]bool{}
	}
	for _, m := range vs.LabelMatchers {
		if m.Name != labels.MetricName {
			metrics[name][m.Name] = true
		}
	}
	for _, p := range path {
		if agg, ok := p.(*parser.AggregateExpr); ok && !agg.Without {
			for _, g := range agg.Grouping {
				metrics[name][g] = true
			}
		}
	}
}

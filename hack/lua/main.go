// Command argocd-lua evaluates an Argo CD resource health script the way Argo CD does: with
// gopher-lua (the Lua engine Argo CD embeds), only the base, package and table libraries plus
// a safe os module (time, date) reachable through require("os"), a one-second limit, and the
// object decoded into the global `obj` as Argo CD decodes it.
//
// Usage: argocd-lua [-open-libs] SCRIPT < objects.json
//
// stdin holds a JSON array of objects; stdout gets a JSON array of {"status", "message"} or
// {"error"} per object, in order. -open-libs mirrors the argocd-cm useOpenLibs setting.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"
)

type result struct {
	Status  string `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	Error   string `json:"error,omitempty"`
}

// validStatus lists the health codes Argo CD accepts; anything else becomes Unknown there.
var validStatus = map[string]bool{
	"Unknown": true, "Progressing": true, "Suspended": true,
	"Healthy": true, "Degraded": true, "Missing": true,
}

func main() {
	openLibs := flag.Bool("open-libs", false, "open the whole standard library (argocd-cm useOpenLibs)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: argocd-lua [-open-libs] SCRIPT < objects.json")
		os.Exit(2)
	}
	script, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot read script: %v\n", err)
		os.Exit(2)
	}
	var objects []map[string]interface{}
	dec := json.NewDecoder(os.Stdin)
	if err := dec.Decode(&objects); err != nil {
		fmt.Fprintf(os.Stderr, "cannot decode objects: %v\n", err)
		os.Exit(2)
	}
	out := make([]result, 0, len(objects))
	for _, obj := range objects {
		out = append(out, evaluate(string(script), obj, *openLibs))
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "cannot encode results: %v\n", err)
		os.Exit(1)
	}
}

func evaluate(script string, obj map[string]interface{}, openLibs bool) result {
	l := lua.NewState(lua.Options{SkipOpenLibs: !openLibs})
	defer l.Close()
	for _, lib := range []struct {
		name string
		fn   lua.LGFunction
	}{
		{lua.LoadLibName, lua.OpenPackage},
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
	} {
		if err := l.CallByParam(lua.P{Fn: l.NewFunction(lib.fn), NRet: 0, Protect: true}, lua.LString(lib.name)); err != nil {
			return result{Error: err.Error()}
		}
	}
	l.PreloadModule(lua.OsLibName, loadSafeOs)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	l.SetContext(ctx)
	l.SetGlobal("obj", decode(l, obj))
	if err := l.DoString(script); err != nil {
		return result{Error: err.Error()}
	}
	ret, ok := l.Get(-1).(*lua.LTable)
	if !ok {
		return result{Error: fmt.Sprintf("expect table output from Lua script, not %s", l.Get(-1).Type())}
	}
	status := lua.LVAsString(ret.RawGetString("status"))
	if !validStatus[status] {
		return result{Status: "Unknown", Message: "Lua returned an invalid health status"}
	}
	return result{Status: status, Message: lua.LVAsString(ret.RawGetString("message"))}
}

// decode converts JSON values to Lua values as Argo CD does (arrays 1-based, maps by key).
func decode(l *lua.LState, v interface{}) lua.LValue {
	switch x := v.(type) {
	case bool:
		return lua.LBool(x)
	case float64:
		return lua.LNumber(x)
	case string:
		return lua.LString(x)
	case []interface{}:
		t := l.CreateTable(len(x), 0)
		for _, item := range x {
			t.Append(decode(l, item))
		}
		return t
	case map[string]interface{}:
		t := l.CreateTable(0, len(x))
		for k, item := range x {
			t.RawSetH(lua.LString(k), decode(l, item))
		}
		return t
	}
	return lua.LNil
}

// loadSafeOs is the os module Argo CD offers health scripts: time and date only.
func loadSafeOs(l *lua.LState) int {
	l.Push(l.SetFuncs(l.NewTable(), map[string]lua.LGFunction{"time": osTime, "date": osDate}))
	return 1
}

func intField(t *lua.LTable, key string, def int) int {
	if n, ok := t.RawGetString(key).(lua.LNumber); ok {
		return int(n)
	}
	return def
}

// osTime: now, or a date table read as local time (hour defaults to 12), like Argo CD's.
func osTime(l *lua.LState) int {
	if l.GetTop() == 0 {
		l.Push(lua.LNumber(time.Now().Unix()))
		return 1
	}
	t := l.CheckTable(1)
	d := time.Date(intField(t, "year", -1), time.Month(intField(t, "month", -1)), intField(t, "day", -1),
		intField(t, "hour", 12), intField(t, "min", 0), intField(t, "sec", 0), 0, time.Local)
	l.Push(lua.LNumber(d.Unix()))
	return 1
}

// osDate: "!" selects UTC only when no time is given (a given time is local), like Argo CD's.
func osDate(l *lua.LState) int {
	t := time.Now()
	format := "%c"
	if l.GetTop() >= 1 {
		format = l.CheckString(1)
		if strings.HasPrefix(format, "!") {
			t = time.Now().UTC()
			format = strings.TrimLeft(format, "!")
		}
		if l.GetTop() >= 2 {
			t = time.Unix(l.CheckInt64(2), 0)
		}
		if strings.HasPrefix(format, "*t") {
			r := l.NewTable()
			for k, v := range map[string]int{"year": t.Year(), "month": int(t.Month()), "day": t.Day(),
				"hour": t.Hour(), "min": t.Minute(), "sec": t.Second(), "wday": int(t.Weekday()) + 1} {
				r.RawSetString(k, lua.LNumber(v))
			}
			r.RawSetString("yday", lua.LNumber(0))
			r.RawSetString("isdst", lua.LFalse)
			l.Push(r)
			return 1
		}
	}
	l.Push(lua.LString(strftime(t, format)))
	return 1
}

var strftimeLayout = map[byte]string{
	'a': "Mon", 'A': "Monday", 'b': "Jan", 'B': "January", 'c': "02 Jan 06 15:04 MST", 'd': "02",
	'F': "2006-01-02", 'H': "15", 'I': "03", 'm': "01", 'M': "04", 'p': "PM", 'S': "05",
	'y': "06", 'Y': "2006", 'z': "-0700", 'Z': "MST",
}

func strftime(t time.Time, format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i == len(format)-1 {
			b.WriteByte(c)
			continue
		}
		i++
		if layout, ok := strftimeLayout[format[i]]; ok {
			b.WriteString(t.Format(layout))
		} else if format[i] == '%' {
			b.WriteByte('%')
		} else {
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

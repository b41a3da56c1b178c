package schema_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/runfile/schema"
)

// TestTestdata: the run files checked in as test data (the report's
// golden inputs, written by gqlbench's builds) match the schema.
func TestTestdata(t *testing.T) {
	files, err := filepath.Glob("../../*/testdata/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 9 {
		t.Fatalf("found only %v", files)
	}
	for _, f := range files {
		schema.CheckFile(t, f)
	}
}

// TestValidateRejects: the schema is not vacuous: a wrong type, a missing
// field, a foreign line type or a corrupt histogram fails, naming the line.
func TestValidateRejects(t *testing.T) {
	const header = `{"type":"header","format":"gqlbench-run/1","tool":{"name":"gqlbench","version":"v","go":"go"},"generator":"h/1","command":["gqlbench"],"flags":{},"target":"http://127.0.0.1/","queries":{"path":"q","sha256":"x","instances":1,"templates":["QT1"],"expect":0},"mode":"closed","params":{"seed":1,"interval_ns":1,"timeout_ns":1,"verify_sample":1,"max_error_rate":0,"client":"gqlbench","checked":false},"machine":{"hostname":"h","os":"linux","arch":"amd64","kernel":"k","cpu":"c","cores":1,"memory_bytes":1,"go":"go"},"histogram":{"unit":"ns","lowest":1,"highest":3600000000000,"digits":3},"start":"2026-01-02T03:04:05Z"}` + "\n"
	const interval = `{"type":"interval","run":1,"warmup":false,"index":0,"start_ns":0,"end_ns":1,"templates":{"QT1":{"count":1,"ok":1,"errors":0,"wrong":0,"verified":0,"late":0,"driver_late":0,"dropped":0,"overrun":0,"overrun_ok":0,"bytes_sent":1,"bytes_received":1}}}` + "\n"
	if err := schema.Validate(strings.NewReader(header + interval)); err != nil {
		t.Fatalf("a valid file: %v", err)
	}
	for _, c := range []struct{ name, in, want string }{
		{"a string for a number", header + strings.Replace(interval, `"run":1`, `"run":"1"`, 1), "line 2"},
		{"a missing field", header + strings.Replace(interval, `"end_ns":1,`, ``, 1), "line 2"},
		{"a foreign line type", header + `{"type":"bogus"}` + "\n", "line 2"},
		{"no type", `{"format":"gqlbench-run/1"}` + "\n", "line 1"},
		{"another format", strings.Replace(header, "gqlbench-run/1", "gqlbench-run/2", 1), "line 1"},
		{"not base64", header + strings.Replace(interval, `"bytes_received":1`, `"bytes_received":1,"qet":"!!"`, 1), "line 2"},
		{"run 0", header + strings.Replace(interval, `"run":1`, `"run":0`, 1), "line 2"},
		{"another histogram configuration", strings.Replace(header, `"digits":3`, `"digits":2`, 1), "line 1"},
		{"not a date-time", strings.Replace(header, "2026-01-02T03:04:05Z", "yesterday", 1), "line 1"},
	} {
		err := schema.Validate(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error on %s", c.name, err, c.want)
		}
	}
	// Fields the schema does not list are a newer gqlbench's: allowed.
	if err := schema.Validate(strings.NewReader(strings.Replace(header, `"seed":1`, `"seed":1,"future":[1]`, 1))); err != nil {
		t.Errorf("an unknown field: %v", err)
	}
}

// TestOnlyTests: no package of gqlbench but this one imports the JSON
// Schema library, and none imports this package: the binary carries
// neither; this package imports nothing of gqlbench's.
func TestOnlyTests(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "../../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const self = "github.com/gqlbench/gqlbench/runfile/schema"
	pkgs := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %v", pkgs)
	}
	for _, line := range pkgs {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, imp := range strings.Fields(imports) {
			if imp == self || strings.HasPrefix(imp, "github.com/santhosh-tekuri/") && pkg != self ||
				pkg == self && strings.HasPrefix(imp, "github.com/gqlbench/") {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}

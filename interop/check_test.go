package interop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/verify"
)

// The answer check of every export is a reimplementation of package
// verify's: these tests run each (JavaScript in k6, Groovy on JMeter's
// Groovy, Python) on tricky answers and require the canonical form and the
// check's verdict that Go gives, byte for byte.

// vectorData are answers' data whose canonical forms differ from their
// text: member order, unicode and escapes, numbers, nesting.
var vectorData = []string{
	`{"b":1,"a":2}`,
	`{"é":1,"e":2,"z":3,"😀":4,"\uffff":5,"\ud83d\ude01":6,"":7}`,
	`{"n":[1.0,1e0,1.0000001,2.50,1e-7,-0,-0.0,0.0000005,-0.0000005,-0.00000049,0.1,1E+2,9.9999995,1.23456789e5,12345678.1234565]}`,
	`[123456789012345678901234567890,-98765432109876543210.5,1e400,1e-2000000000000000000,0e5,-1.5e-3]`,
	`["\u00e9","é","\/","\b\f\n\r\t","\u0001\u001f\u007f","\ud83d\ude00","\ud800","\ud800\u0041","\udc00\ud800","a\"b\\c","\u2028\u2029","<&>"]`,
	`[[3,1],[2,[1,0]],{"b":[2,1],"a":[[],{}]}]`,
	`[3,"a",null,true,false,{"x":1},[2,1],1.5,"A","a"]`,
	" { \"a\" :\n [ 1 , 2 ] ,\t\"b\" : { } } ",
	`null`,
	`{"a":1,"a":2}`,
	`1e2000`,
	`[1,]`,
	`{"a":"x"`,
	`"\x"`,
	`{"faculty":{"id":"Faculty12","publications":[{"title":"Ω≈ç√","year":2009},{"title":"b","year":1999}]}}`,
}

type vector struct {
	Body      string     `json:"body"`
	Expect    string     `json:"expect"`
	Unordered bool       `json:"unordered"`
	Status    int        `json:"status"`
	Ignore    [][]string `json:"ignore"`
	// What Go says.
	canonical *string
	kind      string
}

func vectors(t *testing.T) []vector {
	var out []vector
	for _, d := range vectorData {
		for _, unordered := range []bool{false, true} {
			body := `{"data":` + d + `}`
			o := verify.Options{Unordered: unordered}
			v := vector{Body: body, Unordered: unordered, Status: 200, Ignore: [][]string{}}
			if c, err := verify.Normalize([]byte(body), o); err == nil {
				s := string(c)
				v.canonical = &s
			}
			if h, err := verify.HashWith([]byte(d), o); err == nil {
				v.Expect = h
				v.kind = ""
				w := v
				w.Expect = strings.Repeat("0", 64)
				w.kind = "wrong"
				out = append(out, v, w)
				continue
			}
			v.Expect = strings.Repeat("1", 64)
			v.kind = "bad_response"
			out = append(out, v)
		}
	}
	// Ignored paths: through lists, at any depth; a member not ignored still counts.
	ignored := `{"book":{"id":"1","seenAt":"t0","tags":[{"t":1,"seenAt":2},{"t":2}]},"seenAt":3}`
	paths := [][]string{{"book", "seenAt"}, {"book", "tags", "seenAt"}, {"seenAt"}, {"none", "x"}}
	var vp []verify.Path
	for _, p := range paths {
		vp = append(vp, p)
	}
	for _, unordered := range []bool{false, true} {
		h, err := verify.HashWith([]byte(ignored), verify.Options{Unordered: unordered, Ignore: vp})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ body, kind string }{
			{`{"data":{"seenAt":9,"book":{"tags":[{"seenAt":"x","t":1},{"t":2,"seenAt":[1]}],"seenAt":"t9","id":"1"}}}`, ""},
			{`{"data":{"book":{"id":"1","tags":[{"t":1},{"t":2}]}}}`, ""},
			{`{"data":{"book":{"id":"2","seenAt":"t0","tags":[{"t":1},{"t":2}]}}}`, "wrong"},
		} {
			s, _ := verify.Normalize([]byte(c.body), verify.Options{Unordered: unordered})
			str := string(s)
			out = append(out, vector{Body: c.body, Expect: h, Unordered: unordered, Status: 200, Ignore: paths, canonical: &str, kind: c.kind})
		}
	}
	for _, c := range []struct {
		body   string
		status int
		kind   string
	}{
		{`{"errors":[{"message":"boom"}],"data":null}`, 200, "graphql_errors"},
		{`{"data":{"a":1},"errors":[]}`, 200, ""},
		{`{"data":{"a":1},"errors":null}`, 200, ""},
		{`{"errors":"no"}`, 200, "bad_response"},
		{`{"x":1}`, 200, "bad_response"},
		{`[1]`, 200, "bad_response"},
		{`not json`, 200, "bad_response"},
		{`{"data":{"a":1}}`, 500, "http_status"},
		{`{"data":{"a":1}} x`, 200, "bad_response"},
	} {
		v := vector{Body: c.body, Status: c.status, kind: c.kind, Ignore: [][]string{}}
		if c.kind == "" {
			v.Expect, _ = verify.Hash([]byte(`{"a":1}`))
		}
		// Go's own verdict, to keep the table honest.
		err := verify.Check([]byte(c.body), v.Expect)
		if (err == nil) != (c.kind == "" || c.kind == "http_status") {
			t.Fatalf("%s: verify.Check says %v, the table %q", c.body, err, c.kind)
		}
		c2, err := verify.Normalize([]byte(c.body), verify.Options{})
		if err == nil {
			s := string(c2)
			v.canonical = &s
		}
		out = append(out, v)
	}
	return out
}

// kindOf is the kind a check's message starts with ("" for a right answer).
func kindOf(why string) string {
	if why == "" {
		return ""
	}
	if strings.HasPrefix(why, "wrong answer") {
		return "wrong"
	}
	k, _, _ := strings.Cut(why, ":")
	return k
}

// compare reads a harness's output — one JSON line per vector, [canonical
// or null, the check's message] — and compares it with Go's.
func compare(t *testing.T, lang string, vs []vector, out []byte) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(vs) {
			t.Fatalf("%s: more results than vectors", lang)
		}
		var res [2]*string
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Fatalf("%s: line %d: %v: %s", lang, i+1, err, sc.Bytes())
		}
		v := vs[i]
		switch {
		case (res[0] == nil) != (v.canonical == nil):
			t.Errorf("%s: %s (unordered %t): canonical %v, Go's %v", lang, v.Body, v.Unordered, deref(res[0]), deref(v.canonical))
		case res[0] != nil && *res[0] != *v.canonical:
			t.Errorf("%s: %s (unordered %t):\n canonical %s\n Go's      %s", lang, v.Body, v.Unordered, *res[0], *v.canonical)
		}
		if got := kindOf(deref(res[1])); got != v.kind {
			t.Errorf("%s: %s (unordered %t, status %d): check says %q, want kind %q", lang, v.Body, v.Unordered, v.Status, deref(res[1]), v.kind)
		}
	}
	if i != len(vs) {
		t.Fatalf("%s: %d results for %d vectors", lang, i, len(vs))
	}
}

func deref(s *string) string {
	if s == nil {
		return "<error>"
	}
	return *s
}

func writeVectors(t *testing.T, vs []vector) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, v := range vs {
		enc.Encode(v)
	}
	p := filepath.Join(t.TempDir(), "vectors.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, cmd *exec.Cmd) []byte {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s\n%s", strings.Join(cmd.Args, " "), err, out, stderr.Bytes())
	}
	return out
}

func TestCheckJavaScriptInK6(t *testing.T) {
	t.Parallel() // the tools start slowly: their tests overlap
	k6 := k6Bin(t)
	vs := vectors(t)
	dir := t.TempDir()
	script := `import crypto from 'k6/crypto';
const lines = open(__ENV.VECTORS).split('\n').filter((l) => l !== '');
export const options = { vus: 1, iterations: 1 };
export default function () {}
export function handleSummary() {
  const out = lines.map((l) => {
    const v = JSON.parse(l);
    let canon = null;
    try { canon = gqlbCanonical(gqlbParse(v.body), v.unordered); } catch (e) {}
    return JSON.stringify([canon, gqlbCheck(v.status, v.body, v.expect, v.unordered, (s) => crypto.sha256(s, 'hex'), v.ignore)]);
  });
  return { [__ENV.OUT]: out.join('\n') + '\n' };
}
` + checkJS
	sp := filepath.Join(dir, "vectors.js")
	os.WriteFile(sp, []byte(script), 0o644)
	outPath := filepath.Join(dir, "out.jsonl")
	run(t, exec.Command(k6, "run", "-q", "--address", "", "-e", "VECTORS="+writeVectors(t, vs), "-e", "OUT="+outPath, sp))
	out, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "k6", vs, out)
}

func TestCheckPython(t *testing.T) {
	t.Parallel() // the tools start slowly: their tests overlap
	py := python(t)
	vs := vectors(t)
	script := checkPy + `
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    v = json.loads(line)
    try:
        canon = gqlb_canonical(gqlb_parse(v["body"]), v["unordered"])
    except (ValueError, RecursionError):
        canon = None
    print(json.dumps([canon, gqlb_check(v["status"], v["body"].encode("utf-8", "surrogatepass"), v["expect"], v["unordered"], v["ignore"])]))
`
	sp := filepath.Join(t.TempDir(), "vectors.py")
	os.WriteFile(sp, []byte(script), 0o644)
	compare(t, "python", vs, run(t, exec.Command(py, sp, writeVectors(t, vs))))
}

func TestCheckGroovy(t *testing.T) {
	t.Parallel() // the tools start slowly: their tests overlap
	home := jmeterHome(t)
	vs := vectors(t)
	script := checkGroovy + `
def out = new StringBuilder()
new File(args[0]).eachLine('UTF-8') { line ->
    def v = new groovy.json.JsonSlurper().parseText(line)
    String canon = null
    try { canon = GqlbJson.canonical(GqlbJson.parse(v.body), v.unordered) } catch (IllegalArgumentException e) {}
    out.append(groovy.json.JsonOutput.toJson([canon, GqlbJson.check(String.valueOf(v.status), v.body.getBytes('UTF-8'), v.expect, v.unordered, v.ignore)])).append('\n')
}
System.out.withWriter('UTF-8') { it << out }
`
	sp := filepath.Join(t.TempDir(), "vectors.groovy")
	os.WriteFile(sp, []byte(script), 0o644)
	compare(t, "groovy", vs, run(t, exec.Command("java", "-cp", filepath.Join(home, "lib", "*"), "groovy.ui.GroovyMain", sp, writeVectors(t, vs))))
}

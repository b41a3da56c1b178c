package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/verify"
)

// displayAll is an answer as serve rest gives display-all-N's one call (the
// first n graduate students, each with every field and its advisor
// embedded), and the task's plan, which keeps every field.
func displayAll(n int) (answer []byte, plan string) {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%d","telephone":"+1-555-%04d","emailAddress":"GraduateStudent%d@Department%d.University%d.edu",`+
			`"age":%d,"memberOf":"%d","undergraduateDegreeFrom":"%d","advisor":{"id":"%d","telephone":"+1 555 \"%d\"",`+
			`"emailAddress":"Prof%d@Dept.edu","researchInterest":"Research \u00e9t\u00e9 %d","profType":"FullProfessor",`+
			`"undergraduateDegreeFrom":"%d","masterDegreeFrom":"%d","doctoralDegreeFrom":"%d","worksFor":"%d","headOf":null}}`,
			i, i, i, i%15, i%7, 20+i%10, i%15, i%7, 1000+i, i, i, i, i%7, (i+1)%7, (i+2)%7, i%15)
	}
	b.WriteByte(']')
	plan = fmt.Sprintf(`{"n":%d}|[{"call":"GET /graduateStudents?limit={n}&embed=advisor","as":"graduateStudents","keep":[`+
		`"id","telephone","emailAddress","age","memberOf.id","undergraduateDegreeFrom.id","advisor.id","advisor.telephone",`+
		`"advisor.emailAddress","advisor.researchInterest","advisor.profType","advisor.undergraduateDegreeFrom.id",`+
		`"advisor.masterDegreeFrom.id","advisor.doctoralDegreeFrom.id","advisor.worksFor.id"]}]`, n)
	return []byte(b.String()), plan
}

// compileOne compiles a test plan "VARS|PLAN" of one call.
func compileOne(t testing.TB, p string) *planNode {
	t.Helper()
	vars, plan, _ := strings.Cut(p, "|")
	var pl queryfile.Plan
	if err := json.Unmarshal([]byte(plan), &pl); err != nil {
		t.Fatal(err)
	}
	nodes, err := compilePlan(pl, []byte(vars))
	if err != nil {
		t.Fatal(err)
	}
	return nodes[0]
}

// assembleOne is what Do makes of a call's answer b: decoded into what
// the task uses, projected, encoded.
func assembleOne(n *planNode, b []byte, buf []byte) ([]byte, error) {
	res := Response{Status: 200, Body: b}
	v, err := n.answer(&res)
	if err != nil {
		return nil, err
	}
	if _, bad := v.(badJSON); bad {
		return nil, fmt.Errorf("not JSON")
	}
	data := map[string]any{}
	if err := (&callRun{node: n, value: v}).assembleInto(data); err != nil {
		return nil, err
	}
	out, err := appendJSON(append(buf[:0], `{"data":`...), data)
	return append(out, '}'), err
}

// reference is the same through encoding/json: the whole answer decoded
// (numbers as written), projected, encoded.
func reference(t testing.TB, n *planNode, b []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	p, err := project(v, n.keep)
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{}
	attach(data, n.as, p)
	out, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func dataHash(t testing.TB, body []byte) string {
	t.Helper()
	var r struct{ Data json.RawMessage }
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	h, err := verify.Hash(r.Data)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestShapeAssemblySameHash: an answer decoded straight into what its task
// keeps hashes as the whole answer decoded, projected and encoded by
// encoding/json does: escapes, non-ASCII text, numbers as written,
// references selected as {id}, nulls, nested kept objects, members kept
// whole, lists of scalars.
func TestShapeAssemblySameHash(t *testing.T) {
	big, bigPlan := displayAll(100)
	for _, c := range []struct{ plan, answer string }{
		{bigPlan, string(big)},
		{`{}|[{"call":"GET /x","as":"a.b","keep":["id","n","s","ref.id","o.k","whole","list"]}]`,
			`{"id":"1","n":-1.50e+3,"s":"\u00e9\"\\\/\n\t ✓","ref":7,"o":{"k":[1,{"z":null}],"skip":{"deep":[true,false]}},` +
				`"whole":{"b":[1,2,{"c":"d"}],"a":null},"list":["x","y"],"unused":[{"a":"\ud83d\ude00"}]}`},
		{`{}|[{"call":"GET /x","as":"l","keep":["id","ref.id"]}]`, ` [ {"id":1,"ref":null} , null, {"id":2.0,"ref":"9"} ] `},
		{`{}|[{"call":"GET /x","as":"e","keep":["id"]}]`, `[]`},
		{`{}|[{"call":"GET /x","as":"e","keep":["o.k"]}]`, `{"o":null}`},
	} {
		n := compileOne(t, c.plan)
		got, err := assembleOne(n, []byte(c.answer), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.answer, err)
		}
		want := reference(t, n, []byte(c.answer))
		if dataHash(t, got) != dataHash(t, []byte(want)) {
			t.Errorf("%.80s…: assembled\n%s\nwant (encoding/json)\n%s", c.answer, got, want)
		}
	}
}

// TestShapeDecodeRefusesBadJSON: whatever encoding/json refuses, the
// decoder refuses, in the members it skips as in those it keeps.
func TestShapeDecodeRefusesBadJSON(t *testing.T) {
	s := shapeOf(keepTree{"id": nil})
	for _, b := range []string{
		``, ` `, `{`, `{"id":1`, `{"id":1,}`, `{"x":01,"id":1}`, `{"x":1.,"id":1}`, `{"x":-,"id":1}`, `{"x":"a` + "\x01" + `","id":1}`,
		`{"x":"\q","id":1}`, `{"x":"\u12","id":1}`, `{"x":tru,"id":1}`, `{"x":[1,],"id":1}`, `{"x":{"a"},"id":1}`,
		`{"x":{"a":1 "b":2},"id":1}`, `{"id":1} x`, `{"id":1}{}`, `{id:1}`, `{"id":1e}`, `[1,2`, `nul`, `{"x":"unterminated}`,
	} {
		if json.Valid([]byte(b)) {
			t.Fatalf("%q is valid JSON: not a case", b)
		}
		if _, err := decodeShape([]byte(b), s); err == nil {
			t.Errorf("%q: decoded, want an error", b)
		}
	}
	for _, b := range []string{`{"id":1}`, ` {"x":[{"a":[]},"\u00e9",-0.5E-3,true,false,null],"id":"1"} `, `[]`, `null`, `"s"`, `[{"id":1},{}]`} {
		if _, err := decodeShape([]byte(b), s); err != nil {
			t.Errorf("%q: %v", b, err)
		}
	}
}

// FuzzShapeDecode: the decoder accepts exactly the JSON encoding/json
// accepts, and what it builds hashes as encoding/json's projection.
func FuzzShapeDecode(f *testing.F) {
	big, _ := displayAll(3)
	for _, s := range []string{string(big), `{"id":"1","ref":2,"o":{"k":[1]}}`, `[{"id":1,"ref":null}]`, `{"id":"\u00e9"}`, `[1,{"id":[]}]`} {
		f.Add(s)
	}
	keep := keepTree{"id": nil, "o": keepTree{"k": nil}}
	n := &planNode{as: []string{"a"}, keep: keep, shape: shapeOf(keep)}
	f.Fuzz(func(t *testing.T, s string) {
		_, err := decodeShape([]byte(s), n.shape)
		if valid := json.Valid([]byte(s)); valid != (err == nil) {
			t.Fatalf("%q: json.Valid %v, decodeShape error %v", s, valid, err)
		}
	})
}

// TestShapeAssemblyAllocs: assembling a 42 KB answer of 100 objects, every
// member kept, allocates a handful of buffers, not the values of a full
// decode into maps, their projection and an encoding by reflection
// (12,089 allocations and 905 KB per answer when measured so).
func TestShapeAssemblyAllocs(t *testing.T) {
	b, plan := displayAll(100)
	n := compileOne(t, plan)
	buf, err := assembleOne(n, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := dataHash(t, []byte(reference(t, n, b)))
	if got := dataHash(t, buf); got != want {
		t.Fatalf("assembled %s, want %s", got, want)
	}
	var before, after runtimeBytes
	before.read()
	allocs := testing.AllocsPerRun(20, func() {
		if buf, err = assembleOne(n, b, buf); err != nil {
			t.Fatal(err)
		}
	})
	after.read()
	perRun := (after.bytes - before.bytes) / 21
	t.Logf("%d bytes answer: %.0f allocations, %d bytes per assembly", len(b), allocs, perRun)
	if allocs > 50 {
		t.Errorf("%.0f allocations per assembly, want at most 50", allocs)
	}
	if perRun > 3*int64(len(b)) {
		t.Errorf("%d bytes allocated per assembly of a %d-byte answer, want at most 3×", perRun, len(b))
	}
}

// BenchmarkShapeAssembly is one display-all-100 answer assembled, checked
// each time: the same bytes as the first, whose hash is encoding/json's.
func BenchmarkShapeAssembly(b *testing.B) {
	answer, plan := displayAll(100)
	n := compileOne(b, plan)
	first, err := assembleOne(n, answer, nil)
	if err != nil {
		b.Fatal(err)
	}
	if dataHash(b, first) != dataHash(b, []byte(reference(b, n, answer))) {
		b.Fatal("wrong answer")
	}
	var buf []byte
	b.SetBytes(int64(len(answer)))
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = assembleOne(n, answer, buf); err != nil {
			b.Fatal(err)
		}
		if !bytes.Equal(buf, first) {
			b.Fatal("wrong answer")
		}
	}
}

// runtimeBytes reads the bytes allocated so far.
type runtimeBytes struct{ bytes int64 }

func (r *runtimeBytes) read() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	r.bytes = int64(m.TotalAlloc)
}

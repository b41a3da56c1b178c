package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// TestGeneratedInstancesValidate sends every generated instance through what a
// server does with a request: parse and validate the query, coerce the
// variables as they arrive in JSON. It also checks every value lies in its
// domain.
func TestGeneratedInstancesValidate(t *testing.T) {
	meta := testMeta(t, 1)
	inst, err := Generate(meta, Options{PerTemplate: 40, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for id := 1; id <= 16; id++ {
		n, _ := Count(meta, id)
		want += int(min(n.Int64(), 40)) // QT5 has fewer than 40 at sf=1
	}
	if len(inst) != want {
		t.Fatalf("%d instances, want %d", len(inst), want)
	}
	for _, in := range inst {
		tp, _ := TemplateByID(in.Template)
		if in.Query != tp.Query || !strings.HasPrefix(in.ID, tp.Name+"-") {
			t.Fatalf("%s: query or id not of %s", in.ID, tp.Name)
		}
		doc, perr := parser.ParseQuery(&ast.Source{Input: in.Query})
		if perr != nil {
			t.Fatal(perr)
		}
		if errs := validator.ValidateWithRules(Schema(), doc, nil); len(errs) > 0 {
			t.Fatalf("%s: %v", in.ID, errs)
		}
		js, _ := json.Marshal(in.Variables)
		var wire map[string]any
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		if err := dec.Decode(&wire); err != nil {
			t.Fatal(err)
		}
		if _, err := validator.VariableValues(Schema(), doc.Operations[0], wire); err != nil {
			t.Errorf("%s %s: %v", in.ID, js, err)
		}
		for _, v := range tp.Vars {
			if !inDomain(meta, v.Domain, in.Variables[v.Name]) {
				t.Errorf("%s: $%s = %v is not in %s", in.ID, v.Name, in.Variables[v.Name], v.Domain)
			}
		}
		if tp.Name == "QT8" && in.Variables["attr1"] == in.Variables["attr2"] {
			t.Errorf("%s: the two ordering attributes are equal", in.ID)
		}
	}
}

func inDomain(meta *dataset.Meta, d Domain, v any) bool {
	switch d.Kind {
	case IDList:
		for _, id := range meta.IDs[d.IDKind] {
			if fmt.Sprint(id) == v {
				return true
			}
		}
	case IntRange:
		n, ok := v.(int)
		return ok && n >= d.Lo && n <= d.Hi
	case EnumValues:
		s, _ := v.(string)
		return slices.Contains(d.Values, s)
	case TitleWords:
		s, _ := v.(string)
		return slices.Contains(meta.Words.Title, s)
	case InterestWords:
		s, _ := v.(string)
		return slices.Contains(meta.Words.Interest, s)
	}
	return false
}

func jsonl(t *testing.T, inst []Instance) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteJSONL(&b, inst); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGenerateDeterministic(t *testing.T) {
	meta := testMeta(t, 1)
	gen := func(seed uint64) []byte {
		inst, err := Generate(meta, Options{PerTemplate: 30, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return jsonl(t, inst)
	}
	a, b, c := gen(1), gen(1), gen(2)
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave different instances")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds gave the same instances")
	}
	// A template's instances do not depend on which others are generated,
	// and a smaller request is a prefix of a larger one.
	all, _ := Generate(meta, Options{PerTemplate: 30, Seed: 1})
	only5, _ := Generate(meta, Options{PerTemplate: 30, Templates: []int{5, 9}, Seed: 1})
	var want []Instance
	for _, in := range all {
		if in.Template == 5 || in.Template == 9 {
			want = append(want, in)
		}
	}
	if !bytes.Equal(jsonl(t, only5), jsonl(t, want)) {
		t.Error("QT5 and QT9 changed when generated without the other templates")
	}
	few, _ := Generate(meta, Options{PerTemplate: 7, Templates: []int{14}, Seed: 1})
	many, _ := Generate(meta, Options{PerTemplate: 700, Templates: []int{14}, Seed: 1})
	if !bytes.Equal(jsonl(t, few), jsonl(t, many[:7])) {
		t.Error("7 instances of QT14 are not the first 7 of 700")
	}
}

// key identifies an instance by its template and variable values.
func key(in Instance) string {
	js, _ := json.Marshal(in.Variables) // map keys sorted
	return fmt.Sprintf("%d %s", in.Template, js)
}

func TestGenerateNoDuplicates(t *testing.T) {
	meta := testMeta(t, 1)
	inst, err := Generate(meta, Options{PerTemplate: 3000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	keys, ids := map[string]string{}, map[string]bool{}
	for _, in := range inst {
		if prev, dup := keys[key(in)]; dup {
			t.Fatalf("%s repeats %s", in.ID, prev)
		}
		keys[key(in)] = in.ID
		if ids[in.ID] {
			t.Fatalf("id %s twice", in.ID)
		}
		ids[in.ID] = true
	}
}

// TestGenerateAllWhenFewer asks for more instances than exist: every possible
// instance must come, each once.
func TestGenerateAllWhenFewer(t *testing.T) {
	meta := testMeta(t, 1)
	for _, c := range []struct {
		tmpl int
		want int // every department; every university × {title, abstract}; all of QT8
	}{
		{5, len(meta.IDs["departmentID"])},
		{9, 2 * len(meta.IDs["universityID"])},
		{8, 500 * 6 * 5},
	} {
		inst, err := Generate(meta, Options{PerTemplate: 100000, Templates: []int{c.tmpl}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		n, _ := Count(meta, c.tmpl)
		if len(inst) != c.want || n.Int64() != int64(c.want) {
			t.Errorf("QT%d: %d instances, Count %v, want %d", c.tmpl, len(inst), n, c.want)
		}
		keys := map[string]bool{}
		for _, in := range inst {
			keys[key(in)] = true
		}
		if len(keys) != c.want {
			t.Errorf("QT%d: %d distinct instances, want %d", c.tmpl, len(keys), c.want)
		}
	}
	// All of QT8: each ordered pair of distinct attributes with each of the
	// 500 limits, so every pair appears exactly 500 times.
	inst, _ := Generate(meta, Options{PerTemplate: 15000, Templates: []int{8}, Seed: 2})
	pairs := map[string]int{}
	for _, in := range inst {
		if in.Variables["attr1"] == in.Variables["attr2"] {
			t.Fatalf("%s orders by %v twice", in.ID, in.Variables["attr1"])
		}
		pairs[fmt.Sprint(in.Variables["attr1"], ",", in.Variables["attr2"])]++
	}
	if len(pairs) != 30 {
		t.Errorf("%d ordered attribute pairs, want 30", len(pairs))
	}
	for p, n := range pairs {
		if n != 500 {
			t.Errorf("pair %s: %d instances, want 500", p, n)
		}
	}
}

// TestCountAtSF1 recomputes every template's number of instances from the
// metadata lists, independently of the domains.
func TestCountAtSF1(t *testing.T) {
	meta := testMeta(t, 1)
	n := func(kind string) int64 { return int64(len(meta.IDs[kind])) }
	u := n("universityID")
	title, interest := int64(len(meta.Words.Title)), int64(len(meta.Words.Interest))
	if u != 1000 {
		t.Fatalf("%d universities, want the pool of 1000", u)
	}
	want := map[int]int64{
		1: n("facultyID"), 2: u, 3: n("researchGroupID"), 4: n("lecturerID"),
		5: n("departmentID"), 6: u, 7: u * 50, 8: 500 * 6 * 5, 9: u * 2, 10: title,
		11: u, 12: u * n("departmentID"), 13: u * interest, 14: u * 8 * interest, 15: u, 16: u,
	}
	for id := 1; id <= 16; id++ {
		got, err := Count(meta, id)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(big.NewInt(want[id])) != 0 || want[id] <= 0 {
			t.Errorf("QT%d: Count %v, want %d", id, got, want[id])
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	meta := testMeta(t, 1)
	noDepts := *meta
	noDepts.IDs = map[string]dataset.IDList{"universityID": meta.IDs["universityID"]}
	for _, c := range []struct {
		name string
		meta *dataset.Meta
		opts Options
		want string // in the error
	}{
		{"zero per template", meta, Options{PerTemplate: 0}, "positive"},
		{"negative per template", meta, Options{PerTemplate: -3}, "positive"},
		{"template 17", meta, Options{PerTemplate: 1, Templates: []int{17}}, "unknown template 17"},
		{"template 0", meta, Options{PerTemplate: 1, Templates: []int{0}}, "unknown template 0"},
		{"template twice", meta, Options{PerTemplate: 1, Templates: []int{5, 5}}, "twice"},
		{"empty selection", meta, Options{PerTemplate: 1, Templates: []int{}}, "no templates"},
		{"no metadata", nil, Options{PerTemplate: 1}, "no metadata"},
		{"metadata without departments", &noDepts, Options{PerTemplate: 1, Templates: []int{5}}, "departmentID"},
	} {
		_, err := Generate(c.meta, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if _, err := Count(meta, 17); err == nil {
		t.Error("Count accepted template 17")
	}
}

// TestSampleIndexesUniform checks the sampler's distribution with a fixed
// seed: drawing all of a small product in many rounds, each index is first
// about equally often.
func TestSampleIndexesUniform(t *testing.T) {
	meta := testMeta(t, 1)
	first := map[string]int{}
	rounds := 3000
	for seed := range uint64(rounds) {
		inst, err := Generate(meta, Options{PerTemplate: 1, Templates: []int{9}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		first[inst[0].Variables["attrPublicationField"].(string)]++
	}
	// title vs abstract: 1500 ± 4.5 standard deviations (27).
	if d := first["title"] - rounds/2; d < -125 || d > 125 {
		t.Errorf("title first %d of %d times", first["title"], rounds)
	}
}

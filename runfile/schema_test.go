package runfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// schemaPath is the run file's JSON Schema, relative to this package, and
// schemaID its $id (package schema's ID).
const (
	schemaPath = "schema/gqlbench-run-1.schema.json"
	schemaID   = "https://github.com/gqlbench/gqlbench/runfile/schema/gqlbench-run-1.schema.json"
)

// TestSchemaFresh: the checked-in JSON Schema is the one the line types
// and their comments make: every field with its JSON type, the fields
// always written required, the rest optional, unknown ones allowed. A
// field added to a line type without the schema fails here; -update
// rewrites the schema.
func TestSchemaFresh(t *testing.T) {
	want, err := lineSchema()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(schemaPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the line types make (go test ./runfile -run TestSchemaFresh -update rewrites it)", schemaPath)
	}
}

// obj is a JSON object that keeps its keys' order.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.k)
		v, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// lineKinds are the line types, in the order of a file.
var lineKinds = []struct {
	name string
	v    any
}{
	{TypeHeader, Header{}}, {TypeInterval, Interval{}}, {TypeStep, Step{}}, {TypeQuery, Query{}}, {TypeSummary, Summary{}},
}

// schemaExtra are keywords a field's Go type does not say: what Read
// checks beyond types.
var schemaExtra = map[string]obj{
	"HistConfig.unit":          {{"const", StandardHist.Unit}},
	"HistConfig.lowest":        {{"const", StandardHist.Lowest}},
	"HistConfig.highest":       {{"const", StandardHist.Highest}},
	"HistConfig.digits":        {{"const", StandardHist.Digits}},
	"Interval.run":             {{"minimum", 1}},
	"Interval.index":           {{"minimum", 0}},
	"Interval.step":            {{"minimum", 0}},
	"Header.format":            {{"const", Format}},
	"EngineHeader.format":      {{"const", EngineFormat}},
	"EngineSample.n":           {{"minimum", 1}},
	"EngineSample.ns":          {{"minimum", 0}},
	"TemplateInterval.qet":     {{"contentEncoding", "base64"}},
	"TemplateInterval.qrt":     {{"contentEncoding", "base64"}},
	"TemplateInterval.latency": {{"contentEncoding", "base64"}},
}

// optional are fields without omitempty that a valid file may still lack:
// added to gqlbench-run/1 after its first files (Step.on_time), or left
// out of an unchecked run's summary (Summary.MarshalJSON: no goodput, no
// wrong answers).
var optional = map[string]bool{
	"Step.on_time":            true,
	"Summary.goodput":         true,
	"RunSummary.goodput":      true,
	"RunSummary.wrong":        true,
	"TemplateSummary.goodput": true,
	"TemplateSummary.wrong":   true,
}

// lineSchema makes the JSON Schema of one line of a run file.
func lineSchema() ([]byte, error) {
	return schemaFor(lineKinds, schemaID, "One line of a gqlbench run file ("+Format+")",
		"A run file is JSON lines, one object a line, its kind named by \"type\": a header first, then intervals, steps (capacity) and queries (sequential), and a summary last (absent from a file cut short). docs/runfile.md documents every field. Fields not listed are allowed: a newer gqlbench's optional fields, which readers ignore. Generated from package runfile's line types (go test ./runfile -run TestSchemaFresh -update).")
}

// schemaFor makes the JSON Schema of one line of a file of the line kinds.
func schemaFor(lineKinds []struct {
	name string
	v    any
}, id, title, description string) ([]byte, error) {
	g := &schemaGen{defs: map[string]obj{}, kinds: map[string]string{}}
	if err := g.loadComments(); err != nil {
		return nil, err
	}
	var kinds []string
	var cases []any
	for _, k := range lineKinds {
		kinds = append(kinds, k.name)
		g.kinds[reflect.TypeOf(k.v).Name()] = k.name
		ref := g.schemaOf(reflect.TypeOf(k.v), false)
		cases = append(cases, obj{
			{"if", obj{{"properties", obj{{"type", obj{{"const", k.name}}}}}, {"required", []string{"type"}}}},
			{"then", ref},
		})
	}
	defs := obj{}
	for _, name := range g.order {
		defs = append(defs, kv{name, g.defs[name]})
	}
	s := obj{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"$id", id},
		{"title", title},
		{"description", description},
		{"type", "object"},
		{"required", []string{"type"}},
		{"properties", obj{{"type", obj{{"enum", kinds}}}}},
		{"allOf", cases},
		{"$defs", defs},
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	// HTML's escapes undone: "p99<50ms" reads as written.
	unHTML := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")
	return []byte(unHTML.Replace(out.String())), nil
}

type schemaGen struct {
	comments map[string]string // "Type.Field": its comment, on one line
	kinds    map[string]string // a line's Go type: its "type"
	defs     map[string]obj
	order    []string
}

// loadComments reads the line types' field comments from this package's
// sources: the schema's descriptions.
func (g *schemaGen) loadComments() error {
	g.comments = map[string]string{}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		return err
	}
	for _, p := range pkgs {
		for _, f := range p.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						var txt []string
						for _, c := range []*ast.CommentGroup{fl.Doc, fl.Comment} {
							if c != nil {
								txt = append(txt, c.Text())
							}
						}
						for _, nm := range fl.Names {
							g.comments[ts.Name.Name+"."+nm.Name] = strings.Join(strings.Fields(strings.Join(txt, " ")), " ")
						}
					}
				}
				return true
			})
		}
	}
	return nil
}

func (g *schemaGen) schemaOf(t reflect.Type, nullable bool) obj {
	if t == reflect.TypeOf(time.Time{}) {
		return obj{{"type", "string"}, {"format", "date-time"}}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.schemaOf(t.Elem(), nullable)
	case reflect.Struct:
		if _, ok := g.defs[t.Name()]; !ok {
			g.defs[t.Name()] = nil
			g.order = append(g.order, t.Name())
			g.defs[t.Name()] = g.structSchema(t)
		}
		ref := obj{{"$ref", "#/$defs/" + t.Name()}}
		if nullable {
			return obj{{"anyOf", []any{ref, obj{{"type", "null"}}}}}
		}
		return ref
	case reflect.Map:
		return obj{{"type", jsonType("object", nullable)}, {"additionalProperties", g.schemaOf(t.Elem(), false)}}
	case reflect.Slice:
		return obj{{"type", jsonType("array", nullable)}, {"items", g.schemaOf(t.Elem(), false)}}
	case reflect.Array:
		return obj{{"type", "array"}, {"items", g.schemaOf(t.Elem(), false)}, {"minItems", t.Len()}, {"maxItems", t.Len()}}
	case reflect.String:
		return obj{{"type", "string"}}
	case reflect.Bool:
		return obj{{"type", "boolean"}}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return obj{{"type", "integer"}}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return obj{{"type", "integer"}, {"minimum", 0}}
	case reflect.Float32, reflect.Float64:
		return obj{{"type", "number"}}
	case reflect.Interface:
		return obj{} // any JSON value
	}
	panic(fmt.Sprintf("runfile schema: no JSON type for %s", t))
}

func jsonType(kind string, nullable bool) any {
	if nullable {
		return []string{kind, "null"}
	}
	return kind
}

// structSchema is a line type's (or a part's) object: every field, those
// without omitempty required (but optional ones; a nil map, slice or pointer
// among them is written as null).
func (g *schemaGen) structSchema(t reflect.Type) obj {
	props := obj{}
	var req []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		omit := strings.Contains(opts, "omitempty")
		k := f.Type.Kind()
		s := g.schemaOf(f.Type, !omit && (k == reflect.Map || k == reflect.Slice || k == reflect.Pointer))
		if c := g.comments[t.Name()+"."+f.Name]; c != "" {
			s = append(s, kv{"description", c})
		}
		s = append(s, schemaExtra[t.Name()+"."+name]...)
		if t.Name() == "TemplateInterval" && f.Type.Kind() == reflect.Int64 {
			s = append(s, kv{"minimum", 0}) // counts
		}
		if kind := g.kinds[t.Name()]; name == "type" && kind != "" {
			s = append(s, kv{"const", kind})
		}
		props = append(props, kv{name, s})
		if !omit && !optional[t.Name()+"."+name] {
			req = append(req, name)
		}
	}
	out := obj{{"type", "object"}}
	if len(req) > 0 {
		out = append(out, kv{"required", req})
	}
	return append(out, kv{"properties", props}, kv{"additionalProperties", true})
}

// TestDocsNameEveryField: docs/runfile.md names every field of every line
// and part (as `name`): a field added to the schema is documented too.
func TestDocsNameEveryField(t *testing.T) {
	doc, err := os.ReadFile("../docs/runfile.md")
	if err != nil {
		t.Fatal(err)
	}
	b, err := lineSchema()
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for def, d := range s.Defs {
		for name := range d.Properties {
			n++
			if !bytes.Contains(doc, []byte("`"+name+"`")) {
				t.Errorf("docs/runfile.md does not name %s's field `%s`", def, name)
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d fields in the schema", n)
	}
}

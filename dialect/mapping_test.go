package dialect

import (
	"strings"
	"testing"
)

func rules(t *testing.T, lines ...string) *Mapping {
	t.Helper()
	tpl := &Template{Label: "T"}
	for _, l := range lines {
		if err := tpl.addRule(l); err != nil {
			t.Fatal(err)
		}
	}
	return &tpl.Mapping
}

func TestApply(t *testing.T) {
	for _, c := range []struct {
		name  string
		rules []string
		in    string
		want  string // "" with err set
		err   string // in the error
	}{
		{"list unwraps a connection", []string{"list a.b"},
			`{"a":{"b":{"nodes":[{"id":"1"},{"id":"2"}]}}}`, `{"a":{"b":[{"id":"1"},{"id":"2"}]}}`, ""},
		{"a path goes through every element of a list", []string{"list a", "list a.c"},
			`{"a":{"nodes":[{"c":{"nodes":[1]}},{"c":{"nodes":[]}}]}}`, `{"a":[{"c":[1]},{"c":[]}]}`, ""},
		{"a null on the path ends it", []string{"list a.b"}, `{"a":null}`, `{"a":null}`, ""},
		{"a null connection stays null", []string{"list a"}, `{"a":null}`, `{"a":null}`, ""},
		{"one takes the only node", []string{"one h"}, `{"h":{"nodes":[{"id":"7"}]}}`, `{"h":{"id":"7"}}`, ""},
		{"one of no node is null", []string{"one h"}, `{"h":{"nodes":[]}}`, `{"h":null}`, ""},
		{"one of two nodes is an error", []string{"one h"}, `{"h":{"nodes":[1,2]}}`, "", "2 nodes"},
		{"a connection with more than nodes is an error", []string{"list a"},
			`{"a":{"nodes":[],"totalCount":0}}`, "", "not a connection of nodes alone"},
		{"merge lifts the members", []string{"merge p.f"},
			`{"p":{"id":"1","f":{"email":"e","w":{"id":"2"}}}}`, `{"p":{"email":"e","id":"1","w":{"id":"2"}}}`, ""},
		{"merge of null lifts nothing", []string{"merge p.f"}, `{"p":{"id":"1","f":null}}`, `{"p":{"id":"1"}}`, ""},
		{"merge may replace the member it empties", []string{"merge a.max"}, `{"a":{"max":{"max":"3"}}}`, `{"a":{"max":"3"}}`, ""},
		{"merge refuses a member twice", []string{"merge p.f"}, `{"p":{"id":"1","f":{"id":"2"}}}`, "", "already a member"},
		{"nest wraps", []string{"nest u.c aggregate"}, `{"u":{"c":{"count":3}}}`, `{"u":{"c":{"aggregate":{"count":3}}}}`, ""},
		{"aggregate reads decimal strings", []string{"aggregate a.avg", "aggregate a.max", "aggregate a.n"},
			`{"a":{"avg":"22.9000000000000000","max":"27","n":4}}`, `{"a":{"avg":22.9000000000000000,"max":27,"n":4}}`, ""},
		{"aggregate over no rows is 0", []string{"aggregate a.avg"}, `{"a":{"avg":null}}`, `{"a":{"avg":0}}`, ""},
		{"aggregate refuses other strings", []string{"aggregate a.avg"}, `{"a":{"avg":"1e3"}}`, "", "not a decimal"},
		{"a missing member is an error", []string{"list a.b"}, `{"a":{"c":1}}`, "", `no member "b"`},
		{"a path through a string is an error", []string{"list a.b"}, `{"a":"x"}`, "", "not an object"},
		{"rules apply in order", []string{"merge a.f", "list a.l"},
			`{"a":{"f":{"l":{"nodes":[1]}}}}`, `{"a":{"l":[1]}}`, ""},
		{"not JSON", nil, `{"a":`, "", "not JSON"},
		{"two values", nil, `{} {}`, "", "more than one"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := rules(t, c.rules...).Apply([]byte(c.in))
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("Apply(%s) = %s, %v; want an error about %q", c.in, got, err, c.err)
			case c.err == "" && (err != nil || string(got) != c.want):
				t.Errorf("Apply(%s) = %s, %v; want %s", c.in, got, err, c.want)
			}
		})
	}
}

// FuzzApply: an answer of any shape is mapped or refused with an error,
// never a panic, and a mapped answer is JSON the mapping leaves alone when
// it has no rules.
func FuzzApply(f *testing.F) {
	f.Add(`{"university":{"graduateStudentConnection":{"aggregate":{"average":{"avg":"1.5"},"max":{"max":"2"},"min":{"min":null}}}}}`)
	f.Add(`{"a":{"nodes":[{"b":{"nodes":[]}}]}}`)
	f.Add(`[1,{"a":null}]`)
	d, err := Lookup("postgraphile")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, tpl := range d.Templates {
			out, err := tpl.Mapping.Apply([]byte(in))
			if err != nil {
				continue
			}
			if _, err := (&Mapping{}).Apply(out); err != nil {
				t.Fatalf("%s mapped %q to %q, which is not JSON: %v", tpl.Label, in, out, err)
			}
		}
	})
}

func TestIsDecimal(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "27": true, "-3": true, "22.9000000000000000": true, "0.5": true,
		"": false, "-": false, "01": false, "1.": false, ".5": false, "1e3": false, "NaN": false, " 1": false,
	} {
		if isDecimal(s) != want {
			t.Errorf("isDecimal(%q) = %v", s, !want)
		}
	}
}

package workload

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestParseMix(t *testing.T) {
	all, err := ParseMix("all")
	if err != nil || len(all) != 16 || all[1] != 1 || all[16] != 1 {
		t.Fatalf("all: %v %v", all, err)
	}
	for _, c := range []struct {
		in   string
		want map[int]int // nil: an error
	}{
		{"1:2,5:1", map[int]int{1: 2, 5: 1}},
		{"QT3:4, qt11", map[int]int{3: 4, 11: 1}}, // names, spaces, default weight
		{"ALL", all},
		{"", nil},          // empty
		{"17:1", nil},      // unknown template
		{"x", nil},         // not a template
		{"1:0", nil},       // zero weight
		{"1:-2", nil},      // negative weight
		{"1:a", nil},       // not a number
		{"1:1,QT1:2", nil}, // twice
		{"1:1,", nil},      // trailing comma
	} {
		got, err := ParseMix(c.in)
		if c.want == nil {
			if err == nil {
				t.Errorf("%q: accepted as %v", c.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v %v, want %v", c.in, got, err, c.want)
		}
	}
}

func TestMix(t *testing.T) {
	meta := testMeta(t, 1)
	weights := map[int]int{1: 2, 5: 1, 9: 3}
	mix, err := GenerateMix(meta, weights, 10, 42)
	if err != nil {
		t.Fatal(err)
	}
	count := map[int]int{}
	for _, in := range mix {
		count[in.Template]++
	}
	if want := map[int]int{1: 20, 5: 10, 9: 30}; !reflect.DeepEqual(count, want) {
		t.Errorf("counts per template %v, want %v", count, want)
	}
	// Shuffled: not grouped by template.
	grouped := true
	for i := 1; i < len(mix); i++ {
		grouped = grouped && mix[i].Template >= mix[i-1].Template
	}
	if grouped {
		t.Error("the mix is not shuffled")
	}
	// Deterministic, and another seed shuffles differently.
	again, _ := GenerateMix(meta, weights, 10, 42)
	other, _ := GenerateMix(meta, weights, 10, 43)
	if !bytes.Equal(jsonl(t, mix), jsonl(t, again)) {
		t.Error("the same seed gave another mix")
	}
	if bytes.Equal(jsonl(t, mix), jsonl(t, other)) {
		t.Error("another seed gave the same mix")
	}
	// A template with fewer instances than its share gives all it has: QT5
	// has 19 departments at sf=1.
	capped, err := GenerateMix(meta, map[int]int{5: 3, 3: 1}, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	count = map[int]int{}
	for _, in := range capped {
		count[in.Template]++
	}
	if n5 := len(meta.IDs["departmentID"]); count[5] != min(30, n5) || count[3] != 10 {
		t.Errorf("capped mix counts %v (departments %d)", count, n5)
	}
}

func TestMixErrors(t *testing.T) {
	meta := testMeta(t, 1)
	inst, _ := Generate(meta, Options{PerTemplate: 5, Templates: []int{1, 2}, Seed: 1})
	for _, c := range []struct {
		name    string
		weights map[int]int
		per     int
		want    string
	}{
		{"empty", map[int]int{}, 5, "empty"},
		{"template without instances", map[int]int{3: 1}, 5, "no instances of it"},
		{"unknown template", map[int]int{99: 1}, 5, "unknown template"},
		{"zero weight", map[int]int{1: 0}, 5, "positive"},
		{"zero per weight", map[int]int{1: 1}, 0, "positive"},
	} {
		_, err := Mix(inst, c.weights, c.per, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error about %q", c.name, err, c.want)
		}
	}
}

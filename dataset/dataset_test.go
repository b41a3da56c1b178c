package dataset

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// collect returns every row of dataset c, per table, copied out of the batches.
func collect(t testing.TB, c Config) [NumTables][][]Value {
	t.Helper()
	var all [NumTables][][]Value
	err := c.Stream(context.Background(), 0, nil, func(b *Batch) error {
		for i := range b.Tables {
			rows := &b.Tables[i]
			for r := 0; r < rows.Len(); r++ {
				row := append([]Value(nil), rows.Row(r)...)
				for j := range row {
					row[j].S = strings.Clone(row[j].S) // batch strings die with the batch
				}
				all[i] = append(all[i], row)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func fingerprint(t testing.TB, c Config) Fingerprint {
	t.Helper()
	var f Fingerprint
	if err := c.Stream(context.Background(), 0, nil, func(b *Batch) error { f.AddBatch(b); return nil }); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFingerprintPinned pins the data of generator Version: if this fails, the
// generator's output changed; bump Version and run `go test ./dataset -update`.
func TestFingerprintPinned(t *testing.T) {
	var got strings.Builder
	for _, sf := range []int{1, 2} {
		f := fingerprint(t, Config{Seed: 0, Scale: sf})
		fmt.Fprintf(&got, "# version %d seed 0 sf %d\n%s", Version, sf, f.String())
	}
	path := fmt.Sprintf("testdata/fingerprint-v%d.txt", Version)
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("generator output changed for version %d:\ngot:\n%s\nwant:\n%s", Version, got.String(), want)
	}
}

func TestSameSeedSameData(t *testing.T) {
	a := fingerprint(t, Config{Seed: 42, Scale: 2})
	b := fingerprint(t, Config{Seed: 42, Scale: 2})
	c := fingerprint(t, Config{Seed: 43, Scale: 2})
	if a != b {
		t.Error("the same seed gave different data")
	}
	if a[Faculty] == c[Faculty] {
		t.Error("different seeds gave the same faculty")
	}
	// The number of workers must not matter.
	var one Fingerprint
	Config{Seed: 42, Scale: 2}.Stream(context.Background(), 1, nil, func(b *Batch) error { one.AddBatch(b); return nil })
	if one != a {
		t.Error("one worker gave different data than many")
	}
}

// TestMonotonic: every row generated at sf=1 appears unchanged at sf=3 (LinGBM R4).
func TestMonotonic(t *testing.T) {
	small, large := collect(t, Config{Seed: 7, Scale: 1}), collect(t, Config{Seed: 7, Scale: 3})
	for ti := range small {
		have := map[string]bool{}
		for _, r := range large[ti] {
			have[fmt.Sprint(r)] = true
		}
		for _, r := range small[ti] {
			if !have[fmt.Sprint(r)] {
				t.Fatalf("%s: row %v of sf=1 is missing at sf=3", Tables[ti].Name, r)
			}
		}
		if ti != int(University) && len(large[ti]) <= len(small[ti]) {
			t.Errorf("%s: sf=3 has %d rows, sf=1 %d", Tables[ti].Name, len(large[ti]), len(small[ti]))
		}
	}
}

func TestValidate(t *testing.T) {
	for _, sf := range []int{0, -1} {
		if err := (Config{Scale: sf}).Validate(); err == nil {
			t.Errorf("scale %d accepted", sf)
		}
	}
	if err := (Config{Scale: 0}).Stream(context.Background(), 0, nil, nil); err == nil {
		t.Error("Stream accepted scale 0")
	}
}

func TestUniversityPool(t *testing.T) {
	for _, sf := range []int{1, 1200} {
		var b Batch
		Config{Scale: sf}.Pool(&b)
		rows := &b.Tables[University]
		if want := max(PoolSize, sf); rows.Len() != want {
			t.Errorf("sf=%d: %d pool rows, want %d", sf, rows.Len(), want)
		}
		if r := rows.Row(999); r[0].I != 999 || r[1].S != "university999" {
			t.Errorf("pool row 999 = %v", r)
		}
	}
}

func TestWords(t *testing.T) {
	seen := map[string]bool{}
	word := regexp.MustCompile(`^[a-z]{2,11}$`)
	for _, w := range append(append([]string(nil), Vocabulary()...), InterestVocabulary()...) {
		if !word.MatchString(w) || seen[w] {
			t.Fatalf("bad or duplicate word %q", w)
		}
		seen[w] = true
	}
	if len(seen) != VocabularySize+InterestVocabularySize {
		t.Fatalf("%d words", len(seen))
	}
}

func TestMetaRoundTrip(t *testing.T) {
	c := Config{Seed: 3, Scale: 1}
	mb := NewMetaBuilder(c)
	c.Stream(context.Background(), 0, nil, func(b *Batch) error { mb.Add(b); return nil })
	m := mb.Meta()
	var sb strings.Builder
	if err := m.WriteJSON(&sb); err != nil {
		t.Fatal(err)
	}
	back, err := ReadMeta(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Rows["faculty"] != int64(len(back.IDs["facultyID"])) || back.Rows["faculty"] == 0 {
		t.Errorf("faculty rows %d, ids %d", back.Rows["faculty"], len(back.IDs["facultyID"]))
	}
	if len(back.IDs["universityID"]) != PoolSize || len(back.Words.Interest) == 0 || len(back.Words.Title) == 0 {
		t.Errorf("universities %d, interest words %d", len(back.IDs["universityID"]), len(back.Words.Interest))
	}
	for _, bad := range []string{`{`, `{"generator":"other","version":1}`,
		fmt.Sprintf(`{"generator":"gqlbench","version":%d}`, Version+1),
		fmt.Sprintf(`{"generator":"gqlbench","version":%d,"scale":0}`, Version)} {
		if _, err := ReadMeta(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadMeta accepted %s", bad)
		}
	}
}

func TestIDListJSON(t *testing.T) {
	for _, c := range []struct {
		name string
		ids  IDList
		json string
	}{
		{"empty", IDList{}, `[]`},
		{"one", IDList{7}, `[[7,1,1]]`},
		{"progressions", IDList{1, 11, 21, 2, 12, 100}, `[[1,10,3],[2,10,2],[100,1,1]]`},
	} {
		b, err := json.Marshal(c.ids)
		if err != nil || string(b) != c.json {
			t.Errorf("%s: %s, %v; want %s", c.name, b, err, c.json)
		}
		var back IDList
		if err := json.Unmarshal(b, &back); err != nil || fmt.Sprint(back) != fmt.Sprint(c.ids) {
			t.Errorf("%s: read back %v, %v", c.name, back, err)
		}
	}
	var l IDList
	for _, bad := range []string{`[[1,2]]x`, `[[1,1,0]]`, `[[1,1,99999999999]]`, `{"a":1}`} {
		if err := json.Unmarshal([]byte(bad), &l); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

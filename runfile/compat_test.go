package runfile

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// everyKind is a run file with a line of every type: the sample file's
// header and intervals, a capacity step, a sequential query, its summary.
func everyKind(t *testing.T) []string {
	lines := strings.SplitAfter(string(sampleFile(t, "a", []int64{1000, 2000})), "\n")
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write(&Step{Step: 1, Rate: 100, DurationNS: 1e9, Throughput: 99, Goodput: 99, Met: true})
	w.Write(&Query{ID: "QT1-1", Template: "QT1", N: 3, QETMean: 1000, QETSD: 10})
	extra := strings.SplitAfter(b.String(), "\n")
	return []string{lines[0], lines[1], lines[2], extra[0], extra[1], lines[3]}
}

// TestReadIgnoresUnknownFields: a newer gqlbench's optional fields, at the
// top of every line type and inside its objects, are read past and
// ignored: the file reads as it does without them.
func TestReadIgnoresUnknownFields(t *testing.T) {
	lines := everyKind(t)
	want, err := Read(strings.NewReader(strings.Join(lines, "")))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		lines[i] = `{"future_field":{"a":[1,"x"]},` + l[1:]
	}
	lines[0] = strings.Replace(lines[0], `"params":{`, `"params":{"future_param":7,`, 1)
	lines[1] = strings.Replace(lines[1], `"QT1":{`, `"QT1":{"future_count":3,`, 1)
	lines[5] = strings.Replace(lines[5], `"total":{`, `"total":{"future_total":0.5,`, 1)
	got, err := Read(strings.NewReader(strings.Join(lines, "")))
	if err != nil {
		t.Fatalf("a file with unknown fields does not read: %v", err)
	}
	if len(got.Steps) != 1 || len(got.Queries) != 1 || len(got.Intervals) != 2 || got.Summary == nil {
		t.Fatalf("read %d intervals, %d steps, %d queries", len(got.Intervals), len(got.Steps), len(got.Queries))
	}
	got.templates, want.templates = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the unknown fields changed what was read:\n%+v\nwant\n%+v", got, want)
	}
}

// TestReadVersions: Read takes every version up to its own and refuses a
// newer one, naming both.
func TestReadVersions(t *testing.T) {
	if Format != formatPrefix+strconv.Itoa(Version) {
		t.Fatalf("Format %q is not version %d", Format, Version)
	}
	header := everyKind(t)[0]
	newer := strings.Replace(header, Format, "gqlbench-run/2", 1)
	_, err := Read(strings.NewReader(newer))
	if want := "line 1: written by a newer gqlbench: gqlbench-run/2; this build reads gqlbench-run/1"; err == nil || err.Error() != want {
		t.Errorf("a newer file: %v, want %q", err, want)
	}
	for _, bad := range []string{"gqlbench-run/0", "gqlbench-run/1.5", "gqlbench-run/", "gqlbench-run/x"} {
		_, err := Read(strings.NewReader(strings.Replace(header, Format, bad, 1)))
		if err == nil || !strings.Contains(err.Error(), "not a gqlbench run file") {
			t.Errorf("format %q: %v", bad, err)
		}
	}
}

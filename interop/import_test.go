package interop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The imports on the tools' recorded results (testdata, written by the
// round-trip tests with -update): they run without the tools, and every
// bad input is a clear error.

func readFixture(t *testing.T, name string) string {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestImportRecordedResults(t *testing.T) {
	jtl, _, err := ReadJTL("jmeter-results.jtl", strings.NewReader(readFixture(t, "jmeter-results.jtl")), false)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, "jmeter", jtl, 4)
	k6, err := ReadK6CSV("k6-results.csv", strings.NewReader(readFixture(t, "k6-results.csv")), false)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, "k6", k6, 4)
	lc, err := ReadLocust("locust-samples.csv", strings.NewReader(readFixture(t, "locust-samples.csv")), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckLocustStats("locust_stats.csv", strings.NewReader(readFixture(t, "locust_stats.csv")), lc); err != nil {
		t.Fatal(err)
	}
	checkRun(t, "locust", lc, 0)
	if err := CheckLocustStats("locust_stats.csv", strings.NewReader(readFixture(t, "locust_stats.csv")), lc[1:]); err == nil || !strings.Contains(err.Error(), "do not add up") {
		t.Errorf("a lost sample must show against Locust's statistics: %v", err)
	}
}

func TestImportBadInput(t *testing.T) {
	jtl := readFixture(t, "jmeter-results.jtl")
	lines := strings.SplitAfter(jtl, "\n")
	cut := strings.Join(lines[:len(lines)-2], "") + lines[len(lines)-2][:40] // the last row cut short
	for _, c := range []struct{ name, in, want string }{
		{"unknown column", strings.Replace(jtl, "Connect", "Connect,myVar", 1), `unknown JTL column "myVar"`},
		{"XML", `<?xml version="1.0"?><testResults version="1.2">`, "XML JTL"},
		{"no header", strings.Join(lines[1:], ""), "print_field_names"},
		{"truncated", cut, "cut short"},
		{"not milliseconds", strings.Replace(jtl, "\n1", "\n2026/11/27 1", 1), "timestamp_format=ms"},
		{"empty", "", "empty"},
	} {
		_, _, err := ReadJTL("r.jtl", strings.NewReader(c.in), false)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("JTL %s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	s, _, err := ReadJTL("r.jtl", strings.NewReader(cut), true)
	if err != nil || len(s) != len(lines)-3 {
		t.Errorf("--partial: %d samples, %v; want the %d complete rows", len(s), err, len(lines)-3)
	}

	k6 := readFixture(t, "k6-results.csv")
	kl := strings.SplitAfter(k6, "\n")
	for _, c := range []struct{ name, in, want string }{
		{"truncated", strings.Join(kl[:len(kl)-2], "") + kl[len(kl)-2][:20], "cut short"},
		{"not gqlbench's", "metric_name,timestamp,metric_value,extra_tags\nhttp_reqs,1795760793,1,\n", "no gqlbench_req samples"},
		{"not k6's", "a,b\n1,2\n", "k6's CSV output"},
	} {
		if _, err := ReadK6CSV("r.csv", strings.NewReader(c.in), false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("k6 %s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if _, err := ReadLocust("lc_stats.csv", strings.NewReader(readFixture(t, "locust_stats.csv")), false); err == nil || !strings.Contains(err.Error(), "--gqlbench-samples") {
		t.Errorf("Locust's statistics given as samples: %v", err)
	}
	if _, err := RunFile(Source{Tool: "k6"}, nil); err == nil {
		t.Error("no samples must be an error")
	}
}

package workload

import (
	"strings"
	"testing"
)

// TestRemoteTemplates: the remote-field group loads apart from LinGBM's 16,
// each template asks the remote fields its header names, and the benchmark
// schema itself has no remote field.
func TestRemoteTemplates(t *testing.T) {
	ts := RemoteTemplates()
	if len(ts) != 3 || ts[0].Name != "RF1" || ts[2].Name != "RF3" {
		t.Fatalf("remote templates %v", ts)
	}
	if len(Templates()) != NumTemplates {
		t.Errorf("the LinGBM templates changed: %d", len(Templates()))
	}
	if len(ts[0].Fields) != 1 || len(ts[1].Fields) != 2 {
		t.Errorf("RF1 asks %v, RF2 %v", ts[0].Fields, ts[1].Fields)
	}
	for name, owner := range RemoteFields {
		if Schema().Types[owner].Fields.ForName(name) != nil || SchemaWithWrites().Types[owner].Fields.ForName(name) != nil {
			t.Errorf("%s.%s is in the benchmark schema", owner, name)
		}
		if FullSchema().Types[owner].Fields.ForName(name) == nil {
			t.Errorf("%s.%s is not in the full schema", owner, name)
		}
	}
	e := ts[1].Entry(100)
	if e.ID != "RF2-n100" || e.Label != "RF2" || string(e.Variables) != `{"n":100}` {
		t.Errorf("entry %+v", e)
	}
	if _, err := RemoteTemplateByName("rf3"); err != nil {
		t.Error(err)
	}
	if _, err := RemoteTemplateByName("QT1"); err == nil || !strings.Contains(err.Error(), "RF1, RF2, RF3") {
		t.Errorf("unknown name: %v", err)
	}
	bad := "# Description: x\n# Remote fields: University.ranking\nquery RFX($n: Int!) { graduateStudents(limit: $n) { id advisor { hIndex } } }"
	if _, err := parseRemoteTemplate("RFX", bad); err == nil {
		t.Error("a template asking other remote fields than its header says is accepted")
	}
}

package subscribe

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldenNormalize: what differs between runs by design — the marked
// variables, the run's tag, the values the mutation's response returned —
// is replaced by its template; anything else is kept, so a changed value
// shows. A member's name equal to a response value is not replaced.
func TestGoldenNormalize(t *testing.T) {
	o, err := NewOps(Ops{SubscriptionDoc: "subscription S { added { id text stars } }", MutationDoc: "mutation M($t: String) { add(text: $t) { id } }",
		MutationVars: map[string]any{"t": "review {{run}} #{{i}}", "book": "3"}, Tag: "run42"})
	if err != nil {
		t.Fatal(err)
	}
	payload := `{"added":{"id":"r17","text":"review run42 #5","stars":4,"r17":"x","note":"seen in run42"}}`
	got := o.normalize(5, payload, []byte(`{"data":{"add":{"id":"r17"}}}`))
	want := `{"added":{"id":"{{response}}","text":"review {{run}} #{{i}}","stars":4,"r17":"x","note":"seen in {{run}}"}}`
	if got != want {
		t.Errorf("normalize:\n got %s\nwant %s", got, want)
	}
	// Another run, another event, another id: the same golden payload.
	o2, _ := NewOps(Ops{SubscriptionDoc: o.SubscriptionDoc, MutationDoc: o.MutationDoc, MutationVars: o.MutationVars, Tag: "run7"})
	if got2 := o2.normalize(9, `{"added":{"id":"r3","text":"review run7 #9","stars":4,"r17":"x","note":"seen in run7"}}`,
		[]byte(`{"data":{"add":{"id":"r3"}}}`)); got2 != want {
		t.Errorf("another run:\n got %s\nwant %s", got2, want)
	}
	// A changed value stays visible.
	if got3 := o.normalize(5, strings.Replace(payload, `"stars":4`, `"stars":5`, 1), nil); strings.Contains(got3, `"stars":4`) {
		t.Errorf("a changed value was normalised away: %s", got3)
	}
}

// TestGoldenFile: a golden stream written is read back the same; a file of
// another format, without events, or of other operations is refused.
func TestGoldenFile(t *testing.T) {
	o, _ := NewOps(Ops{SubscriptionDoc: "subscription S { a }", MutationDoc: "mutation M($t: String) { b(t: $t) }",
		MutationVars: map[string]any{"t": "{{run}} {{i}}"}, Tag: "run1"})
	g := o.golden()
	g.Events = []json.RawMessage{json.RawMessage(`{"a":"{{run}} {{i}}"}`), json.RawMessage(`{"a":2}`)}
	dir := t.TempDir()
	path := filepath.Join(dir, "g.json")
	var b bytes.Buffer
	if err := g.Write(&b); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b.Bytes(), 0o644)
	back, err := ReadGolden(path)
	if err != nil || len(back.Events) != 2 || string(back.Events[1]) != `{"a":2}` {
		t.Fatalf("read back: %v %+v", err, back)
	}
	if err := back.Matches(o); err != nil {
		t.Errorf("matches its own operations: %v", err)
	}
	other, _ := NewOps(Ops{SubscriptionDoc: "subscription S { a }", MutationDoc: "mutation M($t: String) { b(t: $t) }",
		MutationVars: map[string]any{"t": "{{run}} {{i}} x"}, Tag: "run1"})
	if err := back.Matches(other); err == nil || !strings.Contains(err.Error(), "mutation variables") {
		t.Errorf("other variables: %v", err)
	}
	for name, text := range map[string]string{"format": `{"format":"x","events":[1]}`, "without events": `{"format":"` + GoldenFormat + `","events":[]}`, "not JSON": "{"} {
		p := filepath.Join(dir, "bad.json")
		os.WriteFile(p, []byte(text), 0o644)
		if _, err := ReadGolden(p); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
	if err := Check(Config{URL: "http://127.0.0.1:1/graphql", Subscribers: 1, PerSubscriber: 1, PublishRate: 1, Duration: 1, RecordGolden: true}); err == nil {
		t.Error("a golden stream of the built-in workload was accepted")
	}
}

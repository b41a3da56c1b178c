package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/gqlbench/gqlbench/exitcode"
)

// TestRESTControlRaisesEvents: with serve VARIANT --rest-control, a create
// through the REST control raises the GraphQL subscriptions' event as the
// GraphQL mutation does: filtered by its argument, with the row the POST
// created.
func TestRESTControlRaisesEvents(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "s.db")
	if code, _, stderr := run("gen", "--sf", "1", "--db", db, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	url, _, cancel, _ := startServe(t, "serve", "naive", "--addr", "127.0.0.1:0", "--db", db, "--rest-control")
	defer cancel()
	base := strings.TrimSuffix(url, "/graphql")

	ctx, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http"), &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	send := func(m map[string]any) {
		b, _ := json.Marshal(m)
		if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	type msg struct {
		ID, Type string
		Payload  json.RawMessage
	}
	// msgs carries every message but pings, read by one goroutine
	msgs := make(chan msg, 64)
	go func() {
		defer close(msgs)
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var m msg
			json.Unmarshal(b, &m)
			if m.Type == "ping" {
				send(map[string]any{"type": "pong"})
				continue
			}
			msgs <- m
		}
	}()
	read := func() msg {
		m, ok := <-msgs
		if !ok {
			t.Fatalf("the connection ended: %v", ctx.Err())
		}
		return m
	}
	send(map[string]any{"type": "connection_init"})
	if m := read(); m.Type != "connection_ack" {
		t.Fatalf("got %+v", m)
	}
	// the lecturer's publications (not the professor's), and every student
	send(map[string]any{"id": "p", "type": "subscribe", "payload": map[string]any{"query": `subscription { publicationAdded(mainAuthor: "1000000000000001") { seq publication { id title } } }`}})
	send(map[string]any{"id": "s", "type": "subscribe", "payload": map[string]any{"query": `subscription { undergraduateStudentAdded { seq undergraduateStudent { id emailAddress } } }`}})

	post := func(path, body string) string {
		resp, err := http.Post(base+"/rest/"+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct{ ID string }
		json.NewDecoder(resp.Body).Decode(&out)
		if resp.StatusCode != http.StatusCreated || out.ID == "" {
			t.Fatalf("POST %s: %s, id %q", path, resp.Status, out.ID)
		}
		return out.ID
	}
	// A subscribe has no acknowledgement: create until the first event
	// comes (the professor's are filtered out, so post the lecturer's).
	var first msg
	for first.Type == "" {
		post("publications", `{"title":"warm-up","abstract":"a","mainAuthor":"1000000000000001"}`)
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatalf("no event from the REST control's creates: %v", ctx.Err())
			}
			first = m
		case <-time.After(100 * time.Millisecond):
		}
	}
	if first.ID != "p" || first.Type != "next" {
		t.Fatalf("first event %+v", first)
	}
	// drain the warm-up's further events: one per POST may still come
	post("publications", `{"title":"the professor's: filtered out","abstract":"a","mainAuthor":"1000000000000000"}`)
	pid := post("publications", `{"title":"REST control","abstract":"a","mainAuthor":"1000000000000001"}`)
	sid := post("undergraduateStudents", `{"telephone":"1","emailAddress":"rest@example.org","age":20,"memberOf":"1000000000000000"}`)
	var sawPub, sawStudent bool
	for !sawPub || !sawStudent {
		m := read()
		if m.Type != "next" {
			t.Fatalf("got %+v", m)
		}
		p := string(m.Payload)
		switch {
		case m.ID == "p" && strings.Contains(p, "filtered out"):
			t.Fatalf("a publication of another main author reached a filtered subscription: %s", p)
		case m.ID == "p" && strings.Contains(p, `"title":"REST control"`):
			if !strings.Contains(p, `"id":"`+pid+`"`) {
				t.Errorf("publication event %s, want id %s", p, pid)
			}
			sawPub = true
		case m.ID == "s":
			if !strings.Contains(p, `"id":"`+sid+`"`) || !strings.Contains(p, `"emailAddress":"rest@example.org"`) {
				t.Errorf("student event %s, want id %s", p, sid)
			}
			sawStudent = true
		}
	}
}

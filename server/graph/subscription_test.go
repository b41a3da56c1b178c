package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/source"
)

// oneSource gives every request the same fake (the tests' factory that
// records the last source is not safe for subscriptions' concurrent use).
type oneSource struct{ f *fake }

func (o oneSource) ForRequest(context.Context) source.Source { return o.f }

// wsClient is a graphql-transport-ws client for the tests.
type wsClient struct {
	t *testing.T
	c *websocket.Conn
}

type wsMsg struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

func startStreams(t *testing.T) (*Executor, string) {
	t.Helper()
	x := NewExecutor(oneSource{&fake{}}, server.Config{}).(*Executor)
	ts := httptest.NewServer(server.Handler(x, server.HTTPOptions{}))
	t.Cleanup(ts.Close)
	return x, "ws" + strings.TrimPrefix(ts.URL, "http") + "/graphql"
}

func dial(t *testing.T, url string, init bool) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(1 << 24)
	t.Cleanup(func() { c.CloseNow() })
	w := &wsClient{t, c}
	if init {
		w.send(wsMsg{Type: "connection_init"})
		if m := w.read(); m.Type != "connection_ack" {
			t.Fatalf("got %+v, want connection_ack", m)
		}
	}
	return w
}

func (w *wsClient) send(m wsMsg) {
	w.t.Helper()
	b, _ := json.Marshal(m)
	if err := w.c.Write(context.Background(), websocket.MessageText, b); err != nil {
		w.t.Fatal(err)
	}
}

func (w *wsClient) subscribe(id, query string) {
	w.t.Helper()
	p, _ := json.Marshal(map[string]any{"query": query})
	w.send(wsMsg{ID: id, Type: "subscribe", Payload: p})
}

// read returns the next message but pings, or fails the test after 10 s.
func (w *wsClient) read() wsMsg {
	w.t.Helper()
	m, err := w.next(10 * time.Second)
	if err != nil {
		w.t.Fatal(err)
	}
	return m
}

func (w *wsClient) next(d time.Duration) (wsMsg, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for {
		_, b, err := w.c.Read(ctx)
		if err != nil {
			return wsMsg{}, err
		}
		var m wsMsg
		if err := json.Unmarshal(b, &m); err != nil {
			return wsMsg{}, err
		}
		switch m.Type {
		case "ping":
			w.send(wsMsg{Type: "pong"})
		case "pong":
		default:
			return m, nil
		}
	}
}

// until reads until the message typ of operation id; gqlgen ends some
// errors with a complete, which graphql-transport-ws does not ask for.
func (w *wsClient) until(id, typ string) {
	w.t.Helper()
	for {
		if m := w.read(); m.ID == id && m.Type == typ {
			return
		}
	}
}

// waitSubscribed waits until x has n live subscriptions: a subscribe
// message has no acknowledgement.
func waitSubscribed(t *testing.T, x *Executor, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for x.streams.live() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d subscriptions live, want %d", x.streams.live(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSubscriptionFanOutAndFilter: every subscriber gets every event its
// argument selects, in seq order, with the commit time and the payload the
// write implies; filtered subscriptions get only their main author's.
func TestSubscriptionFanOutAndFilter(t *testing.T) {
	x, url := startStreams(t)
	a, b := dial(t, url, true), dial(t, url, true)
	a.subscribe("all", `subscription { publicationAdded { seq committedAt publication { id title authors { id } } } }`)
	a.subscribe("two", `subscription { publicationAdded(mainAuthor: "2") { seq publication { id } } }`)
	b.subscribe("all", `subscription { publicationAdded { seq publication { id } } }`)
	waitSubscribed(t, x, 3)
	before := time.Now()
	for i := int64(1); i <= 4; i++ {
		publishPublication(context.WithValue(context.Background(), feedsKey{}, x.feeds),
			&source.Publication{Nr: 100 + i, Title: fmt.Sprint("t", i), MainAuthor: 1 + i%2})
	}
	type next struct {
		Data struct {
			PublicationAdded struct {
				Seq         int64
				CommittedAt string
				Publication struct {
					ID, Title string
					Authors   []struct{ ID string }
				}
			}
		}
	}
	got := map[string][]int64{}
	for want := 0; want < 4+2; want++ {
		m := a.read()
		var n next
		if m.Type != "next" || json.Unmarshal(m.Payload, &n) != nil {
			t.Fatalf("got %s %s", m.Type, m.Payload)
		}
		e := n.Data.PublicationAdded
		got[m.ID] = append(got[m.ID], e.Seq)
		if m.ID == "all" {
			at, err := time.Parse(time.RFC3339Nano, e.CommittedAt)
			if err != nil || at.Before(before.Add(-time.Second)) {
				t.Errorf("committedAt %q: %v", e.CommittedAt, err)
			}
			if e.Publication.ID != fmt.Sprint(100+e.Seq) || e.Publication.Title != fmt.Sprint("t", e.Seq) {
				t.Errorf("event %d: publication %+v", e.Seq, e.Publication)
			}
			if e.Seq%2 == 0 && (len(e.Publication.Authors) == 0 || e.Publication.Authors[0].ID != "1") {
				t.Errorf("event %d: authors %+v, want the main author 1", e.Seq, e.Publication.Authors)
			}
		}
	}
	if fmt.Sprint(got["all"]) != "[1 2 3 4]" || fmt.Sprint(got["two"]) != "[1 3]" {
		t.Errorf("seqs delivered: %v; want all [1 2 3 4], two [1 3]", got)
	}
	for i := 0; i < 4; i++ {
		if m := b.read(); m.Type != "next" {
			t.Fatalf("b got %+v", m)
		}
	}
}

// TestSubscriptionBadInput: an invalid document, a query over the stream,
// an unknown message, too many subscriptions on one connection and a
// client that never sends connection_init each get a clear answer, and the
// server goes on.
func TestSubscriptionBadInput(t *testing.T) {
	x, url := startStreams(t)
	c := dial(t, url, true)
	c.subscribe("bad", `subscription { publicationAdded { nope } }`)
	if m := c.read(); m.ID != "bad" || !strings.Contains(string(m.Payload), "nope") {
		t.Errorf("invalid document: got %s %s", m.Type, m.Payload)
	}
	c.until("bad", "complete")
	c.subscribe("q", `{ publication(nr: "1") { id } }`)
	if m := c.read(); m.ID != "q" || !strings.Contains(string(m.Payload), "served over HTTP POST") {
		t.Errorf("query over the stream: got %s %s", m.Type, m.Payload)
	}
	c.until("q", "complete")

	// 10,000 subscriptions on one connection: the limit's worth run, the
	// rest are refused one by one.
	const asked = 10000
	for i := 0; i < asked; i++ {
		c.subscribe(fmt.Sprint(i), `subscription { publicationAdded { seq } }`)
	}
	refused, completed := 0, 0
	for refused < asked-MaxSubscriptionsPerConnection || completed < refused {
		switch m := c.read(); {
		case m.Type == "complete":
			completed++
		case m.Type == "next" && strings.Contains(string(m.Payload), "too many subscriptions on one connection"):
			refused++
		default:
			t.Fatalf("got %s %s, want the limit's error", m.Type, m.Payload)
		}
	}
	waitSubscribed(t, x, MaxSubscriptionsPerConnection)

	u := dial(t, url, true)
	u.send(wsMsg{Type: "no-such-message"})
	// gqlgen closes the connection (graphql-transport-ws asks for 4400; it
	// sends 1000 "terminated"), possibly after a connection_error.
	for {
		m, err := u.next(10 * time.Second)
		if err != nil {
			if websocket.CloseStatus(err) == -1 {
				t.Errorf("unknown message: %v, want the connection closed", err)
			}
			break
		}
		if m.Type != "connection_error" {
			t.Errorf("unknown message: got %s %s", m.Type, m.Payload)
		}
	}

	InitTimeout = 100 * time.Millisecond
	defer func() { InitTimeout = 5 * time.Second }()
	x2, url2 := startStreams(t)
	_ = x2
	silent := dial(t, url2, false)
	_, err := silent.next(10 * time.Second)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || !strings.Contains(ce.Reason, "initialisation timeout") {
		t.Errorf("a client that never sends connection_init: %v, want closed for the init timeout", err)
	}

	// The first connection still works.
	publishPublication(context.WithValue(context.Background(), feedsKey{}, x.feeds), &source.Publication{Nr: 7, MainAuthor: 1})
	if m := c.read(); m.Type != "next" {
		t.Errorf("after the bad input: got %s %s", m.Type, m.Payload)
	}
}

// TestSlowSubscriberDoesNotStall: a connection that never reads is ended
// once its buffer is full, while a reading one gets every event.
func TestSlowSubscriberDoesNotStall(t *testing.T) {
	x, url := startStreams(t)
	slow, fast := dial(t, url, true), dial(t, url, true)
	slow.subscribe("s", `subscription { publicationAdded { publication { title } } }`)
	fast.subscribe("f", `subscription { publicationAdded { seq } }`)
	waitSubscribed(t, x, 2)
	big := strings.Repeat("x", 64<<10)
	const n = 2000 // 128 MB for the slow one: more than its socket buffers hold
	ctx := context.WithValue(context.Background(), feedsKey{}, x.feeds)
	got := make(chan int, n)
	go func() {
		defer close(got)
		for i := 1; i <= n; i++ {
			m, err := fast.next(30 * time.Second)
			if err != nil || m.Type != "next" {
				return
			}
			got <- i
		}
	}()
	// In steps of 100 events, each sent once the reading subscriber has the
	// last: the publisher does not outrun it, only the slow one falls behind.
	last := 0
	for i := 1; i <= n; i++ {
		publishPublication(ctx, &source.Publication{Nr: int64(i), Title: big, MainAuthor: 1})
		if i%100 == 0 {
			for last < i {
				v, ok := <-got
				if !ok {
					t.Fatalf("the reading subscriber stopped after %d of %d events", last, n)
				}
				last = v
			}
		}
	}
	// The slow one ended (with dedup, its group's leader ends after it).
	deadline := time.Now().Add(10 * time.Second)
	for x.streams.live() != 1 || x.feeds.publications.Len() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d live subscriptions (%d of the events), want 1: the slow one ended", x.streams.live(), x.feeds.publications.Len())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSubscriptionOverSSE: GraphQL over Server-Sent Events (distinct
// connections mode) delivers the events as "next" events.
func TestSubscriptionOverSSE(t *testing.T) {
	x, url := startStreams(t)
	url = "http" + strings.TrimPrefix(url, "ws")
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"query":"subscription { publicationAdded { seq publication { id } } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d, %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	waitSubscribed(t, x, 1)
	publishPublication(context.WithValue(context.Background(), feedsKey{}, x.feeds), &source.Publication{Nr: 42, MainAuthor: 1})
	buf := make([]byte, 4096)
	got := ""
	for !strings.Contains(got, "\n\n") || !strings.Contains(got, "event: next") {
		n, err := resp.Body.Read(buf)
		if err != nil {
			t.Fatalf("read %q: %v", got, err)
		}
		got += string(buf[:n])
	}
	if !strings.Contains(got, `data: {"data":{"publicationAdded":{"seq":1,"publication":{"id":"42"}}}}`) {
		t.Errorf("stream %q", got)
	}
}

// TestNoStreamsOnOtherExecutors: a variant without subscriptions answers a
// websocket upgrade with 501 and a message.
func TestNoStreamsOnOtherExecutors(t *testing.T) {
	ts := httptest.NewServer(server.Handler(plain{}, server.HTTPOptions{}))
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/graphql", nil)
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Connection", "Upgrade")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("status %d, want 501", resp.StatusCode)
	}
}

type plain struct{}

func (plain) Execute(context.Context, *server.Request) *server.Response { return &server.Response{} }

package subscribe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// faultServer speaks the built-in workload's protocol (createPublication
// over HTTP, publicationAdded over graphql-transport-ws) and breaks its
// deliveries on purpose: on the first connection's first subscription, the
// n-th event it would deliver is dropped, sent twice, swapped with the
// next, or altered; and a connection may be hung up after some events.
type faultServer struct {
	dropAt, dupAt, swapAt, wrongAt int // 1-based delivery numbers on the victim; 0: never
	hangUpAt                       int // close the victim's connection after this many deliveries

	mu    sync.Mutex
	seq   int64
	nr    int64
	conns []*fconn
}

type fconn struct {
	n    int
	ws   *websocket.Conn
	out  chan message // the writer's queue: a slow client does not block the publisher
	subs map[string]fsub
	sent map[string]int
	held map[string]message // a swapped event, sent after the next one of its subscription
	gone atomic.Bool
}

type fsub struct{ author string }

func (f *faultServer) start() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			f.serveWS(w, r)
			return
		}
		if strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			f.serveSSE(w, r)
			return
		}
		var req struct {
			Variables struct{ T, A, M string }
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		f.mu.Lock()
		f.nr++
		id := f.nr
		f.publish(id, req.Variables.T, req.Variables.A, req.Variables.M)
		f.mu.Unlock()
		fmt.Fprintf(w, `{"data":{"createPublication":{"id":"%d"}}}`, id)
	}))
}

// publish sends the event to every matching subscription; f.mu is held.
func (f *faultServer) publish(id int64, title, abstract, author string) {
	f.seq++
	for _, c := range f.conns {
		if c.gone.Load() {
			continue
		}
		for sid, s := range c.subs {
			if c.gone.Load() {
				break
			}
			if s.author != "" && s.author != author {
				continue
			}
			c.sent[sid]++
			n := c.sent[sid]
			victim := c.n == 0 && sid == "0"
			abs := abstract
			if victim && n == f.wrongAt {
				abs += " (altered)"
			}
			p, _ := json.Marshal(map[string]any{"data": map[string]any{"publicationAdded": map[string]any{
				"seq": f.seq, "committedAt": time.Now().UTC().Format(time.RFC3339Nano),
				"publication": map[string]any{"id": strconv.FormatInt(id, 10), "title": title, "abstract": abs}}}})
			m := message{ID: sid, Type: "next", Payload: p}
			switch {
			case victim && n == f.dropAt:
			case victim && n == f.swapAt:
				c.held[sid] = m
			default:
				c.out <- m
				if victim && n == f.dupAt {
					c.out <- m
				}
				if h, ok := c.held[sid]; ok {
					c.out <- h
					delete(c.held, sid)
				}
			}
			if c.n == 0 && sid == "0" && f.hangUpAt > 0 && n == f.hangUpAt {
				c.gone.Store(true)
				close(c.out)
			}
		}
	}
}

func (f *faultServer) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ctx := r.Context()
	c := &fconn{ws: ws, out: make(chan message, 4096), subs: map[string]fsub{}, sent: map[string]int{}, held: map[string]message{}}
	go func() { // the writer
		for m := range c.out {
			b, _ := json.Marshal(m)
			if ws.Write(ctx, websocket.MessageText, b) != nil {
				return
			}
		}
		ws.Close(websocket.StatusGoingAway, "hung up on purpose")
	}()
	f.mu.Lock()
	c.n = len(f.conns)
	f.conns = append(f.conns, c)
	f.mu.Unlock()
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			f.mu.Lock()
			if !c.gone.Swap(true) {
				close(c.out)
			}
			f.mu.Unlock()
			return
		}
		var m message
		json.Unmarshal(b, &m)
		f.mu.Lock()
		switch m.Type {
		case "connection_init":
			c.out <- message{Type: "connection_ack"}
		case "subscribe":
			var p struct{ Variables struct{ Author string } }
			json.Unmarshal(m.Payload, &p)
			c.subs[m.ID] = fsub{p.Variables.Author}
		case "ping":
			c.out <- message{Type: "pong"}
		}
		f.mu.Unlock()
	}
}

// serveSSE serves one subscription over GraphQL over SSE (distinct
// connections mode): its events as "next" events, as serveWS's.
func (f *faultServer) serveSSE(w http.ResponseWriter, r *http.Request) {
	var p struct{ Variables struct{ Author string } }
	json.NewDecoder(r.Body).Decode(&p)
	c := &fconn{out: make(chan message, 4096), subs: map[string]fsub{"0": {p.Variables.Author}}, sent: map[string]int{}, held: map[string]message{}}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ":\n\n")
	w.(http.Flusher).Flush()
	f.mu.Lock()
	c.n = len(f.conns)
	f.conns = append(f.conns, c)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		if !c.gone.Swap(true) {
			close(c.out)
		}
		f.mu.Unlock()
	}()
	for {
		select {
		case m, ok := <-c.out:
			if !ok {
				return // hung up on purpose
			}
			fmt.Fprintf(w, "event: next\ndata: %s\n\n", m.Payload)
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
			return
		}
	}
}

// run runs the engine against f with small settings.
func (f *faultServer) run(cfg Config) (*Result, error) {
	ts := f.start()
	defer ts.Close()
	cfg.URL = ts.URL + "/graphql"
	if cfg.Subscribers == 0 {
		cfg.Subscribers, cfg.PerSubscriber = 3, 2
	}
	cfg.PublishRate, cfg.Duration, cfg.Events = 200, time.Minute, 60
	cfg.Settle = time.Second
	cfg.Workload = Publications{Tag: "t"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return Run(ctx, cfg)
}

func joinWhy(r *Result) string { _, why := r.Valid(); return strings.Join(why, "; ") }

package subscribe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// wsURL turns an http(s) endpoint into its ws(s) twin.
func wsURL(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", fmt.Errorf("--url %q: %v", endpoint, err)
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	case "ws", "wss":
	default:
		return "", fmt.Errorf("--url %q: want http://, https://, ws:// or wss://", endpoint)
	}
	return u.String(), nil
}

// message is a graphql-transport-ws message.
type message struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// sub is one subscription's state, touched only by its connection's goroutine
// while the run lasts.
type sub struct {
	selects  func(int64) bool
	active   bool
	ended    bool
	got      []uint64 // bit i: event i received
	maxSeq   int64
	maxIndex int64

	delivered, dups, reorder, wrong, unexpected int64
}

// seen marks event i and says whether it was marked already.
func (s *sub) seen(i int64) bool {
	w, bit := int(i>>6), uint64(1)<<(i&63)
	if w >= len(s.got) {
		s.got = append(s.got, make([]uint64, w+1-len(s.got)+len(s.got)/4)...)
	}
	dup := s.got[w]&bit != 0
	s.got[w] |= bit
	return dup
}

func (s *sub) has(i int64) bool {
	w := int(i >> 6)
	return w < len(s.got) && s.got[w]&(uint64(1)<<(i&63)) != 0
}

// conn is one subscriber connection.
type conn struct {
	r       *run
	n       int
	stalled bool
	subs    []sub
	ids     []string // the subscriptions' message ids
}

// buffers hold messages while they are read; shared by all connections.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooled = 64 << 10

// serve keeps the connection until the run ends: dial, init, subscribe,
// read; redial after a drop when the run reconnects.
func (c *conn) serve(ctx context.Context) {
	if c.r.cfg.Protocol == SSE {
		c.serveSSE(ctx)
		return
	}
	for attempt := 0; ; attempt++ {
		ws, err := c.open(ctx)
		if err != nil {
			if ctx.Err() == nil {
				if attempt == 0 {
					c.r.dialErrors.Add(1)
				}
				c.r.fail(err)
			}
			if attempt == 0 {
				c.r.opened.Done()
			}
			return
		}
		if attempt == 0 {
			c.r.opened.Done()
		} else {
			c.r.reconnects.Add(1)
		}
		if c.stalled {
			<-ctx.Done() // never read: the server's buffers fill up
			ws.CloseNow()
			return
		}
		err = c.read(ctx, ws)
		ws.CloseNow()
		if ctx.Err() != nil {
			return
		}
		c.r.drops.Add(1)
		c.r.fail(fmt.Errorf("subscriber %d: connection dropped: %v", c.n, err))
		if !c.r.cfg.Reconnect {
			return
		}
	}
}

// open dials, initialises and subscribes.
func (c *conn) open(ctx context.Context) (*websocket.Conn, error) {
	select {
	case c.r.dialers <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.r.dialers }()
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(dctx, c.r.cfg.WebsocketURL, &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return nil, fmt.Errorf("subscriber %d: cannot connect to %s: %v", c.n, c.r.cfg.WebsocketURL, err)
	}
	if ws.Subprotocol() != "graphql-transport-ws" {
		ws.CloseNow()
		return nil, fmt.Errorf("subscriber %d: the server does not speak graphql-transport-ws (it chose %q)", c.n, ws.Subprotocol())
	}
	ws.SetReadLimit(1 << 20)
	if err := c.write(dctx, ws, message{Type: "connection_init"}); err != nil {
		ws.CloseNow()
		return nil, err
	}
	for {
		m, err := c.next(dctx, ws)
		if err != nil {
			ws.CloseNow()
			return nil, fmt.Errorf("subscriber %d: no connection_ack: %v", c.n, err)
		}
		if m.Type == "connection_ack" {
			break
		}
		if m.Type != "ping" && m.Type != "pong" && m.Type != "ka" {
			ws.CloseNow()
			return nil, fmt.Errorf("subscriber %d: got %q before connection_ack: %.200s", c.n, m.Type, m.Payload)
		}
	}
	for k := range c.subs {
		if err := c.write(dctx, ws, message{ID: c.ids[k], Type: "subscribe", Payload: c.subscribeBody(k)}); err != nil {
			ws.CloseNow()
			return nil, err
		}
	}
	return ws, nil
}

// subscribeBody is subscription k's GraphQL request: {query, variables}.
func (c *conn) subscribeBody(k int) []byte {
	q, vars, _ := c.r.cfg.Workload.Subscription(c.n, k)
	p, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
	return p
}

func (c *conn) write(ctx context.Context, ws *websocket.Conn, m message) error {
	b, _ := json.Marshal(m)
	if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("subscriber %d: cannot send %s: %v", c.n, m.Type, err)
	}
	return nil
}

// next reads one message through a pooled buffer.
func (c *conn) next(ctx context.Context, ws *websocket.Conn) (message, error) {
	_, rd, err := ws.Reader(ctx)
	if err != nil {
		return message{}, err
	}
	buf := buffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooled {
			buf.Reset()
			buffers.Put(buf)
		}
	}()
	if _, err := io.Copy(buf, rd); err != nil {
		return message{}, err
	}
	var m message
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		return message{}, fmt.Errorf("malformed message: %v", err)
	}
	return m, nil
}

// read handles messages until the connection or the run ends.
func (c *conn) read(ctx context.Context, ws *websocket.Conn) error {
	for {
		m, err := c.next(ctx, ws)
		if err != nil {
			return err
		}
		switch m.Type {
		case "ping":
			if err := c.write(ctx, ws, message{Type: "pong"}); err != nil {
				return err
			}
		case "pong", "ka":
		case "next":
			c.event(m)
		case "error", "complete":
			if k := c.index(m.ID); k >= 0 && !c.subs[k].ended {
				c.subs[k].ended = true
				c.r.ended.Add(1)
				if m.Type == "error" {
					c.r.fail(fmt.Errorf("subscriber %d: subscription %s failed: %.300s", c.n, m.ID, m.Payload))
				} else {
					c.r.fail(fmt.Errorf("subscriber %d: the server completed subscription %s", c.n, m.ID))
				}
			}
		default:
			return fmt.Errorf("unknown message type %q", m.Type)
		}
	}
}

func (c *conn) index(id string) int {
	k, err := strconv.Atoi(id)
	if err != nil || k < 0 || k >= len(c.subs) || c.ids[k] != id {
		return -1
	}
	return k
}

// event checks one delivered event and records it.
func (c *conn) event(m message) {
	now := time.Now()
	k := c.index(m.ID)
	if k < 0 {
		c.r.fail(fmt.Errorf("subscriber %d: an event for unknown subscription %q", c.n, m.ID))
		c.r.strays.Add(1)
		return
	}
	s := &c.subs[k]
	ev, err := c.r.cfg.Workload.Decode(m.Payload)
	if err != nil {
		s.wrong++
		c.r.fail(fmt.Errorf("subscriber %d: %v", c.n, err))
		return
	}
	rec := c.r.record(ev.Index)
	if rec == nil || (s.selects != nil && !s.selects(ev.Index)) {
		s.unexpected++
		c.r.fail(fmt.Errorf("subscriber %d: event %d was not asked for", c.n, ev.Index))
		return
	}
	if !s.active {
		s.active = true
		c.r.activated()
	}
	start := c.r.start.Load()
	if start < 0 || ev.Index < start {
		return // warm-up
	}
	if s.seen(ev.Index) {
		s.dups++
		return
	}
	s.delivered++
	c.r.delivered.Add(1)
	if ev.Seq != 0 {
		if ev.Seq < s.maxSeq {
			s.reorder++
		}
		s.maxSeq = max(s.maxSeq, ev.Seq)
	} else {
		if ev.Index < s.maxIndex {
			s.reorder++
		}
		s.maxIndex = max(s.maxIndex, ev.Index)
	}
	if err := c.r.cfg.Workload.Check(ev.Index, ev); err != nil || !rec.sameID(ev.ID) {
		s.wrong++
		if err == nil {
			err = fmt.Errorf("event %d: id %q, another subscriber or the mutation's response saw %q", ev.Index, ev.ID, rec.idOf())
		}
		c.r.fail(fmt.Errorf("subscriber %d: %v", c.n, err))
	}
	from := ev.Committed
	if from.IsZero() {
		from = time.Unix(0, rec.sent.Load())
		c.r.sendBased.Add(1)
	}
	c.r.latency(c.n, now.Sub(from))
}

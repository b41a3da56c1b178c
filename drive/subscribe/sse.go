package subscribe

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// The protocols a run speaks.
const (
	TransportWS = "graphql-transport-ws"
	SSE         = "graphql-sse" // GraphQL over Server-Sent Events, distinct connections mode
)

// newSSEClient is the HTTP client of the event streams: one connection per
// stream, no timeout (a stream lasts the run), no compression.
func newSSEClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 1,
		ReadBufferSize: 4 << 10, WriteBufferSize: 4 << 10}}
}

// serveSSE is serve over graphql-sse's distinct connections mode: each
// subscription is a POST whose response is its event stream, read by a
// goroutine of its own (one per HTTP connection). A broken stream is a
// drop; streams are not reopened.
func (c *conn) serveSSE(ctx context.Context) {
	bodies := make([]io.ReadCloser, 0, len(c.subs))
	defer func() {
		for _, b := range bodies {
			b.Close()
		}
	}()
	for k := range c.subs {
		b, err := c.openStream(ctx, k)
		if err != nil {
			if ctx.Err() == nil {
				c.r.dialErrors.Add(1)
				c.r.fail(err)
			}
			c.r.opened.Done()
			return
		}
		bodies = append(bodies, b)
	}
	c.r.opened.Done()
	if c.stalled {
		<-ctx.Done()
		return
	}
	var wg sync.WaitGroup
	for k, b := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.readStream(k, b)
			if ctx.Err() == nil && err != nil {
				c.r.drops.Add(1)
				c.r.fail(fmt.Errorf("subscriber %d: stream %d broke: %v", c.n, k, err))
			}
		}()
	}
	wg.Wait()
}

// openStream POSTs subscription k and returns its event stream.
func (c *conn) openStream(ctx context.Context, k int) (io.ReadCloser, error) {
	select {
	case c.r.dialers <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.r.dialers }()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.r.cfg.URL, bytes.NewReader(c.subscribeBody(k)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.r.sse.Do(req)
	if err != nil {
		return nil, fmt.Errorf("subscriber %d: cannot connect to %s: %v", c.n, c.r.cfg.URL, err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		resp.Body.Close()
		return nil, fmt.Errorf("subscriber %d: cannot connect to %s over GraphQL over SSE: HTTP %d, %s: %s", c.n, c.r.cfg.URL, resp.StatusCode, ct, b)
	}
	return resp.Body, nil
}

// readStream reads the events of subscription k until the stream ends:
// nil after a complete event, else why it broke.
func (c *conn) readStream(k int, body io.Reader) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 4<<10), 1<<20)
	var event string
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0: // the end of an event
			switch event {
			case "next":
				c.event(message{ID: c.ids[k], Type: "next", Payload: bytes.Clone(data.Bytes())})
			case "complete":
				if !c.subs[k].ended {
					c.subs[k].ended = true
					c.r.ended.Add(1)
					c.r.fail(fmt.Errorf("subscriber %d: the server completed subscription %d", c.n, k))
				}
				return nil
			}
			event = ""
			data.Reset()
		case line[0] == ':': // a comment: keep-alive
		case bytes.HasPrefix(line, []byte("event:")):
			event = strings.TrimSpace(string(line[len("event:"):]))
		case bytes.HasPrefix(line, []byte("data:")):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.Write(bytes.TrimPrefix(line[len("data:"):], []byte(" ")))
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return io.ErrUnexpectedEOF
}

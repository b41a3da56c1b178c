package remoteapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/trace"
)

// DefaultConns and DefaultTimeout are the client's connection limit and
// per-call timeout when server.Remote leaves them 0.
const (
	DefaultConns   = 64
	DefaultTimeout = 10 * time.Second
)

// maxAnswerBytes bounds an answer the client reads.
const maxAnswerBytes = 64 << 20

// Client calls the remote service. It is safe for concurrent use.
type Client struct {
	base    string
	perCall bool
	timeout time.Duration
	shared  *http.Client // nil with perCall
}

// NewClient returns the client that c configures (c.URL, PerCall, Conns,
// Timeout); an error when c.URL is not an http:// URL.
func NewClient(c server.Remote) (*Client, error) {
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("remote service %q: want http://HOST:PORT", c.URL)
	}
	cl := &Client{base: strings.TrimRight(c.URL, "/"), perCall: c.PerCall, timeout: c.Timeout}
	if cl.timeout <= 0 {
		cl.timeout = DefaultTimeout
	}
	if !c.PerCall {
		conns := c.Conns
		if conns <= 0 {
			conns = DefaultConns
		}
		cl.shared = &http.Client{Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxConnsPerHost:     conns,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	return cl, nil
}

// URL is the service's base URL.
func (c *Client) URL() string { return c.base }

// Close closes the shared client's idle connections.
func (c *Client) Close() {
	if c.shared != nil {
		c.shared.CloseIdleConnections()
	}
}

// Check asks the service's /healthz, with a clear error when it does not
// answer 200.
func (c *Client) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/healthz", nil)
	if err != nil {
		return err
	}
	hc, done := c.client()
	defer done()
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("the remote service at %s does not answer (start it with `gqlbench serve remote-api`): %w", c.base, err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the remote service at %s answers /healthz with %s", c.base, resp.Status)
	}
	return nil
}

// Stats reads the service's call counts (GET /stats).
func (c *Client) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	err := c.do(ctx, http.MethodGet, "/stats", nil, &st)
	return st, err
}

// One asks field f of object nr: one call.
func (c *Client) One(ctx context.Context, f Field, nr int64) (int64, error) {
	var a One
	id := strconv.FormatInt(nr, 10)
	if err := c.do(ctx, http.MethodGet, "/v1/"+f.Path()+"/"+id, nil, &a); err != nil {
		return 0, err
	}
	if a.ID != id {
		return 0, &MalformedError{Reason: fmt.Sprintf("asked for id %s, answered id %q", id, a.ID)}
	}
	return a.Value, nil
}

// Many asks field f of the objects nrs: one call, the values in the order
// of nrs.
func (c *Client) Many(ctx context.Context, f Field, nrs []int64) ([]int64, error) {
	req := manyRequest{IDs: make([]string, len(nrs))}
	for i, nr := range nrs {
		req.IDs[i] = strconv.FormatInt(nr, 10)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	var a manyAnswer
	if err := c.do(ctx, http.MethodPost, "/v1/"+f.Path(), body, &a); err != nil {
		return nil, err
	}
	if len(a.Values) != len(nrs) {
		return nil, &MalformedError{Reason: fmt.Sprintf("asked for %d ids, answered %d values", len(nrs), len(a.Values))}
	}
	out := make([]int64, len(nrs))
	for i, v := range a.Values {
		if v.ID != req.IDs[i] {
			return nil, &MalformedError{Reason: fmt.Sprintf("value %d: asked for id %s, answered id %q", i, req.IDs[i], v.ID)}
		}
		out[i] = v.Value
	}
	return out, nil
}

// MalformedError is an answer that is not what the service's protocol
// says: not JSON, or not the ids asked for.
type MalformedError struct{ Reason string }

func (e *MalformedError) Error() string {
	return "malformed answer from the remote service: " + e.Reason
}

// client is the HTTP client of one call and what releases it.
func (c *Client) client() (*http.Client, func()) {
	if c.shared != nil {
		return c.shared, func() {}
	}
	// A new client, transport and connection for this call alone, as Dgraph
	// made them: the connection is closed when the call ends.
	tr := &http.Transport{DisableKeepAlives: true}
	return &http.Client{Transport: tr}, tr.CloseIdleConnections
}

// do makes one call, bounded by the client's timeout, and decodes a 200
// answer into out.
func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc, done := c.client()
	defer done()
	start := time.Now()
	defer func() { trace.Remote(ctx, time.Since(start)) }() // the call's time, for --trace
	resp, err := hc.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("the remote service did not answer within %v", c.timeout)
		}
		return fmt.Errorf("the remote service: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		return fmt.Errorf("the remote service's answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the remote service answered %s: %s", resp.Status, strings.TrimSpace(string(b[:min(len(b), 200)])))
	}
	if err := json.Unmarshal(b, out); err != nil {
		return &MalformedError{Reason: err.Error()}
	}
	return nil
}

package drive

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/internal/hostile"
)

// TestConnectsAreTheServers: against a server that closes every
// connection (Connection: close), each request makes a new one. The
// connect is the server's cost: it counts in the request's time (so a
// slow handshake is latency, not a late send the generator is blamed
// for), and the summary counts connects per request, on both clients.
func TestConnectsAreTheServers(t *testing.T) {
	const handshake = 20 * time.Millisecond
	for _, client := range []string{"gqlbench", "net/http"} {
		t.Run(client, func(t *testing.T) {
			srv := hostile.Start(t, "close-each", 0) // every answer closes its connection
			reqs := requests(2, "QT1")
			var tr wire.Transport
			if client == "net/http" {
				s, err := wire.NewStdHTTP(srv.URL(), reqs, wire.Options{Timeout: 2 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				tr = s
			} else {
				h, err := wire.NewHTTP(srv.URL(), reqs, wire.Options{Timeout: 2 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				// a slow handshake: every connect takes 20 ms
				h.DialFunc = func(ctx context.Context) (net.Conn, error) {
					time.Sleep(handshake)
					var d net.Dialer
					return d.DialContext(ctx, "tcp", srv.Addr())
				}
				tr = h
			}
			r := runLoad(t, t.Context(), Config{Mode: Open, Transport: tr, Requests: reqs, Settings: OpenSettings{Repeat: Repeat{Duration: time.Second, Runs: 1}, Arrivals: Arrivals{Connections: 2, Rate: 20}}, Late: 10 * time.Millisecond})
			if r.err != nil {
				t.Fatal(r.err)
			}
			s := r.sum
			if s.Total.Count < 10 {
				t.Fatalf("%d requests completed", s.Total.Count)
			}
			// (the two connections made before the schedule serve the first
			// two requests)
			if s.ConnectsPerRequest < 0.8 || s.Connects < s.Total.Count-2 {
				t.Errorf("%d connects, %.2f per request for %d requests: want one each but the first two", s.Connects, s.ConnectsPerRequest, s.Total.Count)
			}
			if client == "net/http" {
				return
			}
			if s.DriverLimit {
				t.Errorf("the server's slow connects blamed on the load generator: %s", s.DriverWhy)
			}
			// (a busy machine makes a few sends late of its own accord)
			if s.Total.DriverLate > s.Total.Count/2 {
				t.Errorf("%d of %d sends late on the generator's account", s.Total.DriverLate, s.Total.Count)
			}
			if p50 := time.Duration(s.Total.QET.P50); p50 < handshake {
				t.Errorf("QET p50 %v: the connect (%v) is not inside the request's time", p50, handshake)
			}
		})
	}
}

package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/server/peer/peertest"
)

// TestLink: gqlbench link prints the address to send load to, carries
// requests to the target through the emulated link until interrupted, and
// refuses a missing target or a bad rate.
func TestLink(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "through") }))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb peertest.Buffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, Env{Args: []string{"link", "--target", strings.TrimPrefix(srv.URL, "http://"), "--delay", "1ms", "--rate", "10mbit"},
			Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	}()
	var addr string
	for i := 0; i < 200 && addr == ""; i++ {
		time.Sleep(10 * time.Millisecond)
		addr = strings.TrimSpace(out.String())
	}
	if addr == "" {
		t.Fatalf("no address printed; stderr: %s", errb.String())
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "through" {
		t.Errorf("answer %q through the link", b)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after the interrupt: %s", code, errb.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"link", "--delay", "1ms"}, "--target"},
		{[]string{"link", "--target", "127.0.0.1:1", "--rate", "fast"}, "want bits per second"},
	} {
		if code, _, stderr := runCLI(c.args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, code, stderr)
		}
	}
}

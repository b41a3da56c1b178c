package hostile

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestHealthyThenReset(t *testing.T) {
	s := Start(t, "reset", 2)
	for i := 0; i < 2; i++ {
		resp, err := http.Post(s.URL(), "application/json", strings.NewReader(`{"query":"{__typename}"}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != OKBody {
			t.Fatalf("request %d: %q", i, b)
		}
	}
	if _, err := http.Post(s.URL(), "application/json", strings.NewReader(`{}`)); err == nil {
		t.Fatal("the third request was answered; want a closed connection")
	}
	if s.Requests() != 3 {
		t.Fatalf("requests = %d, want 3", s.Requests())
	}
}

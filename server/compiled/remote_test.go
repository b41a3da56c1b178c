package compiled

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/server/remoteapi"
)

// remoteService starts a remote service over the dataset of seed for the
// test's life and returns its URL.
func remoteService(t testing.TB, seed uint64) string {
	t.Helper()
	s, err := remoteapi.New(remoteapi.Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestRemoteRefs: the remote values' strings are found where the statement
// wrote them and nowhere else, and their paths are the response's.
func TestRemoteRefs(t *testing.T) {
	m := remoteMarker
	data := []byte(`{"a" : [{"t":"` + m + `1:5 \"` + m + `2:6\"","r":"` + m + `1:7"},{"r" : "` + m + `1:8"}],"b":{"h":"` + m + `2:-3"}}`)
	refs := remoteRefs(data)
	if len(refs) != 3 || refs[0].nr != 7 || refs[1].nr != 8 || refs[2].f != remoteapi.HIndex || refs[2].nr != -3 {
		t.Fatalf("refs %+v", refs)
	}
	paths := remotePaths(data)
	var got []string
	for _, p := range paths {
		got = append(got, p.path.String())
	}
	if strings.Join(got, " ") != "a[0].r a[1].r b.h" {
		t.Errorf("paths %v", got)
	}
}

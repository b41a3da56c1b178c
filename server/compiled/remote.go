package compiled

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/remoteapi"
)

// The remote fields (workload/remote.graphql) have no SQL behind them: the
// statement writes, in their place, a string that names the field and the
// object — remoteMarker, the field's number, ":", the object's nr — and
// once the statement has run, resolveRemote makes one call per remote field
// with every nr the answer holds (the BATCH of seed 002, whatever
// --remote-mode says: the compiled variant has all the keys at once) and
// writes the values in place of the strings.

// remoteMarker begins the string that stands for a remote value. It is
// random per process, so no text stored in the database can forge one.
var remoteMarker = func() string {
	var b [12]byte
	rand.Read(b[:])
	return "rf" + hex.EncodeToString(b[:]) + ":"
}()

// remoteField is the SQL of remote field f of the object at row r, or
// false when g is no remote field.
func (c *compiler) remoteField(r row, g *group) (string, bool) {
	f, ok := remoteapi.FieldByName(g.name())
	if !ok {
		return "", false
	}
	return "'" + remoteMarker + strconv.Itoa(int(f)) + ":' || " + c.d.text(r.col("nr")), true
}

// remoteOf returns the client of the remote service c names, or why there
// is none.
func remoteOf(c server.Config) (*remoteapi.Client, error) {
	if c.Remote.URL == "" {
		return nil, errors.New("no remote service is configured: serve the variant with --remote-url (gqlbench serve remote-api)")
	}
	return remoteapi.NewClient(c.Remote)
}

// remoteRef is a remote value's place in the answer.
type remoteRef struct {
	start, end int // the string, quotes included
	f          remoteapi.Field
	nr         int64
}

// resolveRemote answers the remote fields of data (see above): the data
// with the values written in, and a field error for every value whose call
// failed (null in the data).
func (e *Executor) resolveRemote(ctx context.Context, data []byte) ([]byte, gqlerror.List) {
	refs := remoteRefs(data)
	if len(refs) == 0 {
		return data, nil
	}
	var keys [remoteapi.NumFields][]int64
	index := [remoteapi.NumFields]map[int64]int{}
	for _, r := range refs {
		if index[r.f] == nil {
			index[r.f] = map[int64]int{}
		}
		if _, ok := index[r.f][r.nr]; !ok {
			index[r.f][r.nr] = len(keys[r.f])
			keys[r.f] = append(keys[r.f], r.nr)
		}
	}
	var vals [remoteapi.NumFields][]int64
	var errs [remoteapi.NumFields]error
	var wg sync.WaitGroup
	for _, f := range remoteapi.Fields {
		if len(keys[f]) == 0 {
			continue
		}
		if e.remote == nil {
			errs[f] = e.remoteErr
			continue
		}
		wg.Go(func() { vals[f], errs[f] = e.remote.Many(ctx, f, keys[f]) })
	}
	wg.Wait()
	out := make([]byte, 0, len(data))
	last, failed := 0, false
	for _, r := range refs {
		out = append(out, data[last:r.start]...)
		if errs[r.f] != nil {
			out, failed = append(out, "null"...), true
		} else {
			out = strconv.AppendInt(out, vals[r.f][index[r.f][r.nr]], 10)
		}
		last = r.end
	}
	out = append(out, data[last:]...)
	if !failed {
		return out, nil
	}
	var list gqlerror.List
	for _, p := range remotePaths(data) {
		if err := errs[p.f]; err != nil {
			list = append(list, &gqlerror.Error{Message: fmt.Sprintf("%v: %v", p.f, err), Path: p.path})
		}
	}
	return out, list
}

// remoteRefs finds the remote values' strings in data, in order: the
// strings (outside other strings) that begin with the marker. It scans
// only data that holds the marker at all.
func remoteRefs(data []byte) []remoteRef {
	if !bytes.Contains(data, []byte(remoteMarker)) {
		return nil
	}
	var out []remoteRef
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		start := i
		for i++; i < len(data) && data[i] != '"'; i++ { // to the closing quote
			if data[i] == '\\' {
				i++
			}
		}
		body, ok := bytes.CutPrefix(data[start+1:min(i, len(data))], []byte(remoteMarker))
		if !ok {
			continue
		}
		fs, nrs, ok := bytes.Cut(body, []byte(":"))
		f, err1 := strconv.Atoi(string(fs))
		nr, err2 := strconv.ParseInt(string(nrs), 10, 64)
		if ok && err1 == nil && err2 == nil && f >= 0 && f < remoteapi.NumFields {
			out = append(out, remoteRef{start: start, end: i + 1, f: remoteapi.Field(f), nr: nr})
		}
	}
	return out
}

// remotePath is a remote value's path in the response.
type remotePath struct {
	path ast.Path
	f    remoteapi.Field
}

// remotePaths walks data and returns the paths of its remote values, for
// their errors (only when a call failed: it decodes the whole answer).
func remotePaths(data []byte) []remotePath {
	type frame struct {
		arr     bool
		key     string
		idx     int
		wantKey bool
	}
	var stack []*frame
	var out []remotePath
	advance := func() {
		if len(stack) == 0 {
			return
		}
		if top := stack[len(stack)-1]; top.arr {
			top.idx++
		} else {
			top.wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return out
		}
		if n := len(stack); n > 0 && !stack[n-1].arr && stack[n-1].wantKey {
			if k, ok := tok.(string); ok {
				stack[n-1].key, stack[n-1].wantKey = k, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{arr: true})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			advance()
			continue
		}
		if s, ok := tok.(string); ok {
			if refs := remoteRefs([]byte(strconv.Quote(s))); len(refs) == 1 {
				p := make(ast.Path, len(stack))
				for i, fr := range stack {
					if fr.arr {
						p[i] = ast.PathIndex(fr.idx)
					} else {
						p[i] = ast.PathName(fr.key)
					}
				}
				out = append(out, remotePath{path: p, f: refs[0].f})
			}
		}
		advance()
	}
}

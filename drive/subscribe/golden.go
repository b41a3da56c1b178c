package subscribe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// GoldenFormat names the format of a golden stream file.
const GoldenFormat = "gqlbench-golden/1"

// Golden is a recorded event stream of a user's API (workload Ops): the
// payload of each event of a run's measured window, in publication order,
// normalised so that another run can be compared with it. Recording takes
// a run (Config.RecordGolden; Result.Golden); checking another run
// (Config.Golden) compares the payload of its j-th event with Events[j].
//
// Normalising a payload (compact JSON, its data) replaces what differs from
// run to run by design: each string of the mutation's variables written
// with {{i}} or {{run}}, as event i's mutation sent it, by its template;
// any other occurrence of the run's tag by {{run}}; and every string value
// equal to a string of the mutation's response (e.g. the id of the object
// it created) by {{response}}. What is left must be the same.
type Golden struct {
	Format           string            `json:"format"`
	Subscription     string            `json:"subscription"`
	SubscriptionVars map[string]any    `json:"subscription_vars,omitempty"`
	Mutation         string            `json:"mutation"`
	MutationVars     map[string]any    `json:"mutation_vars,omitempty"`
	Events           []json.RawMessage `json:"events"`
}

// ReadGolden reads a golden stream file written by WriteGolden.
func ReadGolden(path string) (*Golden, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var g Golden
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("%s: not a golden stream: %v", path, err)
	}
	if g.Format != GoldenFormat {
		return nil, fmt.Errorf("%s: format %q, want %q (written by load --mode subscribe --record-golden)", path, g.Format, GoldenFormat)
	}
	if len(g.Events) == 0 {
		return nil, fmt.Errorf("%s: a golden stream without events", path)
	}
	return &g, nil
}

// Write writes g as JSON, one event a line.
func (g *Golden) Write(w io.Writer) error {
	var b bytes.Buffer
	head, _ := json.Marshal(struct {
		Format           string         `json:"format"`
		Subscription     string         `json:"subscription"`
		SubscriptionVars map[string]any `json:"subscription_vars,omitempty"`
		Mutation         string         `json:"mutation"`
		MutationVars     map[string]any `json:"mutation_vars,omitempty"`
	}{g.Format, g.Subscription, g.SubscriptionVars, g.Mutation, g.MutationVars})
	b.Write(head[:len(head)-1])
	b.WriteString(`,"events":[`)
	for j, e := range g.Events {
		if j > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		b.Write(e)
	}
	b.WriteString("\n]}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// Matches says whether g was recorded with the same operations and
// variables as o, or how they differ.
func (g *Golden) Matches(o *Ops) error {
	same := func(a, b map[string]any) bool {
		x, _ := json.Marshal(a)
		y, _ := json.Marshal(b)
		return bytes.Equal(x, y)
	}
	switch {
	case strings.TrimSpace(g.Subscription) != strings.TrimSpace(o.SubscriptionDoc):
		return errors.New("the golden stream was recorded with another subscription operation")
	case strings.TrimSpace(g.Mutation) != strings.TrimSpace(o.MutationDoc):
		return errors.New("the golden stream was recorded with another mutation")
	case !same(g.SubscriptionVars, o.SubscriptionVars):
		return errors.New("the golden stream was recorded with other subscription variables")
	case !same(g.MutationVars, o.MutationVars):
		return errors.New("the golden stream was recorded with other mutation variables")
	}
	return nil
}

// golden returns the empty golden stream of o's operations.
func (o *Ops) golden() *Golden {
	return &Golden{Format: GoldenFormat, Subscription: o.SubscriptionDoc, SubscriptionVars: o.SubscriptionVars,
		Mutation: o.MutationDoc, MutationVars: o.MutationVars}
}

// normalize is payload (event i's compact data) as a golden stream holds
// it; response is the body of mutation i's response.
func (o *Ops) normalize(i int64, payload string, response []byte) string {
	var pairs []string
	for k, v := range o.vars(i) {
		t, ok := o.MutationVars[k].(string)
		if s, isStr := v.(string); isStr && ok && strings.Contains(t, "{{") && s != "" {
			pairs = append(pairs, jsonInner(s), jsonInner(t))
		}
	}
	// longest first, so that one value inside another is not replaced first
	sortPairs(pairs)
	if len(pairs) > 0 {
		payload = strings.NewReplacer(pairs...).Replace(payload)
	}
	payload = strings.ReplaceAll(payload, o.Tag, "{{run}}")
	var r struct{ Data any }
	if json.Unmarshal(response, &r) == nil {
		var leaves []string
		stringLeaves(r.Data, &leaves)
		pairs = pairs[:0]
		for _, s := range leaves {
			if !strings.Contains(s, o.Tag) {
				q, _ := json.Marshal(s)
				pairs = append(pairs, string(q), `"{{response}}"`)
			}
		}
		sortPairs(pairs)
		if len(pairs) > 0 {
			payload = replaceValues(payload, pairs)
		}
	}
	return payload
}

// replaceValues replaces whole JSON string values (a quoted string that is
// a member's value or a list element, not a member's name) of payload.
func replaceValues(payload string, pairs []string) string {
	var b strings.Builder
	for n := 0; n < len(payload); {
		if payload[n] != '"' {
			b.WriteByte(payload[n])
			n++
			continue
		}
		end := n + 1 // the closing quote
		for end < len(payload) && payload[end] != '"' {
			if payload[end] == '\\' {
				end++
			}
			end++
		}
		end = min(end+1, len(payload))
		tok := payload[n:end]
		isValue := end >= len(payload) || payload[end] != ':'
		if isValue {
			for p := 0; p+1 < len(pairs); p += 2 {
				if tok == pairs[p] {
					tok = pairs[p+1]
					break
				}
			}
		}
		b.WriteString(tok)
		n = end
	}
	return b.String()
}

// sortPairs orders old/new pairs by the old string's length, longest first.
func sortPairs(pairs []string) {
	type pair struct{ old, new string }
	ps := make([]pair, len(pairs)/2)
	for p := range ps {
		ps[p] = pair{pairs[2*p], pairs[2*p+1]}
	}
	sort.SliceStable(ps, func(a, b int) bool { return len(ps[a].old) > len(ps[b].old) })
	for p := range ps {
		pairs[2*p], pairs[2*p+1] = ps[p].old, ps[p].new
	}
}

// jsonInner is s as it appears inside a JSON string, without the quotes.
func jsonInner(s string) string {
	q, _ := json.Marshal(s)
	return string(q[1 : len(q)-1])
}

func stringLeaves(v any, out *[]string) {
	switch v := v.(type) {
	case string:
		if v != "" {
			*out = append(*out, v)
		}
	case map[string]any:
		for _, x := range v {
			stringLeaves(x, out)
		}
	case []any:
		for _, x := range v {
			stringLeaves(x, out)
		}
	}
}

// goldenCheck compares the measured window's events with cfg.Golden, or
// records them: each event's one payload (the first subscriber's; every
// other subscriber's was checked equal to it as it arrived) normalised.
// Since each subscription's events were checked delivered once and in
// order, a match here makes every subscriber's stream the golden one,
// exactly; the subscribers' interleaving does not matter.
func (r *run) goldenCheck(res *Result, start, end int64) {
	o, _ := r.cfg.Workload.(*Ops)
	if o == nil || (r.cfg.Golden == nil && !r.cfg.RecordGolden) {
		return
	}
	var rec *Golden
	if r.cfg.RecordGolden {
		rec = o.golden()
	}
	for i := start; i < end; i++ {
		j := i - start
		p := &r.records[i]
		payload := p.idOf()
		if p.state.Load() != 1 || payload == "" {
			continue // failed or lost: counted as such
		}
		var body []byte
		if b := p.resp.Load(); b != nil {
			body = *b
		}
		norm := o.normalize(i, payload, body)
		if rec != nil {
			rec.Events = append(rec.Events, json.RawMessage(norm))
		}
		if g := r.cfg.Golden; g != nil {
			if j >= int64(len(g.Events)) {
				res.GoldenBeyond++
				continue
			}
			res.GoldenCompared++
			var want bytes.Buffer
			if json.Compact(&want, g.Events[j]) != nil || want.String() != norm {
				res.GoldenDiffs++
				r.fail(fmt.Errorf("event %d of the window differs from the golden stream's: got %.300s, want %.300s", j, norm, want.String()))
			}
		}
	}
	res.Golden = rec
}

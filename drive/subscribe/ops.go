package subscribe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Ops is the workload of a user's own API: every subscription sends the
// same subscription document (SubscriptionDoc), with SubscriptionVars, and
// event i is raised by the mutation document (MutationDoc) with
// MutationVars, in whose string values
// "{{i}}" stands for i and "{{run}}" for the run's tag. One of those values
// must reach the event's payload holding both, e.g. a review's text
// "gqlbench {{run}} #{{i}}": that marker tells which mutation raised an
// event.
//
// An event is checked against what its mutation implies: the payload has
// no errors, holds every top-level string variable of the mutation written
// with {{i}} or {{run}} (as event i's mutation sent it), and is the same for
// every subscriber (the first one received is the reference).
// Events carry no seq, so order is by i: the CLI publishes one mutation at
// a time with this workload, and every subscription must select every
// event (a filtered subscription's missing events would count as lost).
type Ops struct {
	SubscriptionDoc  string
	SubscriptionVars map[string]any
	MutationDoc      string
	MutationVars     map[string]any
	Tag              string

	marker *regexp.Regexp
}

// NewOps checks o and returns it ready: a marker must be in the mutation's
// variables.
func NewOps(o Ops) (*Ops, error) {
	b, _ := json.Marshal(o.MutationVars)
	if !bytes.Contains(b, []byte("{{i}}")) || !bytes.Contains(b, []byte("{{run}}")) {
		return nil, fmt.Errorf(`the mutation's variables must carry a marker of the event, a string with {{run}} and {{i}}, e.g. {"text": "gqlbench {{run}} #{{i}}"}`)
	}
	o.marker = regexp.MustCompile(regexp.QuoteMeta(o.Tag) + `\D*?(\d+)`)
	return &o, nil
}

func (o *Ops) Subscription(int, int) (string, map[string]any, func(int64) bool) {
	return o.SubscriptionDoc, o.SubscriptionVars, nil
}

// vars are the mutation's variables of event i.
func (o *Ops) vars(i int64) map[string]any {
	var sub func(v any) any
	sub = func(v any) any {
		switch v := v.(type) {
		case string:
			return strings.NewReplacer("{{i}}", strconv.FormatInt(i, 10), "{{run}}", o.Tag).Replace(v)
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, x := range v {
				out[k] = sub(x)
			}
			return out
		case []any:
			out := make([]any, len(v))
			for k, x := range v {
				out[k] = sub(x)
			}
			return out
		}
		return v
	}
	return sub(o.MutationVars).(map[string]any)
}

func (o *Ops) Mutation(i int64) []byte {
	b, _ := json.Marshal(map[string]any{"query": o.MutationDoc, "variables": o.vars(i)})
	return b
}

func (o *Ops) Decode(payload []byte) (Event, error) {
	var r struct {
		Data   json.RawMessage
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(payload, &r); err != nil {
		return Event{}, fmt.Errorf("malformed event: %v", err)
	}
	if len(r.Errors) > 0 {
		return Event{}, fmt.Errorf("event with errors: %s", r.Errors[0].Message)
	}
	if len(r.Data) == 0 || string(r.Data) == "null" {
		return Event{}, fmt.Errorf("event without data: %.200s", payload)
	}
	m := o.marker.FindSubmatch(r.Data)
	if m == nil {
		return Event{}, fmt.Errorf("an event without this run's marker %q: %.200s", o.Tag, r.Data)
	}
	i, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil {
		return Event{}, fmt.Errorf("marker %q: %v", m[0], err)
	}
	var data bytes.Buffer
	json.Compact(&data, r.Data)
	// ID is the whole payload: every subscriber must see the same.
	return Event{Index: i, ID: data.String(), Fields: []string{data.String()}}, nil
}

func (o *Ops) Check(i int64, ev Event) error {
	if len(ev.Fields) != 1 {
		return fmt.Errorf("event %d: no payload", i)
	}
	for k, v := range o.vars(i) {
		if s, ok := v.(string); ok && strings.Contains(fmt.Sprint(o.MutationVars[k]), "{{") {
			q, _ := json.Marshal(s)
			if !strings.Contains(ev.Fields[0], string(q)) {
				return fmt.Errorf("event %d: the payload lacks the mutation's %s %s: %.200s", i, k, q, ev.Fields[0])
			}
		}
	}
	return nil
}

func (o *Ops) Created(body []byte) (string, error) {
	var r struct {
		Data   json.RawMessage
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return "", fmt.Errorf("malformed mutation response: %v: %.200s", err, body)
	}
	if len(r.Errors) > 0 {
		return "", fmt.Errorf("mutation failed: %s", r.Errors[0].Message)
	}
	if len(r.Data) == 0 || string(r.Data) == "null" {
		return "", fmt.Errorf("mutation response without data: %.200s", body)
	}
	return "", nil
}

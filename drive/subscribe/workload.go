package subscribe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Workload is what the subscribers subscribe to and what the publisher
// sends: the k-th subscription of a connection, the mutation of event i,
// and how an event's payload is read and checked.
type Workload interface {
	// Subscription returns the k-th subscription of connection conn: its
	// GraphQL document, variables, and which events it selects (nil: all).
	Subscription(conn, k int) (query string, vars map[string]any, selects func(i int64) bool)
	// Mutation returns the request body (JSON) of the mutation that raises
	// event i.
	Mutation(i int64) []byte
	// Decode reads the payload of a next message (a GraphQL response):
	// which event it is, and its seq and commit time when it carries them.
	Decode(payload []byte) (Event, error)
	// Check says whether ev is what mutation i implies (nil) or how it differs.
	Check(i int64, ev Event) error
	// Created returns the id that the response to mutation i gives, "" if none.
	Created(body []byte) (string, error)
}

// Event is a received event as Workload.Decode reads it.
type Event struct {
	Index     int64     // the publisher's number of the mutation that raised it
	Seq       int64     // the server's sequence number; 0 when not given
	Committed time.Time // when the write committed; zero when not given
	ID        string    // the id of the object written
	Fields    []string  // the payload's values that Check compares
}

// Publications is the built-in workload over the benchmark schema's
// subscription extension: every subscription is publicationAdded; the even
// ones (k = 0, 2, …) take every event (fan-out), the odd ones only those of
// one of the two sandbox main authors (filtered delivery: half the events).
// Event i is createPublication by main author 10^15 + i%2, titled with the
// run's tag and i.
type Publications struct {
	Tag string // told apart from other runs' writes in the title
}

// The sandbox's two faculty members (workload/writes.graphql).
const sandboxAuthor = 1000000000000000

const publicationSubscription = `subscription Added($author: ID) { publicationAdded(mainAuthor: $author) { seq committedAt publication { id title abstract } } }`

const createPublication = `mutation Create($t: String!, $a: String!, $m: ID!) { createPublication(input: {title: $t, abstract: $a, mainAuthor: $m}) { id } }`

func (p Publications) Subscription(conn, k int) (string, map[string]any, func(int64) bool) {
	if k%2 == 0 {
		return publicationSubscription, nil, nil
	}
	author := int64((conn + k/2) % 2)
	return publicationSubscription, map[string]any{"author": strconv.FormatInt(sandboxAuthor+author, 10)},
		func(i int64) bool { return i%2 == author }
}

func (p Publications) title(i int64) string {
	return fmt.Sprintf("gqlbench subscribe %s #%d", p.Tag, i)
}

func (p Publications) abstract(i int64) string { return "event " + strconv.FormatInt(i, 10) }

func (p Publications) Mutation(i int64) []byte {
	b, _ := json.Marshal(map[string]any{"query": createPublication, "variables": map[string]any{
		"t": p.title(i), "a": p.abstract(i), "m": strconv.FormatInt(sandboxAuthor+i%2, 10)}})
	return b
}

type publicationNext struct {
	Data *struct {
		PublicationAdded *struct {
			Seq         int64
			CommittedAt string
			Publication *struct{ ID, Title, Abstract string }
		}
	}
	Errors []struct{ Message string }
}

func (p Publications) Decode(payload []byte) (Event, error) {
	var n publicationNext
	if err := json.Unmarshal(payload, &n); err != nil {
		return Event{}, fmt.Errorf("malformed event: %v", err)
	}
	if len(n.Errors) > 0 {
		return Event{}, fmt.Errorf("event with errors: %s", n.Errors[0].Message)
	}
	if n.Data == nil || n.Data.PublicationAdded == nil || n.Data.PublicationAdded.Publication == nil {
		return Event{}, fmt.Errorf("event without data.publicationAdded.publication: %.200s", payload)
	}
	e := n.Data.PublicationAdded
	pub := e.Publication
	_, num, ok := strings.Cut(pub.Title, "#")
	i, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || !strings.HasPrefix(pub.Title, "gqlbench subscribe "+p.Tag+" ") {
		return Event{}, fmt.Errorf("an event of another writer: title %q", pub.Title)
	}
	ev := Event{Index: i, Seq: e.Seq, ID: pub.ID, Fields: []string{pub.Title, pub.Abstract}}
	if e.CommittedAt != "" {
		if ev.Committed, err = time.Parse(time.RFC3339Nano, e.CommittedAt); err != nil {
			return Event{}, fmt.Errorf("committedAt %q: %v", e.CommittedAt, err)
		}
	}
	return ev, nil
}

func (p Publications) Check(i int64, ev Event) error {
	if len(ev.Fields) != 2 || ev.Fields[0] != p.title(i) || ev.Fields[1] != p.abstract(i) {
		return fmt.Errorf("event %d: payload %q, want title %q and abstract %q", i, ev.Fields, p.title(i), p.abstract(i))
	}
	return nil
}

func (p Publications) Created(body []byte) (string, error) {
	var out struct {
		Data *struct {
			CreatePublication *struct{ ID string }
		}
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return "", fmt.Errorf("malformed mutation response: %v: %.200s", err, body)
	}
	if len(out.Errors) > 0 {
		return "", fmt.Errorf("mutation failed: %s", out.Errors[0].Message)
	}
	if out.Data == nil || out.Data.CreatePublication == nil || out.Data.CreatePublication.ID == "" {
		return "", fmt.Errorf("mutation response without data.createPublication.id: %.200s", bytes.TrimSpace(body))
	}
	return out.Data.CreatePublication.ID, nil
}

package enginebench

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/verify"
)

// Fixture is what every engine runs on: the dataset in memory, its
// metadata, the shapes and the oracle's answer to each.
type Fixture struct {
	Config dataset.Config
	Data   *inmem.Data
	Meta   *dataset.Meta
	Shapes []Shape
	oracle map[string]Answer
}

// Answer is the oracle's answer to a shape: the data's JSON as the oracle
// writes it, and its hash (verify.Hash).
type Answer struct {
	Raw  json.RawMessage
	Hash string
}

// NewFixture generates dataset c into memory (sf=1 takes about a second)
// and computes the oracle's answer to every shape.
func NewFixture(ctx context.Context, c dataset.Config) (*Fixture, error) {
	d, err := inmem.Generate(ctx, c)
	if err != nil {
		return nil, err
	}
	mb := dataset.NewMetaBuilder(c)
	if err := c.Stream(ctx, 0, nil, func(b *dataset.Batch) error { mb.Add(b); return nil }); err != nil {
		return nil, err
	}
	f := &Fixture{Config: c, Data: d, Meta: mb.Meta(), oracle: map[string]Answer{}}
	if f.Shapes, err = Shapes(f.Meta); err != nil {
		return nil, err
	}
	oracle := inmem.NewExecutor(d, server.Config{})
	for _, s := range f.Shapes {
		req, err := s.Request()
		if err != nil {
			return nil, err
		}
		r := oracle.Execute(ctx, req)
		if len(r.Errors) > 0 || len(r.Data) == 0 {
			return nil, fmt.Errorf("shape %s: the oracle answered with errors: %v", s.Name, r.Errors)
		}
		h, err := verify.Hash(r.Data)
		if err != nil {
			return nil, fmt.Errorf("shape %s: the oracle's answer: %w", s.Name, err)
		}
		f.oracle[s.Name] = Answer{Raw: r.Data, Hash: h}
	}
	return f, nil
}

// Oracle returns the oracle's answer to the shape named name.
func (f *Fixture) Oracle(name string) (Answer, bool) {
	a, ok := f.oracle[name]
	return a, ok
}

// SetOracle replaces the oracle's answer to a shape (the tests tamper with
// it to see a wrong answer caught).
func (f *Fixture) SetOracle(name string, raw json.RawMessage) error {
	h, err := verify.Hash(raw)
	if err != nil {
		return err
	}
	f.oracle[name] = Answer{Raw: raw, Hash: h}
	return nil
}

// Shape returns the shape named name.
func (f *Fixture) Shape(name string) (Shape, bool) {
	for _, s := range f.Shapes {
		if s.Name == name {
			return s, true
		}
	}
	return Shape{}, false
}

// check compares an answer's data with the oracle's for shape: equal
// hashes of canonical JSON.
func (f *Fixture) check(shape string, data []byte) error {
	want, ok := f.oracle[shape]
	if !ok {
		return fmt.Errorf("shape %s: no oracle answer", shape)
	}
	got, err := verify.Hash(data)
	if err != nil {
		return fmt.Errorf("shape %s: the answer is not JSON: %w", shape, err)
	}
	if got != want.Hash {
		return fmt.Errorf("shape %s: wrong answer: %.200s (the oracle: %.200s)", shape, data, want.Raw)
	}
	return nil
}

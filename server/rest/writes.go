package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/gqlbench/gqlbench/server/write"
)

// create serves POST /rest/C: 201 with the new resource and its Location.
func (h *Handler) create(ctx context.Context, r *http.Request, c *collection) *reply {
	in, p := h.input(r, c, true)
	if p != nil {
		return problemReply(p)
	}
	row, err := h.store.Create(ctx, in, nil)
	if err != nil {
		return h.failure(ctx, err)
	}
	h.writes.Created(ctx, c.write, row) // committed: Create returned
	rep := &reply{status: http.StatusCreated, body: h.written(c, row), location: "/rest/" + c.name + "/" + strconv.FormatInt(row.Nr, 10)}
	return rep
}

// update serves PATCH /rest/C/{nr}: 200 with the resource as it is now.
func (h *Handler) update(ctx context.Context, r *http.Request, c *collection, nr int64) *reply {
	in, p := h.input(r, c, false)
	if p != nil {
		return problemReply(p)
	}
	row, err := h.store.Update(ctx, nr, in, nil)
	if err != nil {
		return h.failure(ctx, err)
	}
	return &reply{status: http.StatusOK, body: h.written(c, row)}
}

// remove serves DELETE /rest/C/{nr}: 204, or 404 when there is no such row.
func (h *Handler) remove(ctx context.Context, r *http.Request, c *collection, nr int64) *reply {
	if r.URL.RawQuery != "" {
		return problemReply(badRequest("DELETE takes no parameters"))
	}
	if _, err := h.store.Delete(ctx, c.write, nr, nil); err != nil {
		return h.failure(ctx, err)
	}
	return &reply{status: http.StatusNoContent}
}

// input reads and validates a write's body: a JSON object of the
// collection's writable fields, at most MaxRequestBytes long.
func (h *Handler) input(r *http.Request, c *collection, create bool) (*write.Input, *problem) {
	if r.URL.RawQuery != "" {
		return nil, badRequest("%s takes no parameters: the fields go in the JSON body", r.Method)
	}
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || (mt != "application/json" && !(mt == "application/merge-patch+json" && !create)) {
		return nil, &problem{http.StatusUnsupportedMediaType, fmt.Sprintf("unsupported Content-Type %q: send a JSON object with Content-Type: application/json", clip(ct))}
	}
	limit := h.o.MaxRequestBytes
	if limit > 0 && r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	body := io.Reader(r.Body)
	if limit > 0 {
		body = io.LimitReader(r.Body, limit+1)
	}
	data, err := io.ReadAll(body)
	switch {
	case err != nil:
		return nil, badRequest("cannot read the request body: %v", err)
	case limit > 0 && int64(len(data)) > limit:
		return nil, tooLarge(limit)
	}
	fields, p := decodeObject(data, c)
	if p != nil {
		return nil, p
	}
	in, err := write.Parse(c.write, fields, create)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	return in, nil
}

func tooLarge(limit int64) *problem {
	return &problem{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large: over the limit of %d bytes", limit)}
}

// decodeObject decodes a JSON object, numbers as json.Number, refusing
// anything else, trailing data and a key given twice.
func decodeObject(data []byte, c *collection) (map[string]any, *problem) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, badRequest("malformed body: want a JSON object of %s's fields (%s)", c.typ, writableNames(c))
	}
	out := map[string]any{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, badRequest("malformed JSON body: %v", err)
		}
		k := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, badRequest("malformed JSON body at field %q: %v", clip(k), err)
		}
		if _, dup := out[k]; dup {
			return nil, badRequest("field %q is given twice", clip(k))
		}
		out[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, badRequest("malformed JSON body: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, badRequest("malformed JSON body: unexpected data after the object")
	}
	return out, nil
}

func writableNames(c *collection) string {
	var b []byte
	for i, f := range c.write.Fields {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, f.Name...)
	}
	return string(b)
}

// written is the representation of a row a write returned: every field of
// c, made of the row's nr and the entity's fields (checkWritable).
func (h *Handler) written(c *collection, row *write.Row) []byte {
	p := h.plan(&shape{kind: one, c: c, fields: c.fields})
	e := &encoder{p: p, c: newCells(p.kinds)}
	for i, f := range c.fields {
		col := p.main[i]
		if col < 0 {
			continue
		}
		var v any = row.Nr
		if f.kind != idKind {
			v = row.Value(c.write, f.name)
		}
		switch v := v.(type) {
		case int64:
			e.c.ints[col] = &v
		case string:
			e.c.strs[col] = &v
		}
	}
	e.open()
	e.close()
	return e.buf
}

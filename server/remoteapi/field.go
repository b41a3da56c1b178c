package remoteapi

import (
	"fmt"
	"strconv"
)

// Field is a remote field: a value the service computes per object.
type Field int

// The remote fields.
const (
	CitationCount Field = iota // Publication.citationCount: 0–499
	Ranking                    // University.ranking: 1–1000
	HIndex                     // Faculty.hIndex (Professor and Lecturer): 0–59
)

// NumFields is the number of remote fields.
const NumFields = 3

// Fields lists every remote field.
var Fields = []Field{CitationCount, Ranking, HIndex}

var fieldInfo = [...]struct{ name, path, graphQL string }{
	CitationCount: {"citationCount", "citation-count", "Publication.citationCount"},
	Ranking:       {"ranking", "ranking", "University.ranking"},
	HIndex:        {"hIndex", "h-index", "Faculty.hIndex"},
}

// Name is the field's GraphQL name, e.g. "citationCount".
func (f Field) Name() string { return fieldInfo[f].name }

// Path is the field's path segment in the service's URLs, e.g. "citation-count".
func (f Field) Path() string { return fieldInfo[f].path }

// String is the field with its type, e.g. "Publication.citationCount".
func (f Field) String() string {
	if f < 0 || int(f) >= len(fieldInfo) {
		return "Field(" + strconv.Itoa(int(f)) + ")"
	}
	return fieldInfo[f].graphQL
}

// FieldByName returns the field whose GraphQL name is name.
func FieldByName(name string) (Field, bool) {
	for _, f := range Fields {
		if f.Name() == name {
			return f, true
		}
	}
	return 0, false
}

// fieldByPath returns the field whose path segment is p.
func fieldByPath(p string) (Field, error) {
	for _, f := range Fields {
		if f.Path() == p {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown field %q: the fields are citation-count, ranking and h-index", p)
}

// Value is field f of object nr in the dataset of seed: a pure function of
// the three (splitmix64 over them), so the service, the oracle and any
// other tool agree without calling each other.
func Value(seed uint64, f Field, nr int64) int64 {
	x := mix(seed ^ mix(uint64(nr)^uint64(f+1)<<56))
	switch f {
	case CitationCount:
		return int64(x % 500)
	case Ranking:
		return 1 + int64(x%1000)
	default:
		return int64(x % 60)
	}
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

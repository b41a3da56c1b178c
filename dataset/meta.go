package dataset

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// Word lists a batch drew from, as bit sets over the vocabularies.
const (
	TitleWords = iota
	AbstractWords
	InterestWords
	numWordKinds
)

// WordSet is a set of word indexes of a vocabulary.
type WordSet [VocabularySize / 64]uint64

func (s *WordSet) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s *WordSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s *WordSet) union(o *WordSet) {
	for i := range s {
		s[i] |= o[i]
	}
}
func (s *WordSet) words(list []string) []string {
	var out []string
	for i := range list {
		if s.has(i) {
			out = append(out, list[i])
		}
	}
	sort.Strings(out)
	return out
}

// Generator is the name written into metadata, so that metadata of another
// tool (or an unrelated JSON file) is recognised and refused.
const Generator = "gqlbench"

// Meta is the dataset's metadata (DESIGN §3.1): what was generated and the
// values the query generator draws from, so queries can be made without a
// database. The same JSON is stored in the database beside the data.
type Meta struct {
	Generator string           `json:"generator"`
	Version   int              `json:"version"`
	Seed      uint64           `json:"seed"`
	Scale     int              `json:"scale"`
	PoolSize  int              `json:"pool_size"`
	Rows      map[string]int64 `json:"rows"` // rows per table
	// IDs lists the ids of each kind placeholders draw from, under LinGBM's
	// names (universityID, departmentID, ...), in the generator's order: by
	// university, department and, for faculty, rank. Students
	// and publications (millions at large scales) are not listed: no template
	// draws from them; Rows counts them, and the LinGBM values export lists them.
	IDs   map[string]IDList `json:"ids"`
	Words Words             `json:"words"`
}

// Words are the distinct words that occur in the data, sorted.
type Words struct {
	Title    []string `json:"title"`
	Abstract []string `json:"abstract"`
	Interest []string `json:"interest"`
}

// TotalRows is the number of rows over all tables.
func (m *Meta) TotalRows() int64 {
	var n int64
	for _, v := range m.Rows {
		n += v
	}
	return n
}

// IDKinds are the kinds of ids listed in Meta.IDs (LinGBM's names), with the
// table whose first column holds them.
var IDKinds = []struct {
	Name  string
	Table TableID
}{
	{"universityID", University}, {"departmentID", Department},
	{"researchGroupID", ResearchGroup}, {"facultyID", Faculty},
	{"professorID", Professor}, {"lecturerID", Lecturer},
	{"graduateCourseID", GraduateCourse}, {"undergraduateCourseID", UndergraduateCourse},
}

// MetaBuilder accumulates Meta from the batches of a Stream, in order.
type MetaBuilder struct {
	cfg   Config
	rows  [NumTables]int64
	ids   map[string][]int64
	words [numWordKinds]WordSet
}

// NewMetaBuilder starts the metadata of dataset c.
func NewMetaBuilder(c Config) *MetaBuilder {
	return &MetaBuilder{cfg: c, ids: map[string][]int64{}}
}

// Add counts batch b.
func (m *MetaBuilder) Add(b *Batch) {
	for t := range b.Tables {
		m.rows[t] += int64(b.Tables[t].Len())
	}
	for _, k := range IDKinds {
		rows := &b.Tables[k.Table]
		for i, n := 0, rows.Len(); i < n; i++ {
			m.ids[k.Name] = append(m.ids[k.Name], rows.Row(i)[0].I)
		}
	}
	for k := range m.words {
		m.words[k].union(&b.Words[k])
	}
}

// Meta returns the metadata of everything added.
func (m *MetaBuilder) Meta() *Meta {
	out := &Meta{Generator: Generator, Version: Version, Seed: m.cfg.Seed, Scale: m.cfg.Scale,
		PoolSize: PoolSize, Rows: map[string]int64{}, IDs: map[string]IDList{}}
	for t, n := range m.rows {
		out.Rows[Tables[t].Name] = n
	}
	for k, v := range m.ids {
		out.IDs[k] = append(IDList(nil), v...)
	}
	out.Words.Title = m.words[TitleWords].words(Vocabulary())
	out.Words.Abstract = m.words[AbstractWords].words(Vocabulary())
	out.Words.Interest = m.words[InterestWords].words(InterestVocabulary())
	return out
}

// WriteJSON writes m as JSON, one line.
func (m *Meta) WriteJSON(w io.Writer) error {
	return json.NewEncoder(w).Encode(m)
}

// ReadMeta reads metadata JSON and refuses files of another generator or version.
func ReadMeta(r io.Reader) (*Meta, error) {
	var m Meta
	dec := json.NewDecoder(r)
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("malformed metadata: %w", err)
	}
	if m.Generator != Generator {
		return nil, fmt.Errorf("not gqlbench metadata (generator %q)", m.Generator)
	}
	if m.Version != Version {
		return nil, fmt.Errorf("metadata of generator version %d, this gqlbench generates version %d: regenerate the dataset", m.Version, Version)
	}
	if m.Scale < 1 || len(m.IDs["universityID"]) == 0 {
		return nil, fmt.Errorf("malformed metadata: scale %d, %d universities", m.Scale, len(m.IDs["universityID"]))
	}
	return &m, nil
}

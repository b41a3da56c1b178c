package task

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
)

// fakeREST is the REST API of `gqlbench serve rest` (docs/rest.md), the
// reads the tasks make, written straight over the generated rows: every
// resource, every list, the listing of a collection with limit and offset,
// and the embedding of a to-one relation. It is independent of the
// GraphQL servers and the oracle, so that a task whose REST form assembles
// to the oracle's answer says something about the task, not about shared
// code. (startREST in task_test.go is the seam to swap in the real server.)
type fakeREST struct {
	rows  map[string]map[int64]map[string]dataset.Value // table → nr → column → value
	order map[string][]int64                            // table → nrs ascending
	index map[string]map[int64][]int64                  // "table.column" → value → nrs ascending
}

// fcoll is a collection: its rows (a table, filtered), its fields and lists.
type fcoll struct {
	table string
	is    func(f *fakeREST, nr int64) bool // nil: every row of table
	field []ffield
	lists map[string]func(f *fakeREST, nr int64) []int64
	list  map[string]string // list → the collection of its elements
}

// ffield is a field: a column of the row (or of another table by nr), a
// reference to another collection, or computed.
type ffield struct {
	name, table, col, ref string // table "": the collection's; ref: the collection a reference is to
	num                   bool
	value                 func(f *fakeREST, nr int64) any
}

func newFakeREST() *fakeREST {
	return &fakeREST{rows: map[string]map[int64]map[string]dataset.Value{}, order: map[string][]int64{},
		index: map[string]map[int64][]int64{}}
}

// add takes a batch of generated rows; key columns of the join tables are
// indexed under their column names.
func (f *fakeREST) add(b *dataset.Batch) {
	for i := range b.Tables {
		r := &b.Tables[i]
		for k := range r.Len() {
			row := map[string]dataset.Value{}
			for c, col := range r.Table.Columns {
				v := r.Row(k)[c]
				v.S = strings.Clone(v.S)
				row[col.Name] = v
			}
			for _, col := range r.Table.Columns {
				if v := row[col.Name]; col.Kind == dataset.Int && !v.Null && col.Name != "nr" {
					key := r.Table.Name + "." + col.Name
					if f.index[key] == nil {
						f.index[key] = map[int64][]int64{}
					}
					other := row["nr"].I
					if _, has := row["nr"]; !has { // a join table: index the other key
						for _, c2 := range r.Table.Columns {
							if c2.Name != col.Name {
								other = row[c2.Name].I
							}
						}
					}
					f.index[key][v.I] = append(f.index[key][v.I], other)
				}
			}
			if nr, ok := row["nr"]; ok {
				if f.rows[r.Table.Name] == nil {
					f.rows[r.Table.Name] = map[int64]map[string]dataset.Value{}
				}
				f.rows[r.Table.Name][nr.I] = row
				f.order[r.Table.Name] = append(f.order[r.Table.Name], nr.I)
			}
		}
	}
}

// done sorts what add collected.
func (f *fakeREST) done() {
	for _, l := range f.order {
		slices.Sort(l)
	}
	for _, m := range f.index {
		for _, l := range m {
			slices.Sort(l)
		}
	}
}

// by returns the rows of table whose column is nr.
func by(table, col string) func(f *fakeREST, nr int64) []int64 {
	return func(f *fakeREST, nr int64) []int64 { return f.index[table+"."+col][nr] }
}

func isProf(f *fakeREST, nr int64) bool { _, ok := f.rows["professor"][nr]; return ok }

func fakeCollections() map[string]*fcoll {
	text := func(n string) ffield { return ffield{name: n, col: n} }
	ref := func(n, col, to string) ffield { return ffield{name: n, col: col, ref: to} }
	degrees := []ffield{ref("undergraduateDegreeFrom", "undergraduateDegreeFrom", "universities"),
		ref("masterDegreeFrom", "masterDegreeFrom", "universities"), ref("doctoralDegreeFrom", "doctoralDegreeFrom", "universities"),
		ref("worksFor", "worksFor", "departments")}
	teach := map[string]func(*fakeREST, int64) []int64{"teacherOfGraduateCourses": by("graduateCourse", "teacher"),
		"teacherOfUndergraduateCourses": by("undergraduateCourse", "teacher"), "publications": by("publication", "mainAuthor")}
	teachTo := map[string]string{"teacherOfGraduateCourses": "graduateCourses", "teacherOfUndergraduateCourses": "undergraduateCourses", "publications": "publications"}
	prof := func(n, col string) ffield { return ffield{name: n, table: "professor", col: col} }
	head := ffield{name: "head", ref: "professors", value: func(f *fakeREST, nr int64) any {
		if h := f.index["professor.headOf"][nr]; len(h) > 0 {
			return strconv.FormatInt(h[0], 10)
		}
		return nil
	}}
	withProf := maps(teach, map[string]func(*fakeREST, int64) []int64{
		"supervisedUndergraduateStudents": by("undergraduateStudent", "advisor"), "supervisedGraduateStudents": by("graduateStudent", "advisor")})
	return map[string]*fcoll{
		"universities": {table: "university", field: []ffield{{name: "id"}},
			lists: map[string]func(*fakeREST, int64) []int64{"undergraduateDegreeObtainedByFaculty": by("faculty", "undergraduateDegreeFrom"),
				"mastergraduateDegreeObtainers": by("faculty", "masterDegreeFrom"), "doctoralDegreeObtainers": by("faculty", "doctoralDegreeFrom"),
				"undergraduateDegreeObtainedBystudent": by("graduateStudent", "undergraduateDegreeFrom"), "departments": by("department", "subOrganizationOf")},
			list: map[string]string{"undergraduateDegreeObtainedByFaculty": "faculty", "mastergraduateDegreeObtainers": "faculty",
				"doctoralDegreeObtainers": "faculty", "undergraduateDegreeObtainedBystudent": "graduateStudents", "departments": "departments"}},
		"departments": {table: "department", field: []ffield{{name: "id"}, ref("subOrganizationOf", "subOrganizationOf", "universities"), head},
			lists: map[string]func(*fakeREST, int64) []int64{"graduateStudents": by("graduateStudent", "memberOf"), "faculties": by("faculty", "worksFor")},
			list:  map[string]string{"graduateStudents": "graduateStudents", "faculties": "faculty"}},
		"researchGroups": {table: "researchGroup", field: []ffield{{name: "id"}, ref("subOrganizationOf", "subOrganizationOf", "departments")}},
		"faculty": {table: "faculty", field: append([]ffield{{name: "id"}, text("telephone"), text("emailAddress")}, degrees...),
			lists: teach, list: teachTo},
		"professors": {table: "faculty", is: isProf, field: append([]ffield{{name: "id"}, text("telephone"), text("emailAddress"),
			prof("researchInterest", "researchInterest"), prof("profType", "professorType")}, degrees...), lists: withProf,
			list: mapsTo(teachTo, map[string]string{"supervisedUndergraduateStudents": "undergraduateStudents", "supervisedGraduateStudents": "graduateStudents"})},
		"graduateStudents": {table: "graduateStudent", field: []ffield{{name: "id"}, text("telephone"), text("emailAddress"), {name: "age", col: "age", num: true},
			ref("memberOf", "memberOf", "departments"), ref("undergraduateDegreeFrom", "undergraduateDegreeFrom", "universities"), ref("advisor", "advisor", "professors")},
			lists: map[string]func(*fakeREST, int64) []int64{"takeGraduateCourses": by("graduateStudentTakeCourse", "graduateStudentID")},
			list:  map[string]string{"takeGraduateCourses": "graduateCourses"}},
		"publications":    {table: "publication", field: []ffield{{name: "id"}, text("title"), text("abstract")}},
		"graduateCourses": {table: "graduateCourse", field: []ffield{{name: "id"}, ref("teachedby", "teacher", "faculty")}},
	}
}

func maps[V any](a, b map[string]V) map[string]V {
	out := map[string]V{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func mapsTo(a, b map[string]string) map[string]string { return maps(a, b) }

// ServeHTTP answers GET /rest/C, /rest/C/{nr} and /rest/C/{nr}/LIST.
func (f *fakeREST) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	colls := fakeCollections()
	segs := strings.Split(strings.TrimPrefix(r.URL.Path, "/rest/"), "/")
	c := colls[segs[0]]
	fail := func(status int, msg string) {
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"detail": msg})
	}
	if c == nil || r.Method != "GET" || len(segs) > 3 {
		fail(404, "no such resource")
		return
	}
	q := r.URL.Query()
	embed := q.Get("embed")
	var nrs []int64
	switch len(segs) {
	case 1:
		for _, nr := range f.order[c.table] {
			if c.is == nil || c.is(f, nr) {
				nrs = append(nrs, nr)
			}
		}
	default:
		nr, err := strconv.ParseInt(segs[1], 10, 64)
		if err != nil || !f.exists(c, nr) {
			fail(404, "no such resource")
			return
		}
		if len(segs) == 2 {
			json.NewEncoder(w).Encode(f.repr(colls, c, nr, embed))
			return
		}
		l := c.lists[segs[2]]
		if l == nil {
			fail(404, "no such list")
			return
		}
		nrs, c = l(f, nr), colls[c.list[segs[2]]]
	}
	if off, _ := strconv.Atoi(q.Get("offset")); off > 0 {
		nrs = nrs[min(off, len(nrs)):]
	}
	if lim, err := strconv.Atoi(q.Get("limit")); err == nil {
		nrs = nrs[:min(lim, len(nrs))]
	}
	out := []any{}
	for _, nr := range nrs {
		out = append(out, f.repr(colls, c, nr, embed))
	}
	json.NewEncoder(w).Encode(out)
}

func (f *fakeREST) exists(c *fcoll, nr int64) bool {
	_, ok := f.rows[c.table][nr]
	return ok && (c.is == nil || c.is(f, nr))
}

// repr is the representation of row nr of c, with the reference embed
// (if any) replaced by the related resource's representation.
func (f *fakeREST) repr(colls map[string]*fcoll, c *fcoll, nr int64, embed string) map[string]any {
	out := map[string]any{}
	for _, fl := range c.field {
		var v any
		switch {
		case fl.name == "id":
			v = strconv.FormatInt(nr, 10)
		case fl.value != nil:
			v = fl.value(f, nr)
		default:
			t := c.table
			if fl.table != "" {
				t = fl.table
			}
			cell := f.rows[t][nr][fl.col]
			switch {
			case cell.Null:
			case fl.ref != "":
				v = strconv.FormatInt(cell.I, 10)
			case fl.num:
				v = cell.I
			default:
				v = cell.S
			}
		}
		if fl.name == embed && fl.ref != "" && v != nil {
			n, _ := strconv.ParseInt(v.(string), 10, 64)
			v = f.repr(colls, colls[fl.ref], n, "")
		}
		out[fl.name] = v
	}
	return out
}

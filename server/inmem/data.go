package inmem

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server/source"
)

// Data is a whole dataset in memory, as the generator makes it, with an
// index for every foreign key the schema follows. It is immutable once
// loaded, so it is safe for concurrent use, and it implements both
// source.Source and source.Factory (one shared Source).
type Data struct {
	// Config is the dataset: the generator's seed and scale factor.
	Config dataset.Config
	// Rows is the number of rows per table, by table name, as in dataset.Meta.
	Rows map[string]int64

	// Rows by nr.
	universities map[int64]*source.University
	departments  map[int64]*source.Department
	groups       map[int64]*source.ResearchGroup
	faculty      map[int64]*source.Faculty // professors and lecturers, joined
	grads        map[int64]*source.GraduateStudent
	ugrads       map[int64]*source.UndergraduateStudent
	gCourses     map[int64]*source.GraduateCourse
	ugCourses    map[int64]*source.UndergraduateCourse
	pubs         map[int64]*source.Publication

	// Every graduate student and every publication ascending by nr: the
	// root field graduateStudents and publicationSearch scan them.
	allGrads []*source.GraduateStudent
	allPubs  []*source.Publication

	// Indexes: key → rows ascending by nr.
	deptsOf          map[int64][]*source.Department      // by university
	groupsOf         map[int64][]*source.ResearchGroup   // by department
	facultyOf        map[int64][]*source.Faculty         // by worksFor
	facultyByDegree  [3]map[int64][]*source.Faculty      // by source.Degree, then university
	heads            map[int64][]*source.Faculty         // by headOf
	gradsByUG        map[int64][]*source.GraduateStudent // by undergraduateDegreeFrom
	gradsByAdvisor   map[int64][]*source.GraduateStudent
	gradsOf          map[int64][]*source.GraduateStudent // by memberOf
	ugradsByAdvisor  map[int64][]*source.UndergraduateStudent
	ugradsOf         map[int64][]*source.UndergraduateStudent // by memberOf
	gCoursesBy       map[int64][]*source.GraduateCourse       // by teacher
	ugCoursesBy      map[int64][]*source.UndergraduateCourse  // by teacher
	assisted         map[int64][]*source.UndergraduateCourse  // by teachingAssistant
	pubsBy           map[int64][]*source.Publication          // by mainAuthor
	coAuthors        map[int64][]*source.GraduateStudent      // by publication (coAuthorOfPublication)
	gradsTaking      map[int64][]*source.GraduateStudent      // by graduate course (graduateStudentTakeCourse)
	gCoursesTakenBy  map[int64][]*source.GraduateCourse       // by graduate student
	ugradsTaking     map[int64][]*source.UndergraduateStudent // by undergraduate course
	ugCoursesTakenBy map[int64][]*source.UndergraduateCourse  // by undergraduate student
}

// Generate generates dataset c and holds it in memory. It uses every CPU; at
// sf=10 it takes about a second.
func Generate(ctx context.Context, c dataset.Config) (*Data, error) {
	var t tables
	err := c.Stream(ctx, 0,
		func(b *dataset.Batch) error { b.Out = convert(b); return nil },
		func(b *dataset.Batch) error { t.append(b.Out.(*tables)); return nil })
	if err != nil {
		return nil, err
	}
	return t.build(c)
}

// ForMeta loads the dataset that meta describes and checks that it is the one
// meta was written for: same generator version and the same number of rows
// in every table.
func ForMeta(ctx context.Context, meta *dataset.Meta) (*Data, error) {
	if meta.Version != dataset.Version {
		return nil, fmt.Errorf("the dataset was made by generator version %d, this gqlbench generates version %d", meta.Version, dataset.Version)
	}
	d, err := Generate(ctx, dataset.Config{Seed: meta.Seed, Scale: meta.Scale})
	if err != nil {
		return nil, err
	}
	if !maps.Equal(d.Rows, meta.Rows) {
		return nil, fmt.Errorf("the metadata (seed %d, sf=%d) counts other rows than the generator makes: %v, want %v",
			meta.Seed, meta.Scale, meta.Rows, d.Rows)
	}
	return d, nil
}

// tables holds the rows of one batch, or of all of them, converted to the
// Source's types with their strings copied out of the batch.
type tables struct {
	universities []*source.University
	departments  []*source.Department
	groups       []*source.ResearchGroup
	faculty      []*source.Faculty
	professors   []professor
	lecturers    []int64
	grads        []*source.GraduateStudent
	ugrads       []*source.UndergraduateStudent
	ugCourses    []*source.UndergraduateCourse
	gCourses     []*source.GraduateCourse
	pubs         []*source.Publication
	coAuthors    [][2]int64 // publicationID, graduateStudentID
	gradTakes    [][2]int64 // graduateStudentID, graduateCourseID
	ugradTakes   [][2]int64 // undergraduateStudentID, undergraduateCourseID
}

// professor is a row of the professor table, joined to its faculty row by build.
type professor struct {
	nr                 int64
	profType, interest string
	headOf             *int64
}

func (t *tables) append(o *tables) {
	t.universities = append(t.universities, o.universities...)
	t.departments = append(t.departments, o.departments...)
	t.groups = append(t.groups, o.groups...)
	t.faculty = append(t.faculty, o.faculty...)
	t.professors = append(t.professors, o.professors...)
	t.lecturers = append(t.lecturers, o.lecturers...)
	t.grads = append(t.grads, o.grads...)
	t.ugrads = append(t.ugrads, o.ugrads...)
	t.ugCourses = append(t.ugCourses, o.ugCourses...)
	t.gCourses = append(t.gCourses, o.gCourses...)
	t.pubs = append(t.pubs, o.pubs...)
	t.coAuthors = append(t.coAuthors, o.coAuthors...)
	t.gradTakes = append(t.gradTakes, o.gradTakes...)
	t.ugradTakes = append(t.ugradTakes, o.ugradTakes...)
}

// build sorts every table by nr, joins professors and lecturers to their
// faculty rows, and builds the indexes.
func (t *tables) build(c dataset.Config) (*Data, error) {
	d := &Data{Config: c, Rows: t.counts()}
	var err error // the first duplicate nr
	d.universities = keyed(&err, t.universities, func(x *source.University) int64 { return x.Nr })
	d.departments = keyed(&err, t.departments, func(x *source.Department) int64 { return x.Nr })
	d.groups = keyed(&err, t.groups, func(x *source.ResearchGroup) int64 { return x.Nr })
	d.faculty = keyed(&err, t.faculty, func(x *source.Faculty) int64 { return x.Nr })
	d.grads = keyed(&err, t.grads, func(x *source.GraduateStudent) int64 { return x.Nr })
	d.pubs = keyed(&err, t.pubs, func(x *source.Publication) int64 { return x.Nr })
	d.ugrads = keyed(&err, t.ugrads, func(x *source.UndergraduateStudent) int64 { return x.Nr })
	d.gCourses = keyed(&err, t.gCourses, func(x *source.GraduateCourse) int64 { return x.Nr })
	d.ugCourses = keyed(&err, t.ugCourses, func(x *source.UndergraduateCourse) int64 { return x.Nr })
	if err != nil {
		return nil, err
	}
	d.allGrads, d.allPubs = t.grads, t.pubs // sorted by keyed

	// A faculty member is a Professor when it has a professor row; a
	// lecturer row only confirms that it is not one.
	for _, p := range t.professors {
		f := d.faculty[p.nr]
		if f == nil {
			return nil, fmt.Errorf("professor %d has no faculty row", p.nr)
		}
		f.Professor, f.ProfType, f.Interest, f.HeadOf = true, p.profType, p.interest, p.headOf
	}
	for _, nr := range t.lecturers {
		if f := d.faculty[nr]; f == nil || f.Professor {
			return nil, fmt.Errorf("lecturer %d has no faculty row or is also a professor", nr)
		}
	}
	if len(t.professors)+len(t.lecturers) != len(t.faculty) {
		return nil, fmt.Errorf("%d faculty rows, but %d professors and %d lecturers", len(t.faculty), len(t.professors), len(t.lecturers))
	}

	// The rows are ascending by nr, so every list of an index is too.
	d.deptsOf = index(t.departments, func(x *source.Department) *int64 { return &x.University })
	d.groupsOf = index(t.groups, func(x *source.ResearchGroup) *int64 { return &x.Department })
	d.facultyOf = index(t.faculty, func(x *source.Faculty) *int64 { return &x.WorksFor })
	d.facultyByDegree[source.Undergraduate] = index(t.faculty, func(x *source.Faculty) *int64 { return &x.UGDegree })
	d.facultyByDegree[source.Master] = index(t.faculty, func(x *source.Faculty) *int64 { return &x.MSDegree })
	d.facultyByDegree[source.Doctoral] = index(t.faculty, func(x *source.Faculty) *int64 { return &x.PhD })
	d.heads = index(t.faculty, func(x *source.Faculty) *int64 { return x.HeadOf })
	d.gradsByUG = index(t.grads, func(x *source.GraduateStudent) *int64 { return &x.UGDegree })
	d.gradsByAdvisor = index(t.grads, func(x *source.GraduateStudent) *int64 { return x.Advisor })
	d.gradsOf = index(t.grads, func(x *source.GraduateStudent) *int64 { return &x.MemberOf })
	d.ugradsByAdvisor = index(t.ugrads, func(x *source.UndergraduateStudent) *int64 { return x.Advisor })
	d.ugradsOf = index(t.ugrads, func(x *source.UndergraduateStudent) *int64 { return &x.MemberOf })
	d.gCoursesBy = index(t.gCourses, func(x *source.GraduateCourse) *int64 { return &x.Teacher })
	d.ugCoursesBy = index(t.ugCourses, func(x *source.UndergraduateCourse) *int64 { return &x.Teacher })
	d.assisted = index(t.ugCourses, func(x *source.UndergraduateCourse) *int64 { return x.TeachingAssistant })
	d.pubsBy = index(t.pubs, func(x *source.Publication) *int64 { return &x.MainAuthor })

	if d.coAuthors, _, err = link(t.coAuthors, d.pubs, d.grads, "coAuthorOfPublication"); err != nil {
		return nil, err
	}
	if d.gCoursesTakenBy, d.gradsTaking, err = link(t.gradTakes, d.grads, d.gCourses, "graduateStudentTakeCourse"); err != nil {
		return nil, err
	}
	if d.ugCoursesTakenBy, d.ugradsTaking, err = link(t.ugradTakes, d.ugrads, d.ugCourses, "undergraduateStudentTakeCourse"); err != nil {
		return nil, err
	}
	return d, nil
}

// counts is the number of rows of every table, by table name.
func (t *tables) counts() map[string]int64 {
	n := map[string]int64{}
	for id, rows := range map[dataset.TableID]int{
		dataset.University: len(t.universities), dataset.Department: len(t.departments),
		dataset.ResearchGroup: len(t.groups), dataset.Faculty: len(t.faculty),
		dataset.Professor: len(t.professors), dataset.Lecturer: len(t.lecturers),
		dataset.GraduateStudent: len(t.grads), dataset.UndergraduateStudent: len(t.ugrads),
		dataset.UndergraduateCourse: len(t.ugCourses), dataset.GraduateCourse: len(t.gCourses),
		dataset.Publication: len(t.pubs), dataset.CoAuthorOfPublication: len(t.coAuthors),
		dataset.GraduateStudentTakeCourse: len(t.gradTakes), dataset.UndergraduateStudentTakeCourse: len(t.ugradTakes),
	} {
		n[dataset.Tables[id].Name] = int64(rows)
	}
	return n
}

// keyed sorts rows by nr, in place, and maps every row to its nr. A
// duplicate nr is an error, kept in *err unless it holds one already.
func keyed[T any](err *error, rows []*T, nr func(*T) int64) map[int64]*T {
	slices.SortFunc(rows, func(a, b *T) int { return cmp.Compare(nr(a), nr(b)) })
	m := make(map[int64]*T, len(rows))
	for _, r := range rows {
		if _, dup := m[nr(r)]; dup && *err == nil {
			*err = fmt.Errorf("two %T rows with nr %d", r, nr(r))
		}
		m[nr(r)] = r
	}
	return m
}

// index groups rows by a foreign key (rows whose key is nil are left out),
// keeping their order.
func index[T any](rows []*T, key func(*T) *int64) map[int64][]*T {
	m := map[int64][]*T{}
	for _, r := range rows {
		if k := key(r); k != nil {
			m[*k] = append(m[*k], r)
		}
	}
	return m
}

// link indexes a many-to-many table of (a nr, b nr) pairs both ways: the b
// rows of every a and the a rows of every b, each list ascending by nr. A
// pair that refers to a missing row is an error: the generator never makes
// one, and a join would silently drop it.
func link[A, B any](pairs [][2]int64, as map[int64]*A, bs map[int64]*B, table string) (map[int64][]*B, map[int64][]*A, error) {
	aToB, bToA := map[int64][]*B{}, map[int64][]*A{}
	keys := slices.Clone(pairs)
	slices.SortFunc(keys, func(x, y [2]int64) int { return cmp.Or(cmp.Compare(x[1], y[1]), cmp.Compare(x[0], y[0])) })
	for _, p := range keys { // ascending by b: each a's list of b is sorted
		a, b := as[p[0]], bs[p[1]]
		if a == nil || b == nil {
			return nil, nil, fmt.Errorf("%s row (%d, %d) refers to a missing row", table, p[0], p[1])
		}
		aToB[p[0]] = append(aToB[p[0]], b)
	}
	slices.SortFunc(keys, func(x, y [2]int64) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	for _, p := range keys { // ascending by a: each b's list of a is sorted
		bToA[p[1]] = append(bToA[p[1]], as[p[0]])
	}
	return aToB, bToA, nil
}

// column[t][name] is the index of column name in table t.
var column = func() (m [dataset.NumTables]map[string]int) {
	for i, t := range dataset.Tables {
		m[i] = map[string]int{}
		for j, c := range t.Columns {
			m[i][c.Name] = j
		}
	}
	return m
}()

// row reads the cells of one row by column name.
type row struct {
	t     dataset.TableID
	cells []dataset.Value
}

func (r row) cell(name string) dataset.Value {
	i, ok := column[r.t][name]
	if !ok {
		panic(fmt.Sprintf("inmem: table %s has no column %s", dataset.Tables[r.t].Name, name))
	}
	return r.cells[i]
}

func (r row) int(name string) int64 { return r.cell(name).I }

// str copies the string out of the batch, whose memory is reused.
func (r row) str(name string) string { return strings.Clone(r.cell(name).S) }

// ptr is nil for NULL.
func (r row) ptr(name string) *int64 {
	v := r.cell(name)
	if v.Null {
		return nil
	}
	return &v.I
}

// each calls f for every row of table t in b.
func each(b *dataset.Batch, t dataset.TableID, f func(row)) {
	rows := &b.Tables[t]
	for i, n := 0, rows.Len(); i < n; i++ {
		f(row{t, rows.Row(i)})
	}
}

// convert copies batch b into the Source's types.
func convert(b *dataset.Batch) *tables {
	t := new(tables)
	each(b, dataset.University, func(r row) {
		t.universities = append(t.universities, &source.University{Nr: r.int("nr")})
	})
	each(b, dataset.Department, func(r row) {
		t.departments = append(t.departments, &source.Department{Nr: r.int("nr"), University: r.int("subOrganizationOf")})
	})
	each(b, dataset.ResearchGroup, func(r row) {
		t.groups = append(t.groups, &source.ResearchGroup{Nr: r.int("nr"), Department: r.int("subOrganizationOf")})
	})
	each(b, dataset.Faculty, func(r row) {
		t.faculty = append(t.faculty, &source.Faculty{Nr: r.int("nr"), Telephone: r.str("telephone"),
			EmailAddress: r.str("emailAddress"), UGDegree: r.int("undergraduateDegreeFrom"),
			MSDegree: r.int("masterDegreeFrom"), PhD: r.int("doctoralDegreeFrom"), WorksFor: r.int("worksFor")})
	})
	each(b, dataset.Professor, func(r row) {
		t.professors = append(t.professors, professor{nr: r.int("nr"), profType: r.str("professorType"),
			interest: r.str("researchInterest"), headOf: r.ptr("headOf")})
	})
	each(b, dataset.Lecturer, func(r row) { t.lecturers = append(t.lecturers, r.int("nr")) })
	each(b, dataset.GraduateStudent, func(r row) {
		t.grads = append(t.grads, &source.GraduateStudent{Nr: r.int("nr"), Telephone: r.str("telephone"),
			EmailAddress: r.str("emailAddress"), Age: r.int("age"), UGDegree: r.int("undergraduateDegreeFrom"),
			Advisor: r.ptr("advisor"), MemberOf: r.int("memberOf")})
	})
	each(b, dataset.UndergraduateStudent, func(r row) {
		t.ugrads = append(t.ugrads, &source.UndergraduateStudent{Nr: r.int("nr"), Telephone: r.str("telephone"),
			EmailAddress: r.str("emailAddress"), Age: r.int("age"), Advisor: r.ptr("advisor"), MemberOf: r.int("memberOf")})
	})
	each(b, dataset.UndergraduateCourse, func(r row) {
		t.ugCourses = append(t.ugCourses, &source.UndergraduateCourse{Nr: r.int("nr"), Teacher: r.int("teacher"),
			TeachingAssistant: r.ptr("teachingAssistant")})
	})
	each(b, dataset.GraduateCourse, func(r row) {
		t.gCourses = append(t.gCourses, &source.GraduateCourse{Nr: r.int("nr"), Teacher: r.int("teacher")})
	})
	each(b, dataset.Publication, func(r row) {
		t.pubs = append(t.pubs, &source.Publication{Nr: r.int("nr"), Title: r.str("title"),
			Abstract: r.str("abstract"), MainAuthor: r.int("mainAuthor")})
	})
	each(b, dataset.CoAuthorOfPublication, func(r row) {
		t.coAuthors = append(t.coAuthors, [2]int64{r.int("publicationID"), r.int("graduateStudentID")})
	})
	each(b, dataset.GraduateStudentTakeCourse, func(r row) {
		t.gradTakes = append(t.gradTakes, [2]int64{r.int("graduateStudentID"), r.int("graduateCourseID")})
	})
	each(b, dataset.UndergraduateStudentTakeCourse, func(r row) {
		t.ugradTakes = append(t.ugradTakes, [2]int64{r.int("undergraduateStudentID"), r.int("undergraduateCourseID")})
	})
	return t
}

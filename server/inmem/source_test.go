package inmem

import (
	"context"
	"slices"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server/source"
)

func p(v int64) *int64 { return &v }

// tiny is a hand-made dataset whose answers are worked out by hand below.
// Rows are given out of nr order on purpose: build must sort them.
func tiny(t *testing.T) *Data {
	t.Helper()
	tb := &tables{
		universities: []*source.University{{Nr: 2}, {Nr: 0}, {Nr: 1}},
		departments:  []*source.Department{{Nr: 101, University: 1}, {Nr: 100, University: 1}},
		groups:       []*source.ResearchGroup{{Nr: 10001, Department: 100}, {Nr: 10000, Department: 100}},
		faculty: []*source.Faculty{
			{Nr: 100011, WorksFor: 100, PhD: 2, UGDegree: 0, MSDegree: 1},
			{Nr: 100001, WorksFor: 100, PhD: 2, UGDegree: 1, MSDegree: 1},
			{Nr: 100014, WorksFor: 100, PhD: 2},
			{Nr: 101001, WorksFor: 101, PhD: 0},
		},
		professors: []professor{
			{nr: 100001, profType: "fullProfessor", interest: "data%base", headOf: p(100)},
			{nr: 100011, profType: "fullProfessor", interest: "Databases"},
			{nr: 101001, profType: "fullProfessor", interest: "graphs", headOf: p(101)},
		},
		lecturers: []int64{100014},
		grads: []*source.GraduateStudent{
			{Nr: 1000032, Telephone: "a-1", EmailAddress: "x", Age: 25, UGDegree: 1, Advisor: p(100011), MemberOf: 100},
			{Nr: 1000002, Telephone: "b-1", EmailAddress: "y", Age: 21, UGDegree: 1, Advisor: p(100001), MemberOf: 100},
			{Nr: 1000012, Telephone: "B-1", EmailAddress: "y", Age: 27, UGDegree: 1, Advisor: nil, MemberOf: 100},
			{Nr: 1000022, Telephone: "a-1", EmailAddress: "z", Age: 20, UGDegree: 2, Advisor: p(100001), MemberOf: 100},
		},
		ugrads: []*source.UndergraduateStudent{
			{Nr: 1000011, Advisor: p(100001), MemberOf: 100},
			{Nr: 1000001, MemberOf: 100},
		},
		ugCourses: []*source.UndergraduateCourse{{Nr: 100011, Teacher: 100001, TeachingAssistant: p(1000002)}, {Nr: 100001, Teacher: 100001}},
		gCourses:  []*source.GraduateCourse{{Nr: 100012, Teacher: 100014}, {Nr: 100002, Teacher: 100014}},
		pubs: []*source.Publication{
			{Nr: 10000103, Title: "50% off", Abstract: "b", MainAuthor: 100001},
			{Nr: 10000102, Title: "a_b", Abstract: "a", MainAuthor: 100001},
			{Nr: 10000101, Title: `back\slash`, Abstract: "b", MainAuthor: 100001},
			{Nr: 10000100, Title: "O'Brien", Abstract: "B", MainAuthor: 100001},
			{Nr: 10001100, Title: "ab", Abstract: "", MainAuthor: 100011},
		},
		coAuthors:  [][2]int64{{10000100, 1000032}, {10000100, 1000002}},
		gradTakes:  [][2]int64{{1000002, 100012}, {1000002, 100002}, {1000032, 100002}},
		ugradTakes: [][2]int64{{1000011, 100001}, {1000001, 100001}},
	}
	d, err := tb.build(dataset.Config{Seed: 1, Scale: 1})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func nrs[T any](xs []*T, nr func(*T) int64) []int64 {
	out := []int64{}
	for _, x := range xs {
		out = append(out, nr(x))
	}
	return out
}

func gradNrs(gs []*source.GraduateStudent) []int64 {
	return nrs(gs, func(g *source.GraduateStudent) int64 { return g.Nr })
}
func pubNrs(ps []*source.Publication) []int64 {
	return nrs(ps, func(x *source.Publication) int64 { return x.Nr })
}
func facNrs(fs []*source.Faculty) []int64 {
	return nrs(fs, func(x *source.Faculty) int64 { return x.Nr })
}

func want[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestLookups(t *testing.T) {
	d, ctx := tiny(t), context.Background()
	if u, err := d.University(ctx, 2); err != nil || u == nil || u.Nr != 2 {
		t.Errorf("University(2) = %v, %v", u, err)
	}
	if u, err := d.University(ctx, 3); err != nil || u != nil {
		t.Errorf("University(3) = %v, %v; want nil, nil", u, err)
	}
	f, _ := d.Faculty(ctx, 100001)
	if f == nil || !f.Professor || f.Interest != "data%base" || f.HeadOf == nil || *f.HeadOf != 100 {
		t.Errorf("Faculty(100001) = %+v: want a professor heading 100", f)
	}
	if l, _ := d.Faculty(ctx, 100014); l == nil || l.Professor {
		t.Errorf("Faculty(100014) = %+v: want a lecturer", l)
	}
	if h, _ := d.HeadOf(ctx, 100); h == nil || h.Nr != 100001 {
		t.Errorf("HeadOf(100) = %+v", h)
	}
	if h, err := d.HeadOf(ctx, 102); h != nil || err != nil {
		t.Errorf("HeadOf(102) = %+v, %v; want nil, nil", h, err)
	}
	if g, _ := d.GraduateStudent(ctx, 1000003); g != nil {
		t.Errorf("GraduateStudent(1000003) = %+v; want nil", g)
	}
}

func TestLists(t *testing.T) {
	d, ctx := tiny(t), context.Background()
	deps, _ := d.DepartmentsOf(ctx, 1)
	want(t, "DepartmentsOf(1)", nrs(deps, func(x *source.Department) int64 { return x.Nr }), []int64{100, 101})
	if none, _ := d.DepartmentsOf(ctx, 0); none == nil || len(none) != 0 {
		t.Errorf("DepartmentsOf(0) = %#v; want an empty, non-nil list", none)
	}
	gs, _ := d.ResearchGroupsOf(ctx, 100)
	want(t, "ResearchGroupsOf(100)", nrs(gs, func(x *source.ResearchGroup) int64 { return x.Nr }), []int64{10000, 10001})

	all, _ := d.FacultyByDegree(ctx, source.Doctoral, 2, nil)
	want(t, "FacultyByDegree(PhD, 2)", facNrs(all), []int64{100001, 100011, 100014})
	some, _ := d.FacultyByDegree(ctx, source.Doctoral, 2, p(101))
	want(t, "FacultyByDegree(PhD, 2, worksFor 101)", facNrs(some), []int64{})
	ug, _ := d.FacultyByDegree(ctx, source.Undergraduate, 1, nil)
	want(t, "FacultyByDegree(UG, 1)", facNrs(ug), []int64{100001})
	ms, _ := d.FacultyByDegree(ctx, source.Master, 1, p(100))
	want(t, "FacultyByDegree(MS, 1, worksFor 100)", facNrs(ms), []int64{100001, 100011})

	profs, _ := d.FacultyOfDepartment(ctx, 100, source.ProfessorsOnly)
	want(t, "professors of 100", facNrs(profs), []int64{100001, 100011})
	lects, _ := d.FacultyOfDepartment(ctx, 100, source.LecturersOnly)
	want(t, "lecturers of 100", facNrs(lects), []int64{100014})
	every, _ := d.FacultyOfDepartment(ctx, 100, source.AnyFaculty)
	want(t, "faculty of 100", facNrs(every), []int64{100001, 100011, 100014})

	adv, _ := d.GraduatesAdvisedBy(ctx, 100001)
	want(t, "GraduatesAdvisedBy(100001)", gradNrs(adv), []int64{1000002, 1000022})
	co, _ := d.CoAuthors(ctx, 10000100)
	want(t, "CoAuthors", gradNrs(co), []int64{1000002, 1000032})
	taking, _ := d.GraduatesTaking(ctx, 100002)
	want(t, "GraduatesTaking(100002)", gradNrs(taking), []int64{1000002, 1000032})
	taken, _ := d.GraduateCoursesTakenBy(ctx, 1000002)
	want(t, "GraduateCoursesTakenBy", nrs(taken, func(x *source.GraduateCourse) int64 { return x.Nr }), []int64{100002, 100012})
	uadv, _ := d.UndergraduatesAdvisedBy(ctx, 100001)
	want(t, "UndergraduatesAdvisedBy", nrs(uadv, func(x *source.UndergraduateStudent) int64 { return x.Nr }), []int64{1000011})
	utaking, _ := d.UndergraduatesTaking(ctx, 100001)
	want(t, "UndergraduatesTaking", nrs(utaking, func(x *source.UndergraduateStudent) int64 { return x.Nr }), []int64{1000001, 1000011})
	assisted, _ := d.CoursesAssistedBy(ctx, 1000002)
	want(t, "CoursesAssistedBy", nrs(assisted, func(x *source.UndergraduateCourse) int64 { return x.Nr }), []int64{100011})
	taught, _ := d.GraduateCoursesTaughtBy(ctx, 100014)
	want(t, "GraduateCoursesTaughtBy", nrs(taught, func(x *source.GraduateCourse) int64 { return x.Nr }), []int64{100002, 100012})
}

func TestGraduateQuery(t *testing.T) {
	d, ctx := tiny(t), context.Background()
	ip := func(n int) *int { return &n }
	for _, c := range []struct {
		name string
		univ *int64 // nil: Graduates, else GraduatesByUGDegree
		q    source.GradQuery
		want []int64
	}{
		{"all by nr", nil, source.GradQuery{}, []int64{1000002, 1000012, 1000022, 1000032}},
		{"by university", p(1), source.GradQuery{}, []int64{1000002, 1000012, 1000032}},
		// "B" (0x42) sorts before "a" (0x61): bytes, not a locale; ties by nr.
		{"by telephone", nil, source.GradQuery{Order: []source.GradField{source.GradByTelephone}},
			[]int64{1000012, 1000022, 1000032, 1000002}},
		{"by email then telephone", nil, source.GradQuery{Order: []source.GradField{source.GradByEmailAddress, source.GradByTelephone}},
			[]int64{1000032, 1000012, 1000002, 1000022}},
		{"null advisor first", nil, source.GradQuery{Order: []source.GradField{source.GradByAdvisor}},
			[]int64{1000012, 1000002, 1000022, 1000032}},
		{"by university then id", nil, source.GradQuery{Order: []source.GradField{source.GradByUGDegree, source.GradByID}},
			[]int64{1000002, 1000012, 1000032, 1000022}},
		// The limit applies after the ordering, not before.
		{"limit after order", nil, source.GradQuery{Order: []source.GradField{source.GradByTelephone}, Limit: ip(2)},
			[]int64{1000012, 1000022}},
		{"offset then limit", p(1), source.GradQuery{Offset: ip(1), Limit: ip(1)}, []int64{1000012}},
		{"offset past the end", p(1), source.GradQuery{Offset: ip(5)}, []int64{}},
		{"limit 0", nil, source.GradQuery{Limit: ip(0)}, []int64{}},
		{"huge limit", nil, source.GradQuery{Limit: ip(2000000000)}, []int64{1000002, 1000012, 1000022, 1000032}},
		{"advisor", nil, source.GradQuery{Where: source.GradWhere{{Kind: source.AdvisorIs, Int: 100001}}},
			[]int64{1000002, 1000022}},
		{"age more than (strict)", nil, source.GradQuery{Where: source.GradWhere{{Kind: source.AgeMatches,
			Number: source.NumberMatch{Criterion: source.MoreThan, Pattern: 21}}}}, []int64{1000012, 1000032}},
		{"age less than (strict)", nil, source.GradQuery{Where: source.GradWhere{{Kind: source.AgeMatches,
			Number: source.NumberMatch{Criterion: source.LessThan, Pattern: 21}}}}, []int64{1000022}},
		{"age equals", nil, source.GradQuery{Where: source.GradWhere{{Kind: source.AgeMatches,
			Number: source.NumberMatch{Criterion: source.NumberEquals, Pattern: 21}}}}, []int64{1000002}},
		// % is an ordinary character, and matching is case-sensitive.
		{"interest contains %", nil, source.GradQuery{Where: source.GradWhere{{Kind: source.AdvisorInterest,
			String: source.StringMatch{Criterion: source.Contains, Pattern: "a%b"}}}}, []int64{1000002, 1000022}},
		{"interest contains data", nil, source.GradQuery{Where: source.GradWhere{{Kind: source.AdvisorInterest,
			String: source.StringMatch{Criterion: source.Contains, Pattern: "data"}}}}, []int64{1000002, 1000022}},
		{"interest starts with Data", nil, source.GradQuery{Where: source.GradWhere{{Kind: source.AdvisorInterest,
			String: source.StringMatch{Criterion: source.StartsWith, Pattern: "Data"}}}}, []int64{1000032}},
		{"AND of two conditions", p(1), source.GradQuery{Where: source.GradWhere{
			{Kind: source.AgeMatches, Number: source.NumberMatch{Criterion: source.MoreThan, Pattern: 20}},
			{Kind: source.AdvisorInterest, String: source.StringMatch{Criterion: source.EndsWith, Pattern: "base"}}}},
			[]int64{1000002}},
		{"university condition", nil, source.GradQuery{Where: source.GradWhere{{Kind: source.UniversityIs, Int: 2}}},
			[]int64{1000022}},
	} {
		var got []*source.GraduateStudent
		var err error
		if c.univ == nil {
			got, err = d.Graduates(ctx, c.q)
		} else {
			got, err = d.GraduatesByUGDegree(ctx, *c.univ, c.q)
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		want(t, c.name, gradNrs(got), c.want)
	}
	neg := -1
	if _, err := d.Graduates(ctx, source.GradQuery{Limit: &neg}); err == nil {
		t.Error("a negative limit gave no error")
	}
	if _, err := d.GraduatesByUGDegree(ctx, 1, source.GradQuery{Offset: &neg}); err == nil {
		t.Error("a negative offset gave no error")
	}
}

func TestPublications(t *testing.T) {
	d, ctx := tiny(t), context.Background()
	for _, c := range []struct {
		name  string
		field source.PublicationField
		m     source.StringMatch
		want  []int64
	}{
		{"% is literal", source.Title, source.StringMatch{Criterion: source.Contains, Pattern: "%"}, []int64{10000103}},
		{"_ is literal", source.Title, source.StringMatch{Criterion: source.Contains, Pattern: "_"}, []int64{10000102}},
		{`\ is literal`, source.Title, source.StringMatch{Criterion: source.Contains, Pattern: `\`}, []int64{10000101}},
		{"quote", source.Title, source.StringMatch{Criterion: source.Contains, Pattern: "'"}, []int64{10000100}},
		{"injection", source.Title, source.StringMatch{Criterion: source.Contains, Pattern: "x' OR '1'='1"}, []int64{}},
		{"contains", source.Title, source.StringMatch{Criterion: source.Contains, Pattern: "b"}, []int64{10000101, 10000102, 10001100}},
		{"case-sensitive", source.Title, source.StringMatch{Criterion: source.Contains, Pattern: "B"}, []int64{10000100}},
		{"starts with", source.Title, source.StringMatch{Criterion: source.StartsWith, Pattern: "a"}, []int64{10000102, 10001100}},
		{"ends with", source.Title, source.StringMatch{Criterion: source.EndsWith, Pattern: "b"}, []int64{10000102, 10001100}},
		{"equals", source.Title, source.StringMatch{Criterion: source.Equals, Pattern: "ab"}, []int64{10001100}},
		{"equals the empty string", source.Abstract, source.StringMatch{Criterion: source.Equals, Pattern: ""}, []int64{10001100}},
		{"contains the empty string", source.Abstract, source.StringMatch{Criterion: source.Contains, Pattern: ""},
			[]int64{10000100, 10000101, 10000102, 10000103, 10001100}},
		{"abstract", source.Abstract, source.StringMatch{Criterion: source.Equals, Pattern: "b"}, []int64{10000101, 10000103}},
	} {
		got, err := d.PublicationSearch(ctx, c.field, c.m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want(t, "PublicationSearch "+c.name, pubNrs(got), c.want)
	}

	byNr, _ := d.PublicationsBy(ctx, 100001, nil)
	want(t, "PublicationsBy nr", pubNrs(byNr), []int64{10000100, 10000101, 10000102, 10000103})
	// Abstracts B, b, a, b: descending by bytes (b > a > B), ties by nr ascending.
	desc, _ := d.PublicationsBy(ctx, 100001, &source.PublicationOrder{Field: source.Abstract, Desc: true})
	want(t, "PublicationsBy abstract desc", pubNrs(desc), []int64{10000101, 10000103, 10000102, 10000100})
	asc, _ := d.PublicationsBy(ctx, 100001, &source.PublicationOrder{Field: source.Title})
	want(t, "PublicationsBy title asc", pubNrs(asc), []int64{10000103, 10000100, 10000102, 10000101})
	// The index itself stays in nr order after a sorted copy was returned.
	again, _ := d.PublicationsBy(ctx, 100001, nil)
	want(t, "PublicationsBy nr again", pubNrs(again), []int64{10000100, 10000101, 10000102, 10000103})
}

func TestGraduateAges(t *testing.T) {
	d, ctx := tiny(t), context.Background()
	for _, c := range []struct {
		univ int64
		want source.Aggregate
	}{
		{1, source.Aggregate{Count: 3, Sum: 73, Min: 21, Max: 27}},
		{2, source.Aggregate{Count: 1, Sum: 20, Min: 20, Max: 20}},
		{0, source.Aggregate{}}, // over no students everything is 0
		{999, source.Aggregate{}},
	} {
		got, err := d.GraduateAges(ctx, c.univ)
		if err != nil || got != c.want {
			t.Errorf("GraduateAges(%d) = %+v, %v; want %+v", c.univ, got, err, c.want)
		}
	}
}

func TestCancelled(t *testing.T) {
	d := tiny(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Graduates(ctx, source.GradQuery{}); err == nil {
		t.Error("Graduates with a cancelled context gave no error")
	}
}

func TestBuildRejectsBrokenData(t *testing.T) {
	for name, tb := range map[string]*tables{
		"duplicate nr":       {departments: []*source.Department{{Nr: 1}, {Nr: 1}}},
		"professor alone":    {professors: []professor{{nr: 7}}},
		"lecturer alone":     {lecturers: []int64{7}},
		"neither":            {faculty: []*source.Faculty{{Nr: 7}}},
		"dangling take link": {gradTakes: [][2]int64{{1, 2}}},
	} {
		if _, err := tb.build(dataset.Config{Seed: 1, Scale: 1}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

package graph

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/workload"
)

func ptr[T any](v T) *T { return &v }

// TestGradWhere: AND lists nested at any depth flatten into one
// conjunction, null conditions are dropped, and a matching with a null
// criterion or pattern can never hold.
func TestGradWhere(t *testing.T) {
	age := &NumberMatching{Criterion: ptr(NumberCriterionMorethan), Pattern: ptr(int64(22))}
	interest := &ProfessorWhereInput{ResearchInterest: &StringMatching{Criterion: ptr(StringCriterionContains), Pattern: ptr("x%")}}
	ageCond := source.GradCond{Kind: source.AgeMatches, Number: source.NumberMatch{Criterion: source.MoreThan, Pattern: 22}}
	interestCond := source.GradCond{Kind: source.AdvisorInterest, String: source.StringMatch{Criterion: source.Contains, Pattern: "x%"}}
	for _, c := range []struct {
		name string
		in   *GraduateStudentWhereInput
		want source.GradWhere
		ok   bool
	}{
		{"absent", nil, nil, true},
		{"empty", &GraduateStudentWhereInput{}, nil, true},
		{"QT14: AND of one element", &GraduateStudentWhereInput{And: []*GraduateStudentWhereInput{{Age: age, Advisor: interest}}},
			source.GradWhere{interestCond, ageCond}, true},
		{"nested AND", &GraduateStudentWhereInput{Advisor: interest, And: []*GraduateStudentWhereInput{
			{And: []*GraduateStudentWhereInput{{Age: age}}}, {University: &UniversityWhereInput{Nr: ptr(int64(7))}}}},
			source.GradWhere{interestCond, ageCond, {Kind: source.UniversityIs, Int: 7}}, true},
		{"null nrs dropped", &GraduateStudentWhereInput{University: &UniversityWhereInput{}, Advisor: &ProfessorWhereInput{}}, nil, true},
		{"advisor nr", &GraduateStudentWhereInput{Advisor: &ProfessorWhereInput{Nr: ptr(int64(9))}},
			source.GradWhere{{Kind: source.AdvisorIs, Int: 9}}, true},
		{"null pattern", &GraduateStudentWhereInput{Advisor: &ProfessorWhereInput{ResearchInterest: &StringMatching{Criterion: ptr(StringCriterionEquals)}}},
			nil, false},
		{"null criterion", &GraduateStudentWhereInput{And: []*GraduateStudentWhereInput{{Age: &NumberMatching{Pattern: ptr(int64(3))}}}}, nil, false},
	} {
		got, ok := gradWhere(c.in)
		if ok != c.ok || (c.ok && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("%s: got %+v, %v; want %+v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestGradQuery(t *testing.T) {
	q, ok, err := gradQuery(nil, ptr(int64(10)), ptr(int64(0)), []*GraduateStudentField{
		ptr(GraduateStudentFieldAdvisor), nil, ptr(GraduateStudentFieldTelephone)})
	if err != nil || !ok || *q.Limit != 10 || *q.Offset != 0 ||
		!reflect.DeepEqual(q.Order, []source.GradField{source.GradByAdvisor, source.GradByTelephone}) {
		t.Errorf("got %+v, %v, %v", q, ok, err)
	}
	for _, c := range []struct {
		limit, offset *int64
		want          string
	}{
		{ptr(int64(-1)), nil, "limit must not be negative, got -1"},
		{nil, ptr(int64(-7)), "offset must not be negative, got -7"},
	} {
		if _, _, err := gradQuery(nil, c.limit, c.offset, nil); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

func TestPublicationOrder(t *testing.T) {
	for _, c := range []struct {
		in   *PublicationSortCriterion
		want *source.PublicationOrder
	}{
		{nil, nil},
		{&PublicationSortCriterion{Direction: ptr(SortDirectionDesc)}, nil}, // no field: by nr
		{&PublicationSortCriterion{Field: ptr(PublicationFieldAbstract)}, &source.PublicationOrder{Field: source.Abstract}},
		{&PublicationSortCriterion{Field: ptr(PublicationFieldTitle), Direction: ptr(SortDirectionDesc)}, &source.PublicationOrder{Field: source.Title, Desc: true}},
	} {
		if got := publicationOrder(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: got %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestNr(t *testing.T) {
	for _, c := range []struct {
		in   any
		want int64
		err  bool
	}{
		{"42", 42, false}, {"-3", -3, false}, {42, 42, false}, {int64(9007199254740993), 9007199254740993, false},
		{json.Number("17"), 17, false}, {float64(5), 5, false},
		{"", 0, true}, {"4.0", 0, true}, {"0x10", 0, true}, {"99999999999999999999", 0, true}, {1.5, 0, true}, {true, 0, true}, {nil, 0, true},
	} {
		got, err := UnmarshalNr(c.in)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("UnmarshalNr(%#v) = %d, %v", c.in, got, err)
		}
	}
	var b bytes.Buffer
	MarshalNr(-1234567890123).MarshalGQL(&b)
	if b.String() != `"-1234567890123"` {
		t.Errorf("MarshalNr wrote %s", b.String())
	}
}

// TestGeneratedUpToDate: generated.go was made from the schema and its
// write and remote extensions as they are now (run `go generate
// ./server/graph` after changing them).
func TestGeneratedUpToDate(t *testing.T) {
	if len(sources) != 4 || sources[0].Input != workload.SchemaSource() || sources[1].Input != workload.WritesSource() ||
		sources[2].Input != workload.RemoteSource() || sources[3].Input != workload.SubscriptionsSource() {
		t.Fatal("generated.go is not generated from the current workload/schema.graphql, writes.graphql, remote.graphql and subscriptions.graphql: run `go generate ./server/graph`")
	}
	if !strings.HasSuffix(sources[0].Name, "workload/schema.graphql") || !strings.HasSuffix(sources[1].Name, "workload/writes.graphql") || !strings.HasSuffix(sources[3].Name, "workload/subscriptions.graphql") ||
		!strings.HasSuffix(sources[2].Name, "workload/remote.graphql") {
		t.Fatalf("generated from %s, %s and %s", sources[0].Name, sources[1].Name, sources[2].Name)
	}
}

func TestAggregate(t *testing.T) {
	if got := aggregate(source.Aggregate{}); got.Count != 0 || *got.Age != (AgeAggregationOfUgStudents{}) {
		t.Errorf("over no students: %+v %+v", got, got.Age)
	}
	if got := aggregate(source.Aggregate{Count: 3, Sum: 64, Min: 20, Max: 23}); got.Age.Avg != 64.0/3 || got.Age.Sum != 64 {
		t.Errorf("got %+v", got.Age)
	}
}

package graph

import (
	"fmt"

	"github.com/gqlbench/gqlbench/server/source"
)

// Every conversion of GraphQL arguments into the Source's normal forms is
// here, so that all variants interpret the schema's inputs alike.

// argError is an error in a field's arguments: a field error of a request
// that executes (HTTP 200), never a server failure.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErrorf(format string, a ...any) error { return &argError{fmt.Sprintf(format, a...)} }

// page converts a limit or offset argument: nil stays nil; a negative value
// is an error.
func page(name string, v *int64) (*int, error) {
	if v == nil {
		return nil, nil
	}
	if *v < 0 {
		return nil, argErrorf("%s must not be negative, got %d", name, *v)
	}
	n := int(*v)
	return &n, nil
}

// gradWhere flattens w into a conjunction: the conditions of w itself,
// then those of its AND elements, nested at any depth. Null or absent
// conditions are dropped. ok is false when a condition can never hold: a
// StringMatching or NumberMatching whose criterion or pattern is null (the
// schema: "a null value never matches"), so the list is empty.
func gradWhere(w *GraduateStudentWhereInput) (where source.GradWhere, ok bool) {
	ok = true
	var walk func(w *GraduateStudentWhereInput)
	walk = func(w *GraduateStudentWhereInput) {
		if w == nil {
			return
		}
		if a := w.Advisor; a != nil {
			if a.Nr != nil {
				where = append(where, source.GradCond{Kind: source.AdvisorIs, Int: *a.Nr})
			}
			if a.ResearchInterest != nil {
				m, valid := stringMatch(a.ResearchInterest)
				ok = ok && valid
				where = append(where, source.GradCond{Kind: source.AdvisorInterest, String: m})
			}
		}
		if u := w.University; u != nil && u.Nr != nil {
			where = append(where, source.GradCond{Kind: source.UniversityIs, Int: *u.Nr})
		}
		if n := w.Age; n != nil {
			m, valid := numberMatch(n)
			ok = ok && valid
			where = append(where, source.GradCond{Kind: source.AgeMatches, Number: m})
		}
		for _, and := range w.And {
			walk(and)
		}
	}
	walk(w)
	return where, ok
}

var stringCriteria = map[StringCriterion]source.StringCriterion{
	StringCriterionContains:  source.Contains,
	StringCriterionStartWith: source.StartsWith,
	StringCriterionEndWith:   source.EndsWith,
	StringCriterionEquals:    source.Equals,
}

// stringMatch converts a StringMatching; valid is false when its criterion
// or pattern is null.
func stringMatch(m *StringMatching) (sm source.StringMatch, valid bool) {
	if m.Criterion == nil || m.Pattern == nil {
		return sm, false
	}
	return source.StringMatch{Criterion: stringCriteria[*m.Criterion], Pattern: *m.Pattern}, true
}

var numberCriteria = map[NumberCriterion]source.NumberCriterion{
	NumberCriterionMorethan: source.MoreThan,
	NumberCriterionLessthan: source.LessThan,
	NumberCriterionEquals:   source.NumberEquals,
}

// numberMatch converts a NumberMatching; valid is false when its criterion
// or pattern is null.
func numberMatch(m *NumberMatching) (nm source.NumberMatch, valid bool) {
	if m.Criterion == nil || m.Pattern == nil {
		return nm, false
	}
	return source.NumberMatch{Criterion: numberCriteria[*m.Criterion], Pattern: *m.Pattern}, true
}

var gradFields = map[GraduateStudentField]source.GradField{
	GraduateStudentFieldID:                      source.GradByID,
	GraduateStudentFieldTelephone:               source.GradByTelephone,
	GraduateStudentFieldEmailAddress:            source.GradByEmailAddress,
	GraduateStudentFieldMemberOf:                source.GradByMemberOf,
	GraduateStudentFieldUndergraduateDegreeFrom: source.GradByUGDegree,
	GraduateStudentFieldAdvisor:                 source.GradByAdvisor,
}

// gradOrder converts an order argument; null elements are dropped.
func gradOrder(order []*GraduateStudentField) []source.GradField {
	var out []source.GradField
	for _, f := range order {
		if f != nil {
			out = append(out, gradFields[*f])
		}
	}
	return out
}

// gradQuery converts the arguments of a graduate student list. ok is false
// when where can never hold.
func gradQuery(where *GraduateStudentWhereInput, limit, offset *int64, order []*GraduateStudentField) (q source.GradQuery, ok bool, err error) {
	if q.Limit, err = page("limit", limit); err != nil {
		return q, false, err
	}
	if q.Offset, err = page("offset", offset); err != nil {
		return q, false, err
	}
	q.Where, ok = gradWhere(where)
	q.Order = gradOrder(order)
	return q, ok, nil
}

var publicationFields = map[PublicationField]source.PublicationField{
	PublicationFieldTitle:    source.Title,
	PublicationFieldAbstract: source.Abstract,
}

// publicationOrder converts a PublicationSortCriterion: by nr alone when it
// or its field is null; ascending when its direction is null.
func publicationOrder(o *PublicationSortCriterion) *source.PublicationOrder {
	if o == nil || o.Field == nil {
		return nil
	}
	return &source.PublicationOrder{
		Field: publicationFields[*o.Field],
		Desc:  o.Direction != nil && *o.Direction == SortDirectionDesc,
	}
}

// worksFor converts a FacultyWhereInput into the department filter of
// Source.FacultyByDegree: nil when absent.
func worksFor(w *FacultyWhereInput) *int64 {
	if w == nil || w.WorksFor == nil {
		return nil
	}
	return w.WorksFor.Nr
}

// aggregate converts the Source's age aggregates: avg = sum/count, 0 over
// no students.
func aggregate(a source.Aggregate) *AggregateUgStudents {
	avg := 0.0
	if a.Count > 0 {
		avg = float64(a.Sum) / float64(a.Count)
	}
	return &AggregateUgStudents{
		Count: a.Count,
		Age:   &AgeAggregationOfUgStudents{Sum: float64(a.Sum), Avg: avg, Max: float64(a.Max), Min: float64(a.Min)},
	}
}

package task

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/workload"
)

// Selections of seed 004's display: a graduate student and its advisor,
// every field of each (GraphQL's every scalar and every to-one relation's
// id: what a REST representation holds).
const (
	studentAll   = "id telephone emailAddress age memberOf { id } undergraduateDegreeFrom { id }"
	professorAll = "id telephone emailAddress researchInterest profType undergraduateDegreeFrom { id } masterDegreeFrom { id } doctoralDegreeFrom { id } worksFor { id }"
)

// The same as REST keeps them: references selected as {id}.
var (
	studentKeep   = []string{"id", "telephone", "emailAddress", "age", "memberOf.id", "undergraduateDegreeFrom.id"}
	professorKeep = []string{"id", "telephone", "emailAddress", "researchInterest", "profType",
		"undergraduateDegreeFrom.id", "masterDegreeFrom.id", "doctoralDegreeFrom.id", "worksFor.id"}
)

// display makes seed 004's three display cases at each number of records:
// the first n graduate students (by id) with their advisors.
func display(records []int) ([]task, error) {
	var out []task
	for _, n := range records {
		if n < 1 {
			return nil, fmt.Errorf("a display of %d records", n)
		}
		vars := map[string]any{"n": n}
		advisorAll := make([]string, len(professorKeep))
		for i, k := range professorKeep {
			advisorAll[i] = "advisor." + k
		}
		cases := []struct {
			label, query string
			plan         queryfile.Call
		}{
			{ // REST's one endpoint returns everything; GraphQL asks for exactly what is shown
				"display-overfetch", "query DisplayOverfetch($n: Int!) { graduateStudents(limit: $n) { id emailAddress advisor { id emailAddress } } }",
				get("/rest/graduateStudents?limit={n}&embed=advisor", "graduateStudents", keep("id", "emailAddress", "advisor.id", "advisor.emailAddress")),
			},
			{ // both fetch everything
				"display-all", "query DisplayAll($n: Int!) { graduateStudents(limit: $n) { " + studentAll + " advisor { " + professorAll + " } } }",
				get("/rest/graduateStudents?limit={n}&embed=advisor", "graduateStudents", append(keep(studentKeep...), advisorAll...)),
			},
			{ // REST: one endpoint per resource, called per student; GraphQL: one query
				"display-endpoints", "query DisplayEndpoints($n: Int!) { graduateStudents(limit: $n) { id emailAddress " +
					"advisor { id emailAddress researchInterest } takeGraduateCourses { id teachedby { id } } } }",
				get("/rest/graduateStudents?limit={n}", "graduateStudents", keep("id", "emailAddress"),
					get("/rest/professors/{.advisor}", "advisor", keep("id", "emailAddress", "researchInterest")),
					get("/rest/graduateStudents/{.id}/takeGraduateCourses", "takeGraduateCourses", keep("id", "teachedby.id"))),
			},
		}
		for _, c := range cases {
			t, err := newTask(fmt.Sprintf("%s-%d", c.label, n), 1, c.query, vars, c.plan)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// lingbmTemplates are the LinGBM templates with a natural REST plan.
var lingbmTemplates = []int{1, 2, 3, 7, 11}

// lingbmPlan is the REST plan of a LinGBM template, over its variables.
func lingbmPlan(template int) queryfile.Call {
	switch template {
	case 1: // a hop, then a list
		return get("/rest/faculty/{facultyID}", "faculty", none,
			get("/rest/universities/{.doctoralDegreeFrom}/undergraduateDegreeObtainedBystudent",
				"doctoralDegreeFrom.undergraduateDegreeObtainedBystudent", keep("id", "emailAddress")))
	case 2: // a list, then a list per element: client-side N+1
		return get("/rest/universities/{universityID}/doctoralDegreeObtainers", "university.doctoralDegreeObtainers", none,
			get("/rest/faculty/{.id}/publications", "publications", keep("title")))
	case 3: // three hops in a row
		return get("/rest/researchGroups/{researchGroupID}", "researchGroup", none,
			get("/rest/departments/{.subOrganizationOf}", "subOrganizationOf", none,
				get("/rest/professors/{.head}", "head", keep("id", "emailAddress", "doctoralDegreeFrom.id"))))
	case 7: // a page
		return get("/rest/universities/{universityID}/undergraduateDegreeObtainedBystudent?limit=10&offset={offset}",
			"university.undergraduateDegreeObtainedBystudent", keep("advisor.id"))
	case 11: // the students of a university: a list endpoint filters what GraphQL's where does
		return get("/rest/universities/{universityID}/undergraduateDegreeObtainedBystudent", "graduateStudents", keep("id", "advisor.id"))
	}
	panic(fmt.Sprintf("task: no REST plan for QT%d", template))
}

// lingbm makes the LinGBM-derived tasks: per template, perTemplate of its
// instances (as gqlbench queries draws them), each with its REST plan.
func lingbm(meta *dataset.Meta, perTemplate int, seed uint64) ([]task, error) {
	inst, err := workload.Generate(meta, workload.Options{PerTemplate: perTemplate, Templates: lingbmTemplates, Seed: seed})
	if err != nil {
		return nil, err
	}
	out := make([]task, len(inst))
	for i, in := range inst {
		tmpl, err := workload.TemplateByID(in.Template)
		if err != nil {
			return nil, err
		}
		var ord int
		fmt.Sscanf(strings.TrimPrefix(in.ID, tmpl.Name+"-"), "%d", &ord)
		if out[i], err = newTask(tmpl.Name, ord, in.Query, in.Variables, lingbmPlan(in.Template)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SandboxAuthor is the main author of every publication the write tasks
// create: the sandbox professor, the first id of the servers' reserved
// range (10^15), which no generated row refers to.
const SandboxAuthor = "1000000000000000"

// crud makes seed 001's CRUD tasks: crud-read, a faculty member's
// publications (perTemplate members, drawn without repetition), and with
// writes crud-create, perTemplate new publications.
func crud(meta *dataset.Meta, perTemplate int, seed uint64, writes bool) ([]task, error) {
	ids := meta.IDs["facultyID"]
	if len(ids) == 0 {
		return nil, fmt.Errorf("the metadata lists no faculty")
	}
	r := rand.New(rand.NewPCG(seed, 0xc0d))
	pick := r.Perm(len(ids))[:min(perTemplate, len(ids))]
	var out []task
	for k, i := range pick {
		t, err := newTask("crud-read", k+1, "query CrudRead($facultyID: ID!) { faculty(nr: $facultyID) { publications { id title abstract } } }",
			map[string]any{"facultyID": fmt.Sprint(ids[i])},
			get("/rest/faculty/{facultyID}/publications", "faculty.publications", keep("id", "title", "abstract")))
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if !writes {
		return out, nil
	}
	for k := range perTemplate {
		title := fmt.Sprintf("gqlbench task %04d", k+1)
		abstract := "a publication the benchmark writes, in its reserved range"
		t, err := newTask("crud-create", k+1, "mutation CrudCreate($input: CreatePublicationInput!) { createPublication(input: $input) { title abstract } }",
			map[string]any{"input": map[string]any{"title": title, "abstract": abstract, "mainAuthor": SandboxAuthor}},
			queryfile.Call{Method: "POST", Path: "/rest/publications", Body: []byte(`"{input}"`), Status: 201,
				As: "createPublication", Keep: keep("title", "abstract")})
		if err != nil {
			return nil, err
		}
		t.answer = fmt.Appendf(nil, `{"createPublication":{"title":%q,"abstract":%q}}`, title, abstract)
		out = append(out, t)
	}
	for k := range perTemplate {
		t, err := crudCycle(k + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// The GraphQL steps of crud-cycle: a create, a read, an update and a
// delete of one publication, each a request of its own.
const (
	cycleCreate = "mutation CrudCycleCreate($input: CreatePublicationInput!) { createPublication(input: $input) { id title abstract } }"
	cycleRead   = "query CrudCycleRead($nr: ID!) { publication(nr: $nr) { id title abstract } }"
	cycleUpdate = "mutation CrudCycleUpdate($nr: ID!, $update: UpdatePublicationInput!) { updatePublication(nr: $nr, input: $update) { id title abstract } }"
	cycleDelete = "mutation CrudCycleDelete($nr: ID!) { deletePublication(nr: $nr) { id } }"
)

// crudCycle is seed 001's CRUD mix as one task: a publication created,
// read back, its title changed and deleted, each operation after the one
// before, the id the server chose in every later one — REST's POST, GET,
// PATCH and DELETE; GraphQL's four requests (GraphQL steps: one request
// cannot take the id its own mutation chooses). It leaves the database as
// it was; its right answer is what it writes.
func crudCycle(ordinal int) (task, error) {
	title, changed := fmt.Sprintf("gqlbench cycle %04d", ordinal), fmt.Sprintf("gqlbench cycle %04d, changed", ordinal)
	abstract := "a publication the benchmark writes, reads, changes and deletes, in its reserved range"
	vars := map[string]any{"input": map[string]any{"title": title, "abstract": abstract, "mainAuthor": SandboxAuthor},
		"update": map[string]any{"title": changed}}
	shown := keep("title", "abstract")
	t, err := newTask("crud-cycle", ordinal, "", vars,
		queryfile.Call{Method: "POST", Path: "/rest/publications", Body: []byte(`"{input}"`), Status: 201, As: "created", Keep: shown, Then: []queryfile.Call{
			get("/rest/publications/{.id}", "read", shown,
				queryfile.Call{Method: "PATCH", Path: "/rest/publications/{.id}", Body: []byte(`"{update}"`), As: "updated", Keep: shown, Then: []queryfile.Call{
					{Method: "DELETE", Path: "/rest/publications/{.id}", Status: 204}}})}})
	if err != nil {
		return task{}, err
	}
	step := func(query, vars, from, as string, then ...queryfile.Call) queryfile.Call {
		c := queryfile.Call{Query: query, Body: []byte(vars), From: from, As: as, Then: then}
		if as != "" {
			c.Keep = shown
		}
		return c
	}
	t.entry.GraphQLPlan = queryfile.Plan{step(cycleCreate, `{"input":"{input}"}`, "createPublication", "created",
		step(cycleRead, `{"nr":"{.id}"}`, "publication", "read",
			step(cycleUpdate, `{"nr":"{.id}","update":"{update}"}`, "updatePublication", "updated",
				step(cycleDelete, `{"nr":"{.id}"}`, "", ""))))}
	t.answer = fmt.Appendf(nil, `{"created":{"title":%q,"abstract":%[3]q,"read":{"title":%[1]q,"abstract":%[3]q,"updated":{"title":%[2]q,"abstract":%[3]q}}}}`,
		title, changed, abstract)
	return t, nil
}

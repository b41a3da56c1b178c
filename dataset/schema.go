package dataset

// Kind is the type of a column's values.
type Kind uint8

const (
	// Int columns hold 64-bit integers (every id and every age).
	Int Kind = iota
	// Text columns hold strings; Column.Size gives the varchar length (0: unbounded).
	Text
)

// Column is one column of a table.
type Column struct {
	Name string
	Kind Kind
	Size int // varchar length for Text columns; 0 means unbounded text
}

// ForeignKey says that Column refers to RefTable.RefColumn.
type ForeignKey struct {
	Column    string
	RefTable  string
	RefColumn string
}

// Table is one of LinGBM's 14 relational tables. Names are LinGBM's, unquoted
// camelCase (PostgreSQL folds them to lower case, SQLite keeps them as written).
type Table struct {
	ID      TableID
	Name    string
	Columns []Column
	Key     []string     // primary key columns
	Refs    []ForeignKey // foreign keys, indexed by default
}

// TableID indexes Tables.
type TableID int

// The tables, in LinGBM's order.
const (
	University TableID = iota
	Department
	ResearchGroup
	Faculty
	Professor
	Lecturer
	GraduateStudent
	UndergraduateStudent
	UndergraduateCourse
	GraduateCourse
	Publication
	CoAuthorOfPublication
	GraduateStudentTakeCourse
	UndergraduateStudentTakeCourse
	NumTables int = iota
)

func ints(names ...string) []Column {
	cs := make([]Column, len(names))
	for i, n := range names {
		cs[i] = Column{Name: n, Kind: Int}
	}
	return cs
}

func text(name string, size int) Column { return Column{Name: name, Kind: Text, Size: size} }

func fk(col, table string) ForeignKey {
	return ForeignKey{Column: col, RefTable: table, RefColumn: "nr"}
}

// Tables lists the schema of Appendix A of DESIGN.md: LinGBM's tables with 64-bit ids.
var Tables = [NumTables]*Table{
	{ID: University, Name: "university", Key: []string{"nr"},
		Columns: append(ints("nr"), text("name", 25))},
	{ID: Department, Name: "department", Key: []string{"nr"},
		Columns: []Column{{Name: "nr"}, text("name", 25), {Name: "subOrganizationOf"}},
		Refs:    []ForeignKey{fk("subOrganizationOf", "university")}},
	{ID: ResearchGroup, Name: "researchGroup", Key: []string{"nr"},
		Columns: ints("nr", "subOrganizationOf"),
		Refs:    []ForeignKey{fk("subOrganizationOf", "department")}},
	{ID: Faculty, Name: "faculty", Key: []string{"nr"},
		Columns: append([]Column{{Name: "nr"}, text("name", 25), text("telephone", 100), text("emailAddress", 0)},
			ints("undergraduateDegreeFrom", "masterDegreeFrom", "doctoralDegreeFrom", "worksFor")...),
		Refs: []ForeignKey{fk("undergraduateDegreeFrom", "university"), fk("masterDegreeFrom", "university"),
			fk("doctoralDegreeFrom", "university"), fk("worksFor", "department")}},
	{ID: Professor, Name: "professor", Key: []string{"nr"},
		Columns: []Column{{Name: "nr"}, text("professorType", 100), text("researchInterest", 100), {Name: "headOf"}},
		Refs:    []ForeignKey{fk("nr", "faculty"), fk("headOf", "department")}},
	{ID: Lecturer, Name: "lecturer", Key: []string{"nr"},
		Columns: ints("nr"),
		Refs:    []ForeignKey{fk("nr", "faculty")}},
	{ID: GraduateStudent, Name: "graduateStudent", Key: []string{"nr"},
		Columns: append([]Column{{Name: "nr"}, text("name", 25), text("telephone", 100), text("emailAddress", 0)},
			ints("age", "undergraduateDegreeFrom", "advisor", "memberOf")...),
		Refs: []ForeignKey{fk("undergraduateDegreeFrom", "university"), fk("advisor", "professor"), fk("memberOf", "department")}},
	{ID: UndergraduateStudent, Name: "undergraduateStudent", Key: []string{"nr"},
		Columns: append([]Column{{Name: "nr"}, text("name", 25), text("telephone", 100), text("emailAddress", 0)},
			ints("age", "advisor", "memberOf")...),
		Refs: []ForeignKey{fk("advisor", "professor"), fk("memberOf", "department")}},
	{ID: UndergraduateCourse, Name: "undergraduateCourse", Key: []string{"nr"},
		Columns: []Column{{Name: "nr"}, text("name", 25), {Name: "teacher"}, {Name: "teachingAssistant"}},
		Refs:    []ForeignKey{fk("teacher", "faculty"), fk("teachingAssistant", "graduateStudent")}},
	{ID: GraduateCourse, Name: "graduateCourse", Key: []string{"nr"},
		Columns: []Column{{Name: "nr"}, text("name", 25), {Name: "teacher"}},
		Refs:    []ForeignKey{fk("teacher", "faculty")}},
	{ID: Publication, Name: "publication", Key: []string{"nr"},
		Columns: []Column{{Name: "nr"}, text("name", 25), text("title", 100), text("abstract", 250), {Name: "mainAuthor"}},
		Refs:    []ForeignKey{fk("mainAuthor", "faculty")}},
	{ID: CoAuthorOfPublication, Name: "coAuthorOfPublication", Key: []string{"publicationID", "graduateStudentID"},
		Columns: ints("publicationID", "graduateStudentID"),
		Refs:    []ForeignKey{fk("publicationID", "publication"), fk("graduateStudentID", "graduateStudent")}},
	{ID: GraduateStudentTakeCourse, Name: "graduateStudentTakeCourse", Key: []string{"graduateStudentID", "graduateCourseID"},
		Columns: ints("graduateStudentID", "graduateCourseID"),
		Refs:    []ForeignKey{fk("graduateStudentID", "graduateStudent"), fk("graduateCourseID", "graduateCourse")}},
	{ID: UndergraduateStudentTakeCourse, Name: "undergraduateStudentTakeCourse", Key: []string{"undergraduateStudentID", "undergraduateCourseID"},
		Columns: ints("undergraduateStudentID", "undergraduateCourseID"),
		Refs:    []ForeignKey{fk("undergraduateStudentID", "undergraduateStudent"), fk("undergraduateCourseID", "undergraduateCourse")}},
}

// TableByName returns the table with the given name, compared case-insensitively
// (PostgreSQL folds LinGBM's camelCase names), or nil.
func TableByName(name string) *Table {
	for _, t := range Tables {
		if equalFold(t.Name, name) {
			return t
		}
	}
	return nil
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

package dataset

import "testing"

// TestReservedAboveGenerated: no generated row holds an nr (or a reference)
// in the reserved range, at a real scale factor and by the nr encoding at
// the largest supported one, so written rows can never meet generated ones.
func TestReservedAboveGenerated(t *testing.T) {
	all := collect(t, Config{Seed: 3, Scale: 2})
	var largest int64
	for i, rows := range all {
		for _, row := range rows {
			for j, c := range Tables[i].Columns {
				if c.Kind == Int && c.Name != "age" && !row[j].Null {
					largest = max(largest, row[j].I)
				}
			}
		}
	}
	if largest == 0 || IsReserved(largest) {
		t.Fatalf("largest generated nr %d, reserved range from %d", largest, Reserved)
	}
	// The encoding's ceiling: a department has at most two digits below its
	// university's, a faculty member three below its department's, a
	// student four, a publication two below its faculty member's.
	const maxUniversity = 100000 - 1 // Config.Validate's largest scale factor, minus one
	dept := int64(maxUniversity)*100 + 99
	ceiling := max((dept*1000+999)*100+99, dept*10000+9999)
	if IsReserved(ceiling) || Reserved >= 1<<53 {
		t.Errorf("the nr encoding reaches %d, the reserved range starts at %d (below 2^53: %v)", ceiling, Reserved, Reserved < 1<<53)
	}
	if err := (Config{Scale: maxUniversity + 2}).Validate(); err == nil {
		t.Error("Validate accepts a scale factor beyond the bound this test assumes")
	}
	for _, nr := range []int64{SandboxUniversity, SandboxDepartment, SandboxProfessor, SandboxLecturer} {
		if !IsReserved(nr) {
			t.Errorf("sandbox nr %d is not reserved", nr)
		}
	}
}

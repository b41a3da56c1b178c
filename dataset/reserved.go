package dataset

// The reserved range: every nr from Reserved up belongs to the rows that
// the servers' write APIs (GraphQL mutations, REST POST/PATCH/DELETE)
// create, never to generated data. The generator's largest nr, a
// publication at the largest supported scale factor (100000), is below
// 10^12 (publication = faculty·100 + j, faculty = department·1000 + …,
// department = university·100 + d), so the range can never meet generated
// rows. Reserved is below 2^53, so every nr stays exact in a JavaScript
// number as well.
//
// Written rows refer only to the sandbox, a few fixed rows inside the
// range that no generated row refers to, so that nothing reachable from
// the generated data changes while writes run: a publication's main author
// is a sandbox faculty member, an undergraduate is a member of the sandbox
// department and may be advised by the sandbox professor. The sandbox is
// made by the first write; `gqlbench gen --reset-writes` removes every row
// of the range, sandbox included, and leaves the generated dataset.
const (
	// Reserved is the first nr of the reserved range.
	Reserved int64 = 1_000_000_000_000_000

	// SandboxUniversity is a university of the sandbox (not of the pool:
	// no template draws it).
	SandboxUniversity = Reserved
	// SandboxDepartment is the sandbox university's one department.
	SandboxDepartment = Reserved
	// SandboxProfessor is a full professor of the sandbox department, its
	// head; every degree is from SandboxUniversity.
	SandboxProfessor = Reserved
	// SandboxLecturer is a lecturer of the sandbox department.
	SandboxLecturer = Reserved + 1
)

// IsReserved says whether nr is in the reserved range.
func IsReserved(nr int64) bool { return nr >= Reserved }

package runfile

// Traits are what a run's mode measures and how, written into the header by
// the mode itself so that readers (merge, the report, the experiments) act
// on them and never on the mode's name. A new mode sets its traits and is
// merged and reported with no change here or in the report.
type Traits struct {
	// Order is the mode's place among the modes: reports list conditions
	// of different modes in this order (the order of `gqlbench load --help`).
	Order int `json:"order"`
	// Throughput says that each run is a fixed window whose completed
	// requests per second are a sample of throughput (aTPt).
	Throughput bool `json:"throughput,omitempty"`
	// Curve says how the run gives points of latency against throughput:
	// CurveSteps, one per step line; CurveRate, one per run at the
	// header's rate; "": none.
	Curve string `json:"curve,omitempty"`
	// PerQuery says that the run writes query lines: each query's mean
	// times over passes (aQETq), no throughput.
	PerQuery bool `json:"per_query,omitempty"`
	// Corrected says that latency is measured from each request's intended
	// send time (coordinated omission corrected) beside the QET.
	Corrected bool `json:"corrected,omitempty"`
	// SLOAtEnd says that an SLO is checked over the whole run at its end
	// (and again over merged runs); modes whose SLO steers the run check
	// it themselves.
	SLOAtEnd bool `json:"slo_at_end,omitempty"`
	// Users says that the run's summary follows the users added over its
	// intervals (a ramp), recomputed from the intervals when merged.
	Users bool `json:"users,omitempty"`
}

// The ways a mode draws its latency–throughput curve (Traits.Curve).
const (
	CurveSteps = "steps"
	CurveRate  = "rate"
)

// ModeTraits returns the traits of the header's mode: the header's own, or,
// in a file written before modes recorded them, the traits of the built-in
// mode of that name (the one place that knows modes by name, for those
// files only).
func (h *Header) ModeTraits() Traits {
	if h.Traits != nil {
		return *h.Traits
	}
	return legacyTraits[h.Mode]
}

// legacyTraits are the built-in modes' traits as they were when run files
// did not record them.
var legacyTraits = map[string]Traits{
	"closed":     {Order: 1, Throughput: true, SLOAtEnd: true},
	"sequential": {Order: 2, PerQuery: true, SLOAtEnd: true},
	"open":       {Order: 3, Throughput: true, Curve: CurveRate, Corrected: true, SLOAtEnd: true},
	"ramp":       {Order: 4, Users: true},
	"capacity":   {Order: 5, Curve: CurveSteps, Corrected: true},
	"paired":     {Order: 6, SLOAtEnd: true},
}

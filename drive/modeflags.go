package drive

import (
	"strconv"
	"time"
)

// Params are the modes' parameters as load's flags give them, each field
// named after its flag: the CLI and the experiments fill them, and a mode
// takes the ones it uses (ModeSpec.Params) into its settings
// (ModeSpec.Settings), leaving the rest.
type Params struct {
	Clients, Connections int
	Duration             time.Duration
	Runs                 int     // --runs N
	CI                   float64 // --runs auto: --ci, --max-runs
	MaxRuns              int
	Think                time.Duration
	Passes, WarmupPasses int
	Rate                 float64
	Poisson              bool // --arrival poisson
	MaxLate              time.Duration
	MinOnTime            float64
	RampRate             float64
	MaxClients           int
	MaxRate, Precision   float64
	MaxSteps             int
	Group                int
}

// Flags returns the mode's parameters that c sets, as `gqlbench load` flags
// would give them (name → value): what a program that builds a Config
// itself, such as an experiment, records as the run's flags. Parameters at
// their zero value, --late when calibrated and parameters that are no
// setting (--paired-target) are left out.
func (s *ModeSpec) Flags(c Config) map[string]string {
	out := map[string]string{"mode": string(s.Name)}
	add := func(param, value string) {
		if value != "" {
			out[param] = value
		}
	}
	if c.Settings != nil {
		c.Settings.flags(add)
	}
	if s.Uses("late") && !c.LateAuto {
		add("late", flagDur(c.Late))
	}
	return out
}

func flagInt(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func flagFloat(x float64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func flagDur(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

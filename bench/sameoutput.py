#!/usr/bin/env python3
"""bench/sameoutput.py — are two result directories the same except for measured numbers?

    bench/sameoutput.py OLD_DIR NEW_DIR [OLD_BIN NEW_BIN]

Compares every run file (*.jsonl under runs/ or beside the reports) and every report
(report.md, report.json, report.html) of two result directories written by the same command
(quickstart, or an experiment's --dir) with two builds of gqlbench. What may differ is what was
measured; what must not is everything else:

  run files  the header line exactly (the command, flags, labels, target, queries file and its
             sha256, mode, params, traits, histogram), except where the build or the moment
             shows: tool version and commit, generator (host/pid), machine, start time, watched
             pids, ports and the results directory's path. Every other line by its shape: which
             line types occur, with which members, every number replaced by 0 except run and
             step numbers and the wrong/errors counts, which must match (0 on a correct server).
  reports    the report is a function of the run files: with OLD_BIN and NEW_BIN given, each
             build renders every runs/ directory of OLD_DIR (HTML, Markdown, JSON, CSV) and
             the two must be equal byte for byte, the build's version aside. Without them,
             the reports of the two directories are compared as text with every number
             replaced by N (measured words — a winner, a ≈ — may then differ).

Prints each difference (at most 20 per file) and exits 1 when there is one; 0 when the two
directories differ only in measured numbers. bench/sameoutput.sh runs the commands.
"""
import json
import os
import re
import subprocess
import sys

KEEP_NUMBERS = {"run", "step", "wrong", "errors", "warmup"}
# Members whose presence itself is measured: a tail interval (requests in flight when the
# window closed), an interval collected late, the count of those.
TIMED = {"tail", "collected_late_ns", "late_intervals"}
VOLATILE_HEADER = {"generator", "machine", "start"}
PORT = re.compile(r"127\.0\.0\.1:\d+")
NUMBER = re.compile(r"[-+]?\d[\d,]*(\.\d+)?([eE][-+]?\d+)?")
HIST = re.compile(r"HISTF[A-Za-z0-9+/=]+")


def scrub(s, root):
    s = s.replace(root, "DIR")
    s = PORT.sub("127.0.0.1:PORT", s)
    return s


def header(obj, root):
    obj = dict(obj)
    for k in VOLATILE_HEADER:
        obj.pop(k, None)
    tool = dict(obj.get("tool", {}))
    for k in ("version", "commit", "go"):
        tool.pop(k, None)
    obj["tool"] = tool
    obj["watch"] = [{"name": "W"} for _ in obj.get("watch", [])]
    return json.loads(scrub(json.dumps(obj, sort_keys=True), root))


def shape(v, key=None):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, (int, float)):
        return v if key in KEEP_NUMBERS else 0
    if isinstance(v, str):
        return "H" if v.startswith("HISTF") else ("T" if key in ("end", "start") else v)
    if isinstance(v, list):
        return [shape(x, key) for x in v]
    return {k: shape(x, k) for k, x in v.items() if k not in TIMED}


def runfile(path, root):
    out = []
    seen = set()
    with open(path) as f:
        for i, line in enumerate(f):
            obj = json.loads(line)
            if obj.get("type") == "header":
                out.append(json.dumps(header(obj, root), sort_keys=True))
                continue
            if obj.get("type") == "interval":
                # how many intervals a run has depends on timing: their shapes, as a set
                obj = {k: v for k, v in obj.items() if k not in ("run", "index")}
            s = json.dumps(shape(obj), sort_keys=True)
            if obj.get("type") == "interval":
                s = scrub(s, root)
                if s in seen:
                    continue
                seen.add(s)
            out.append(scrub(s, root))
    head, rest = out[:1], out[1:]
    return head + sorted(set(rest))


def text(path, root):
    with open(path, errors="replace") as f:
        s = f.read()
    s = scrub(s, root)
    s = HIST.sub("H", s)
    s = NUMBER.sub("N", s)
    return s.splitlines()


def files(root):
    got = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            if n.endswith(".jsonl") and not rel.startswith("queries"):
                got[rel] = runfile
            elif n in ("report.md", "report.json", "report.html"):
                got[rel] = text
    return got


def render(binary, runs, fmt):
    files = sorted(os.path.join(runs, n) for n in os.listdir(runs) if n.endswith(".jsonl"))
    out = subprocess.run([binary, "report", "--quiet", "--format", fmt] + files,
                         capture_output=True, check=False)
    if out.returncode not in (0, 3):
        sys.exit(f"{binary} report {runs}: exit {out.returncode}: {out.stderr.decode()[-500:]}")
    return out.stdout.decode(errors="replace")


def reports(old_bin, new_bin, root):
    """Every runs/ directory under root rendered by both builds: the differences."""
    diffs = 0
    version = re.compile(r"gqlbench[ /]v?[0-9][^\s<\"]*|commit [0-9a-f]{7,40}")
    for d, subdirs, _ in os.walk(root):
        if os.path.basename(d) != "runs":
            continue
        for fmt in ("html", "md", "json", "csv"):
            ro, rn = (version.sub("V", render(b, d, fmt)) for b in (old_bin, new_bin))
            if ro == rn:
                continue
            diffs += 1
            lo, ln = ro.splitlines(), rn.splitlines()
            print(f"report of {os.path.relpath(d, root)} ({fmt}) differs:")
            for x in [x for x in lo if x not in set(ln)][:10]:
                print(f"  - {x[:600]}")
            for x in [x for x in ln if x not in set(lo)][:10]:
                print(f"  + {x[:600]}")
    return diffs


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    a, b = (os.path.abspath(x) for x in sys.argv[1:3])
    fa, fb = files(a), files(b)
    rendered = len(sys.argv) == 5
    if rendered:
        fa = {k: v for k, v in fa.items() if v is runfile}
        fb = {k: v for k, v in fb.items() if v is runfile}
    diffs = 0
    for rel in sorted(set(fa) ^ set(fb)):
        print(f"only in {'old' if rel in fa else 'new'}: {rel}")
        diffs += 1
    for rel in sorted(set(fa) & set(fb)):
        la, lb = fa[rel](os.path.join(a, rel), a), fb[rel](os.path.join(b, rel), b)
        if la == lb:
            continue
        diffs += 1
        ia, ib = set(la), set(lb)
        print(f"{rel}: {len(ia - ib)} lines only in old, {len(ib - ia)} only in new")
        for tag, lines in (("-", [x for x in la if x not in ib]), ("+", [x for x in lb if x not in ia])):
            for x in lines[:10]:
                print(f"  {tag} {x[:600]}")
    n = len(set(fa) & set(fb))
    print(f"{n} files compared, {diffs} differ")
    if rendered:
        r = reports(os.path.abspath(sys.argv[3]), os.path.abspath(sys.argv[4]), a)
        print(f"reports rendered by both builds: {r} differ")
        diffs += r
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()

"""The tables of bench/node.sh: aTPt with the technique ratios, SQL statements
per request, CPU per query, start-up times. Arguments: work dir, sf, run
duration, queries counted, variants, templates (space-separated)."""
import json
import sys

work, sf, dur, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
variants, templates = sys.argv[5].split(), sys.argv[6].split()


def lines(v, t):
    try:
        return [json.loads(l) for l in open(f"{work}/run-{v}-{t}.jsonl")]
    except OSError:
        return None


def tp(v, t):
    """Verified answers/s of the measured run, or None and why not."""
    ls = lines(v, t)
    if ls is None:
        return None, "no run"
    s = [l for l in ls if l.get("type") == "summary"]
    if not s:
        return None, "died"
    tot = s[-1]["total"]
    if tot["errors"] or tot["wrong"]:
        return None, f"{tot['errors']}e {tot['wrong']}w"
    return s[-1]["goodput"]["mean"], ""


def cpu(v, t):
    """CPU µs per completed query of the server and of the database."""
    ls = lines(v, t) or []
    sec, n = [0.0, 0.0], 0
    for iv in ls:
        if iv.get("type") != "interval" or iv["warmup"] or iv.get("tail") or len(iv.get("procs", [])) != 2:
            continue
        d = (iv["end_ns"] - iv["start_ns"]) / 1e9
        for i, p in enumerate(iv["procs"]):
            sec[i] += p["cpu_pct"] / 100 * d
        n += sum(x["count"] for x in iv["templates"].values())
    return (sec[0] / n * 1e6, sec[1] / n * 1e6) if n else None


def cell(x, base):
    if x is None:
        return "—"
    if base:
        return f"{x:.1f} ({x / base:.2f})"
    return f"{x:.1f}"


def base_of(v):
    """The variant a variant's ratio is taken to: its stack's naive."""
    return "node-naive" if v.startswith("node-") else "naive"


print(f"aTPt, sf={sf}: verified answers/s, 1 client, {dur} after a {dur} warm-up; ratio to its stack's naive in ()\n")
print("| QT | " + " | ".join(variants) + " |")
print("|---|" + "---:|" * len(variants))
for t in templates:
    row = []
    for v in variants:
        x, why = tp(v, t)
        b = tp(base_of(v), t)[0] if base_of(v) != v and base_of(v) in variants else None
        row.append(why if x is None else cell(x, b))
    print(f"| {t} | " + " | ".join(row) + " |")

stmts = {}
try:
    for l in open(f"{work}/statements"):
        v, t, n = l.split()
        stmts[(v, t)] = int(n) / int(count)
except OSError:
    pass
print(f"\nSQL statements per GraphQL request (pg_stat_statements, the first {count} queries of each template)\n")
print("| QT | " + " | ".join(variants) + " |")
print("|---|" + "---:|" * len(variants))
for t in templates:
    print(f"| {t} | " + " | ".join(f"{stmts[(v, t)]:.1f}" if (v, t) in stmts else "—" for v in variants) + " |")

print("\nCPU per query, µs: server + database (postmaster and backends), both on core 0\n")
print("| QT | " + " | ".join(variants) + " |")
print("|---|" + "---:|" * len(variants))
for t in templates:
    row = []
    for v in variants:
        c = cpu(v, t)
        row.append("—" if c is None else f"{c[0]:.0f} + {c[1]:.0f}")
    print(f"| {t} | " + " | ".join(row) + " |")

print("\nStart-up (serve to /healthz 200), s:", open(f"{work}/startup").read().replace("\n", "; "))

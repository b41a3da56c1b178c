"""The tables of bench/node.sh: aTPt with the technique ratios, SQL statements
per request, CPU per query, start-up times. Arguments: work dir, sf, run
duration, queries counted, variants, templates (space-separated), rounds.
Each variant's figure on a template is its best round (the most verified
answers/s): on a shared machine, other work only ever slows a run down."""
import json
import sys

work, sf, dur, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
variants, templates, rounds = sys.argv[5].split(), sys.argv[6].split(), int(sys.argv[7])


def lines(v, t, r):
    try:
        return [json.loads(l) for l in open(f"{work}/run-{v}-{t}-{r}.jsonl")]
    except OSError:
        return None


def tp_round(v, t, r):
    """Verified answers/s of round r's measured run, or None and why not."""
    ls = lines(v, t, r)
    if ls is None:
        return None, "no run"
    s = [l for l in ls if l.get("type") == "summary"]
    if not s:
        return None, "died"
    tot = s[-1]["total"]
    if tot["errors"] or tot["wrong"]:
        return None, f"{tot['errors']}e {tot['wrong']}w"
    return s[-1]["goodput"]["mean"], ""


def best(v, t):
    """The round with the most verified answers/s, or None."""
    ok = [(tp_round(v, t, r)[0], r) for r in range(1, rounds + 1)]
    ok = [x for x in ok if x[0] is not None]
    return max(ok)[1] if ok else None


def tp(v, t):
    """Verified answers/s of the best round, or None and why not."""
    r = best(v, t)
    return tp_round(v, t, r) if r else tp_round(v, t, 1)


def spread(v, t):
    """The rounds' answers/s, lowest to highest."""
    xs = [tp_round(v, t, r)[0] for r in range(1, rounds + 1)]
    return sorted(x for x in xs if x is not None)


def cpu(v, t):
    """CPU µs per completed query of the server and of the database, in the best round."""
    r = best(v, t)
    ls = (lines(v, t, r) if r else None) or []
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


print(f"aTPt, sf={sf}: verified answers/s, 1 client, {dur} after a {dur} warm-up, best of {rounds} rounds; ratio to its stack's naive in ()\n")
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

print("\nThe rounds, lowest to highest answers/s:\n")
for t in templates:
    print(f"QT{t}: " + "; ".join(f"{v} " + "/".join(f"{x:.0f}" for x in spread(v, t)) for v in variants))
print("\nStart-up (serve to /healthz 200), s:", open(f"{work}/startup").read().replace("\n", "; "))
print("Load on the machine before and after the rounds:", open(f"{work}/load").read().replace("\n", " | "))

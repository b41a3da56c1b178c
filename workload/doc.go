// Package workload is the benchmark's workload: the LinGBM GraphQL schema
// (schema.graphql), its 16 query templates QT1–QT16 (templates/*.graphql, one
// file each), the generation of query instances from a dataset's metadata, mixed
// workloads, and the files that carry instances between tools: JSON lines
// (queries.jsonl) and LinGBM's own query folders.
//
// A query instance is a template and values for its GraphQL variables; the
// query text never changes (DESIGN §3.2). Instances are drawn uniformly without
// replacement from the cartesian product of the variables' domains (Domain),
// seeded, so the same metadata and seed always give the same instances:
//
//	meta, _ := dataset.ReadMeta(f)
//	inst, _ := workload.Generate(meta, workload.Options{PerTemplate: 100, Seed: 1})
//	workload.WriteJSONL(os.Stdout, inst)
//
// (ExampleGenerate runs it, with metadata built in memory by the generator.)
//
// Every template is validated against the schema when the package loads, and
// every instance read from a file is validated with its variables before use.
package workload

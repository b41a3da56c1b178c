// Package dataset is LinGBM's university dataset as a pure function: the
// schema of its 14 tables (Tables), the generator (Config, Stream), the
// metadata that the query generator draws from (Meta, MetaBuilder) and the
// fingerprint that pins the data (Fingerprint, with golden values per
// generator Version in testdata).
//
// Every row is a function of the seed and its university's index, so the
// same seed gives the same rows, and every row of a scale factor appears
// unchanged at every larger one (LinGBM's R4). Stream generates the
// universities in parallel and hands them to an ordered stage one Batch at a
// time, pool first:
//
//	c := dataset.Config{Seed: 0, Scale: 1}
//	mb := dataset.NewMetaBuilder(c)
//	err := c.Stream(ctx, 0, nil, func(b *dataset.Batch) error { mb.Add(b); return nil })
//	meta := mb.Meta() // what `gqlbench gen --meta` writes, and what store.Fill returns
//
// (ExampleConfig_Stream runs it). Package store writes the rows into a
// database or a file.
package dataset

// Package all imports every reference server variant, so that importing it
// makes the registry (server.Variants) complete. Add a blank import here for
// each new variant package.
package all

import (
	_ "github.com/gqlbench/gqlbench/server/compiled" // one SQL statement per request
	_ "github.com/gqlbench/gqlbench/server/inmem"    // the answer oracle
	_ "github.com/gqlbench/gqlbench/server/null"
	_ "github.com/gqlbench/gqlbench/server/peer/node"         // node-naive, node-memo, node-batch, node-batch-memo: the paper's Node.js stack
	_ "github.com/gqlbench/gqlbench/server/peer/postgraphile" // PostGraphile 5, a server of another stack
	_ "github.com/gqlbench/gqlbench/server/rest"              // the REST API
	_ "github.com/gqlbench/gqlbench/server/sqlsource"         // naive, memo, batch, batch-memo
)

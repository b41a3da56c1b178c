// A validation rule that refuses operations deeper than a limit, counted as
// gqlbench's Go servers count (server/depth.go): the longest chain of
// nested selection sets, fragments expanded (an inline fragment or a spread
// adds no level of its own); a fragment that spreads itself counts as
// infinitely deep.
import { GraphQLError, Kind } from 'graphql';

function depth(set, fragments, visiting) {
  let d = 0;
  for (const sel of set.selections) {
    let n = 0;
    if (sel.kind === Kind.FIELD) {
      n = sel.selectionSet ? 1 + depth(sel.selectionSet, fragments, visiting) : 1;
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      n = depth(sel.selectionSet, fragments, visiting);
    } else { // FRAGMENT_SPREAD
      const name = sel.name.value;
      if (visiting.has(name)) return Infinity;
      const f = fragments.get(name);
      if (!f) continue;
      visiting.add(name);
      n = depth(f.selectionSet, fragments, visiting);
      visiting.delete(name);
    }
    d = Math.max(d, n);
  }
  return d;
}

// maxDepth returns the validation rule for limit.
export function maxDepth(limit) {
  return (context) => {
    const doc = context.getDocument();
    const fragments = new Map();
    for (const def of doc.definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    }
    return {
      OperationDefinition(op) {
        const d = depth(op.selectionSet, fragments, new Set());
        if (d > limit) {
          context.reportError(new GraphQLError(`the query is ${d} levels deep, more than the limit of ${limit}`, { nodes: [op] }));
        }
      },
    };
  };
}

// Apollo tracing (format version 1) as an Apollo Server plugin: every
// answer gets extensions.tracing with the request's duration, its parsing
// and validation phases and one entry per resolver called, in nanoseconds
// from the request's start. Apollo Server 2 had it built in (tracing:
// true); 3 and later dropped it, so the Node servers carry their own, on
// with GQLBENCH_TRACE=1 (gqlbench serve node-* --trace), for gqlbench load
// --layers. A document Apollo finds in its cache is not parsed again: its
// parsing phase is then 0 long.
const now = () => process.hrtime.bigint();

// pathOf is a resolver's path as a list, list indexes as numbers.
function pathOf(p) {
  const out = [];
  for (let x = p; x; x = x.prev) out.push(x.key);
  return out.reverse();
}

export function apolloTracing() {
  return {
    async requestDidStart() {
      const start = now();
      const startTime = new Date();
      const off = () => Number(now() - start);
      let parsing, validation;
      const resolvers = [];
      return {
        async parsingDidStart() {
          const s = off();
          return async () => {
            parsing = { startOffset: s, duration: off() - s };
          };
        },
        async validationDidStart() {
          const s = off();
          return async () => {
            validation = { startOffset: s, duration: off() - s };
          };
        },
        async executionDidStart() {
          return {
            willResolveField({ info }) {
              const s = off();
              return () => {
                resolvers.push({
                  path: pathOf(info.path),
                  parentType: String(info.parentType),
                  fieldName: info.fieldName,
                  returnType: String(info.returnType),
                  startOffset: s,
                  duration: off() - s,
                });
              };
            },
          };
        },
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const duration = off();
          const at = parsing ? parsing.startOffset : 0;
          const result = response.body.singleResult;
          result.extensions = {
            ...(result.extensions ?? {}),
            tracing: {
              version: 1,
              startTime: startTime.toISOString(),
              endTime: new Date().toISOString(),
              duration,
              parsing: parsing ?? { startOffset: at, duration: 0 },
              validation: validation ?? { startOffset: at, duration: 0 },
              execution: { resolvers },
            },
          };
        },
      };
    },
  };
}

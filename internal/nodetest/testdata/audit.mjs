// audit.mjs runs graphql-http's GraphQL-over-HTTP server audits against one
// endpoint and prints a JSON summary on stdout:
//
//	node audit.mjs http://127.0.0.1:4000/graphql
//
//	{"url": ..., "total": 61, "ok": 54, "notice": 4, "warn": 3, "error": 0,
//	 "audits": [{"id": "572B", "name": "SHOULD use 200 ...", "status": "warn",
//	             "reason": "Response status code is not 200",
//	             "httpStatus": 400, "contentType": "...", "body": "..."}, ...]}
//
// Every audit is listed, in graphql-http's order; the response fields are
// filled only for the ones that are not ok. The status is graphql-http's: ok,
// notice (a MAY not met), warn (a SHOULD not met) or error (a MUST not met).
// The audits run one after the other, so the server sees one request at a
// time. Exit status: 0 when the audits ran, whatever they found; 1 when one
// could not run at all (graphql-http throws: the server is not there, the
// connection broke), with the reason on stderr; 2 on wrong usage.
import { serverAudits } from 'graphql-http';

const maxBody = 300; // bytes of a failing response's body kept in the summary

const url = process.argv[2];
if (process.argv.length !== 3 || !/^https?:\/\//.test(url)) {
  process.stderr.write('usage: node audit.mjs http://HOST:PORT/graphql\n');
  process.exit(2);
}

const summary = { url, total: 0, ok: 0, notice: 0, warn: 0, error: 0, audits: [] };
for (const audit of serverAudits({ url })) {
  const entry = await run(audit);
  summary.total++;
  summary[entry.status]++;
  summary.audits.push(entry);
}
process.stdout.write(JSON.stringify(summary) + '\n');

// run performs one audit and describes its outcome.
async function run(audit) {
  let result;
  try {
    result = await audit.fn();
  } catch (err) {
    const cause = err?.cause ? ` (${err.cause.message ?? err.cause})` : '';
    process.stderr.write(`audit ${audit.id} "${audit.name}" could not run against ${url}: ${err}${cause}\n`);
    process.exit(1);
  }
  const entry = { id: result.id, name: result.name, status: result.status };
  if (result.status === 'ok') {
    return entry;
  }
  entry.reason = result.reason;
  const res = result.response;
  if (res) {
    entry.httpStatus = res.status;
    entry.contentType = res.headers.get('content-type') ?? '';
    if (!res.bodyUsed) {
      entry.body = (await res.text()).slice(0, maxBody);
    }
  }
  return entry;
}

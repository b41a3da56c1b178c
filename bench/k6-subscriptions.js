// bench/k6-subscriptions.js — the subscriptions of `gqlbench load --mode subscribe`
// held by k6 (one VU per connection, graphql-transport-ws, K subscriptions of
// publicationAdded each, every `next` counted), for bench/subscriptions.sh to
// compare k6's memory per subscriber with gqlbench's. Environment: URL (ws://…/graphql),
// VUS, K, HOLD (seconds each connection is held), SUMMARY (a file for the counts).
import { WebSocket } from 'k6/websockets';
import { Counter } from 'k6/metrics';

const events = new Counter('events');
const K = Number(__ENV.K || 2);
const HOLD = Number(__ENV.HOLD || 30);
const QUERY = 'subscription { publicationAdded { seq committedAt publication { id title abstract } } }';

export const options = {
  scenarios: {
    subscribers: {
      executor: 'per-vu-iterations', vus: Number(__ENV.VUS || 100), iterations: 1,
      maxDuration: `${HOLD + 120}s`,
    },
  },
};

export default function () {
  const ws = new WebSocket(__ENV.URL, 'graphql-transport-ws');
  ws.onopen = () => ws.send(JSON.stringify({ type: 'connection_init' }));
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === 'connection_ack') {
      for (let k = 0; k < K; k++) ws.send(JSON.stringify({ id: String(k), type: 'subscribe', payload: { query: QUERY } }));
    } else if (m.type === 'ping') {
      ws.send(JSON.stringify({ type: 'pong' }));
    } else if (m.type === 'next') {
      events.add(1);
    }
  };
  setTimeout(() => ws.close(), HOLD * 1000);
}

// handleSummary writes the events received and the connections opened to SUMMARY, so
// the comparison can say whether k6 held every subscription, not only how much memory it took.
export function handleSummary(data) {
  const m = data.metrics;
  const out = {
    events: m.events ? m.events.values.count : 0,
    sessions: m.ws_sessions ? m.ws_sessions.values.count : 0,
  };
  return __ENV.SUMMARY ? { [__ENV.SUMMARY]: JSON.stringify(out) + '\n' } : {};
}

// The visitors of scripts/overload.ts, in a process of their own so that their sockets never delay
// the /healthz polls measured beside them. Arguments: port connections seconds path... Prints one
// JSON line: { times: [ms of each answer], statuses: {status: count}, refusedWithRetryAfter, unanswered, failed }.
import http from "node:http";

const [port, connections, seconds, ...paths] = process.argv.slice(2);
const ANSWER_LIMIT_MS = 10_000;
// A visitor told to come back later waits a moment, as a person (or the proxy) would.
const REFUSED_PAUSE_MS = 1_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const deadline = Date.now() + Number(seconds) * 1000;
const figures = { times: [], statuses: {}, refusedWithRetryAfter: 0, unanswered: 0, failed: 0 };

/** @returns {Promise<number>} the status, 0 when unanswered or failed */
function ask(target, headers) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get({ agent, host: "127.0.0.1", port: Number(port), path: target, headers }, (res) => {
      res.resume();
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        figures.times.push(Math.round(performance.now() - started));
        figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
        if (status === 503 && res.headers["retry-after"] !== undefined) figures.refusedWithRetryAfter++;
        resolve(status);
      });
      res.on("error", () => resolve(0));
    });
    req.setTimeout(ANSWER_LIMIT_MS, () => {
      figures.unanswered++;
      req.destroy();
      resolve(0);
    });
    req.on("error", () => {
      if (!req.destroyed || req.errored) figures.failed++;
      resolve(0);
    });
  });
}

await Promise.all(
  Array.from({ length: Number(connections) }, async (_, visitor) => {
    const headers = { "Fly-Client-IP": `198.18.${Math.floor(visitor / 250)}.${1 + (visitor % 250)}`, Accept: "text/html" };
    for (let i = visitor; Date.now() < deadline; i++) {
      const status = await ask(paths[i % paths.length], headers);
      if (status === 503) await new Promise((resolve) => setTimeout(resolve, REFUSED_PAUSE_MS));
    }
  }),
);
agent.destroy();
process.stdout.write(`${JSON.stringify(figures)}\n`);

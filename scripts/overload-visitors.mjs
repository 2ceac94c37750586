// The visitors of scripts/overload.ts, in a process of their own so that their sockets never delay
// the /healthz polls measured beside them. Arguments: port connections seconds path... Prints one
// JSON line: { times: [ms of each page answer], statuses: {status: count}, refusedWithRetryAfter,
// unanswered, failed, draws }.
// With DRAW_PATH set (a draw form's address) and DRAW_EVERY=n, every n-th request of a visitor is a
// draw as a browser without JavaScript makes it: the form's POST, then the result page its 303 names
// (a 503 there is asked again after its Retry-After, as a person reloading would, at most 3 times).
import http from "node:http";

const [port, connections, seconds, ...paths] = process.argv.slice(2);
const DRAW_PATH = process.env.DRAW_PATH ?? "";
const DRAW_EVERY = Number(process.env.DRAW_EVERY ?? 0);
const ANSWER_LIMIT_MS = 10_000;
// A visitor told to come back later waits a moment, as a person (or the proxy) would.
const REFUSED_PAUSE_MS = 1_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const deadline = Date.now() + Number(seconds) * 1000;
const figures = {
  times: [],
  statuses: {},
  refusedWithRetryAfter: 0,
  unanswered: 0,
  failed: 0,
  draws: {
    /** ms of each draw's answer (the POST's) */
    times: [],
    statuses: {},
    refusedWithRetryAfter: 0,
    unanswered: 0,
    failed: 0,
    /** the result pages a 303 named (`/holy/get-code?draw=<id>.<signature>`), each a draw acknowledged */
    acknowledged: [],
    /** result pages shown (200), at the first ask or after a Retry-After */
    resultShown: 0,
    /** result pages asked again after a 503 */
    resultRetried: 0,
  },
};

/** @returns {Promise<{ status: number, location?: string }>} status 0 when unanswered or failed */
function ask(target, headers, into, method = "GET", body = "") {
  return new Promise((resolve) => {
    const started = performance.now();
    const options = { agent, host: "127.0.0.1", port: Number(port), path: target, method, headers };
    if (body) options.headers = { ...headers, "Content-Length": Buffer.byteLength(body) };
    const req = http.request(options, (res) => {
      res.resume();
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        into.times.push(Math.round(performance.now() - started));
        into.statuses[status] = (into.statuses[status] ?? 0) + 1;
        if (status === 503 && res.headers["retry-after"] !== undefined) into.refusedWithRetryAfter++;
        resolve({ status, location: res.headers.location });
      });
      res.on("error", () => resolve({ status: 0 }));
    });
    req.setTimeout(ANSWER_LIMIT_MS, () => {
      into.unanswered++;
      req.destroy();
      resolve({ status: 0 });
    });
    req.on("error", () => {
      if (!req.destroyed || req.errored) into.failed++;
      resolve({ status: 0 });
    });
    req.end(body || undefined);
  });
}

const pause = () => new Promise((resolve) => setTimeout(resolve, REFUSED_PAUSE_MS));

async function draw(headers) {
  const answer = await ask(
    DRAW_PATH,
    { ...headers, "Content-Type": "application/x-www-form-urlencoded", Origin: `http://127.0.0.1:${port}` },
    figures.draws,
    "POST",
    "intent=draw",
  );
  if (answer.status !== 303 || !answer.location?.includes("?draw=")) return answer.status;
  figures.draws.acknowledged.push(answer.location);
  for (let attempt = 0; attempt < 3; attempt++) {
    const page = await ask(answer.location, headers, figures);
    if (page.status === 200) {
      figures.draws.resultShown++;
      break;
    }
    if (page.status !== 503) break;
    figures.draws.resultRetried++;
    await pause();
  }
  return answer.status;
}

await Promise.all(
  Array.from({ length: Number(connections) }, async (_, visitor) => {
    const headers = { "Fly-Client-IP": `198.18.${Math.floor(visitor / 250)}.${1 + (visitor % 250)}`, Accept: "text/html" };
    for (let i = visitor; Date.now() < deadline; i++) {
      const status =
        DRAW_PATH && DRAW_EVERY > 0 && i % DRAW_EVERY === 0
          ? await draw(headers)
          : (await ask(paths[i % paths.length], headers, figures)).status;
      if (status === 503) await pause();
    }
  }),
);
agent.destroy();
process.stdout.write(`${JSON.stringify(figures)}\n`);

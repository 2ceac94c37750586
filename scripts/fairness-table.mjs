// node scripts/fairness-table.mjs [checkout]: the rows of issue 55's table, measured over HTTP on a
// built checkout (this one by default; another one, built, for the "before"), on a fresh SQLite file,
// addresses set through the proxy header (TRUST_PROXY=1), draw limits at their defaults; past the
// soft bound the script solves the browser step's proof of work (decision 350), as a script can.
// Setup (platforms, codes, serve counts) is written in the database file; everything a visitor, an
// owner or a script does goes over HTTP. Prints one line per row.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";

const root = path.resolve(process.argv[2] ?? ".");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairness-table-"));
const dbFile = path.join(dir, "table.db");

function start() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "build", "server.mjs")], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: "0",
        DATABASE_URL: `file:${dbFile}`,
        SESSION_SECRET: "fairness-table-secret-0123456789",
        UPLOADS_DIR: path.join(dir, "uploads"),
        LOG_REQUESTS: "0",
        PAGE_CACHE_MS: "0",
        READ_CACHE_MS: "0",
        TRUST_PROXY: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ child, url: `http://localhost:${m[1]}` });
    });
    child.stderr.on("data", (c) => (out += c));
    child.once("exit", (code) => reject(new Error(`server exited ${code}\n${out}`)));
  });
}

const { child, url } = await start();
const db = new SQLite(dbFile);
db.pragma("busy_timeout = 5000");
const hasRotation =
  db.prepare("select count(*) as n from pragma_table_info('referral_codes') where name = 'rotation_count'").get().n > 0;

let site = 0;
const visitor = () => `2001:db8:${(++site).toString(16)}::1`;
const post = (p, fields, ip, extra = {}) =>
  fetch(`${url}${p}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url, "Fly-Client-IP": ip, ...extra },
    body: new URLSearchParams(fields).toString(),
  });

/** The soft bound's proof of work (decision 350), as a determined script computes it. */
function solve(challenge) {
  const bits = Number(challenge.split(".")[2]);
  for (let nonce = 0; ; nonce++) {
    const digest = crypto.createHash("sha256").update(`${challenge}:${nonce}`).digest();
    if (digest.readUInt32BE(0) >>> (32 - bits) === 0) return String(nonce);
  }
}
let proofs = 0;

async function draw(slug, ip = visitor()) {
  let res = await post(`/${slug}/get-code`, { intent: "draw" }, ip);
  if (res.status === 403) {
    // Past the soft bound the page asks for the browser step, which the script passes.
    const challenge = /name="draw-proof" value="([^"]+)"/.exec(await res.text())?.[1];
    if (!challenge) return null;
    proofs++;
    res = await post(`/${slug}/get-code`, { intent: "draw", "draw-proof": challenge, "draw-proof-nonce": solve(challenge) }, ip);
  }
  if (res.status !== 303) return null;
  const location = res.headers.get("location");
  const id = Number(/[?&]draw=(\d+)\./.exec(location)[1]);
  return db.prepare("select served_code from random_requests where id = ?").get(id).served_code;
}

let platforms = 0;
function platform(codes, served) {
  const slug = `table-${++platforms}`;
  const now = new Date().toISOString();
  const { lastInsertRowid: id } = db
    .prepare(
      "insert into platforms (name, slug, description, gradient_from, gradient_to, hosts, referral_url_template, url_rules, created_at) values (?, ?, 'x', '#1d4ed8', '#6d28d9', ?, ?, ?, ?)",
    )
    .run(
      `Table ${platforms}`,
      slug,
      `${slug}.example`,
      `https://${slug}.example/r/{code}`,
      JSON.stringify([{ type: "path", after: "r" }]),
      now,
    );
  const names = [];
  for (let i = 0; i < codes; i++) {
    const code = `T${platforms}C${i}X`;
    names.push(code);
    db.prepare(
      `insert into referral_codes (platform_id, code, is_active, is_permanent, times_served, created_at${hasRotation ? ", rotation_count, draw_key" : ""}) values (?, ?, 1, 1, ?, ?${hasRotation ? ", ?, ?" : ""})`,
    ).run(
      ...[id, code, served, new Date(Date.now() - 60_000 + i).toISOString()].concat(
        hasRotation ? [served, Math.floor(Math.random() * 2 ** 31)] : [],
      ),
    );
  }
  return { slug, codes: names };
}

async function submit(slug, code) {
  const res = await post("/submit", { intent: "submit", platform: slug, code }, visitor());
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const html = await (await fetch(`${url}/submit?thanks=1`, { headers: { Cookie: cookie } })).text();
  return /<a href="https?:\/\/[^/"]+(\/my-code\/[\w-]+)" data-testid="owner-link"/.exec(html)[1];
}

const count = (list, code) => list.filter((c) => c === code).length;
const drawMany = async (slug, n) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await draw(slug));
  return out;
};
const rows = [];

// Rows 1-3: entering (three codes served 20 times each).
{
  const p = platform(3, 20);
  const owner = await submit(p.slug, "NEWCODE1");
  rows.push(`new code: ${count(await drawMany(p.slug, 15), "NEWCODE1")} of the next 15 draws`);
  await post(owner, { intent: "delete", confirm: "yes" }, visitor());
  const again = await submit(p.slug, "NEWCODE1");
  rows.push(`deleted and submitted again: ${count(await drawMany(p.slug, 15), "NEWCODE1")} of the next 15`);
  await post(again, { intent: "pause" }, visitor());
  await drawMany(p.slug, 60);
  await post(again, { intent: "resume" }, visitor());
  rows.push(`paused, 60 draws, resumed: ${count(await drawMany(p.slug, 25), "NEWCODE1")} of the next 25`);
}

/** A script's five /64s in one /48 (a /48 of its own for each row: a day's draws each), used in turn; null once refused. */
let scripts = 0;
function script() {
  const net = `2001:db8:ba${++scripts}`;
  const ips = Array.from({ length: 5 }, (_, i) => `${net}:${i + 1}::1`);
  let n = 0;
  let refused = false;
  return {
    draws: () => n,
    proofsAtStart: proofs,
    async draw(slug) {
      if (refused) return null;
      const code = await draw(slug, ips[n % ips.length]);
      if (code === null) refused = true;
      else n++;
      return code;
    },
  };
}

// Row 4: a script owning one of four codes learns the order from 8 draws, then draws between real
// visitors until the code just before its own came out.
{
  const p = platform(4, 0);
  const mine = p.codes[3];
  const bot = script();
  const seen = [];
  for (let i = 0; i < 8; i++) seen.push(await bot.draw(p.slug));
  const cycle = seen.slice(4, 8);
  const before = cycle[(cycle.indexOf(mine) + cycle.length - 1) % cycle.length];
  let got = 0;
  for (let v = 0; v < 20; v++) {
    for (let guard = 0; guard < 8; guard++) {
      const c = await bot.draw(p.slug);
      if (c === null || c === before) break;
    }
    if ((await draw(p.slug)) === mine) got++;
  }
  rows.push(
    `script, learnt order, 5 /64s: ${got} of 20 visitors got its code (fair 5), ${bot.draws()} script draws, ${proofs - bot.proofsAtStart} proofs solved`,
  );
}

// Row 5: the same reading its owner page ("next in about N draws") before each of its draws.
{
  const p = platform(3, 0);
  const owner = await submit(p.slug, "BOTCODE1");
  const bot = script();
  const nextIn = async () => {
    const html = await (await fetch(`${url}${owner}`, { headers: { "Fly-Client-IP": "2001:db8:bad:1::1" } })).text();
    const text = /data-testid="owned-place"[^>]*>([^<]*)</.exec(html)?.[1] ?? "";
    // The page is in French (one URL, one language): "environ N tirages" before, "dans N à M tirages" after.
    if (/Au prochain tirage|dans environ 1 tirage\b/.test(text)) return 1;
    const m = /dans (?:environ )?(\d+)/.exec(text);
    return m ? Number(m[1]) : 99;
  };
  let got = 0;
  for (let v = 0; v < 40; v++) {
    for (let guard = 0; guard < 8 && (await nextIn()) > 1; guard++) if ((await bot.draw(p.slug)) === null) break;
    if ((await draw(p.slug)) === "BOTCODE1") got++;
  }
  rows.push(
    `script, owner page, 5 /64s: ${got} of 40 visitors got its code (fair 10), ${bot.draws()} script draws, ${proofs - bot.proofsAtStart} proofs solved`,
  );
}

// Row 6: a script starving a victim (no owner link): learns the order, then lets real visitors draw
// only right after the victim came out.
{
  const p = platform(10, 0);
  const victim = p.codes[0];
  const bot = script();
  let got = 0;
  let v = 0;
  while (v < 40) {
    let c;
    for (let guard = 0; guard < 12; guard++) {
      c = await bot.draw(p.slug);
      if (c === null || c === victim) break;
    }
    // Right after the victim, the next nine draws are the others (under a fixed cycle).
    for (let k = 0; k < (c === null ? 40 : 9) && v < 40; k++, v++) if ((await draw(p.slug)) === victim) got++;
  }
  rows.push(
    `script starving a victim, 10 codes: the victim got ${got} of 40 visitors (fair 4), ${bot.draws()} script draws, ${proofs - bot.proofsAtStart} proofs solved`,
  );
}

console.log(`${root} (${hasRotation ? "with" : "without"} the rotation rule)`);
for (const row of rows) console.log(`- ${row}`);
db.close();
child.kill("SIGTERM");
fs.rmSync(dir, { recursive: true, force: true });

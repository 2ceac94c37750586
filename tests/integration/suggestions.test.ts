import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRawDb, type RawDb } from "../support/fixtures";
import { cookiesFrom, postForm, startServer, type RunningServer } from "../support/server";

let server: RunningServer;
let raw: RawDb;
let addressCounter = 0;

// TRUST_PROXY lets each test speak from its own address, so rate limits and the per-address cap
// of one test never leak into another.
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "1" });
  raw = openRawDb(server.dbFile);
});
afterAll(async () => {
  await raw?.close();
  await server?.stop();
});

function newAddress() {
  addressCounter++;
  return `203.0.113.${addressCounter}`;
}

function unique(prefix: string) {
  return `${prefix} ${Math.random().toString(36).slice(2, 8).replace(/\d/g, "q")}`;
}

/** A name that shares nothing with any other test's (two of them score about 0.1 on similarity). */
function unrelatedName() {
  return Array.from({ length: 14 }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(Math.random() * 26)]).join("");
}

const countSuggestions = async () =>
  (await raw.get<{ n: number }>("select cast(count(*) as integer) as n from platform_suggestions"))!.n;
const votesOf = async (id: number) => {
  const row = await raw.get<{ votes_count: number }>("select votes_count from platform_suggestions where id = ?", id);
  const { n: rows } = (await raw.get<{ n: number }>(
    "select cast(count(*) as integer) as n from platform_suggestion_votes where suggestion_id = ?",
    id,
  ))!;
  return { counter: row!.votes_count, rows };
};

/** A visitor: its own address and, once its first vote set it, its own client_id cookie. */
async function visitor(address = newAddress()): Promise<{ address: string; cookie?: string }> {
  const res = await fetch(`${server.url}/suggest-platform`, { headers: { "X-Forwarded-For": address } });
  expect(res.status).toBe(200);
  return { address };
}

function suggest(who: { address: string; cookie?: string }, fields: Record<string, string>) {
  return postForm(
    `${server.url}/suggest-platform`,
    { intent: "suggest", description: "", website_url: "", ...fields },
    {
      cookie: who.cookie,
      headers: { "X-Forwarded-For": who.address },
    },
  );
}

async function vote(who: { address: string; cookie?: string }, suggestionId: number | string) {
  const res = await postForm(
    `${server.url}/suggest-platform`,
    { intent: "vote", suggestion_id: String(suggestionId) },
    {
      cookie: who.cookie,
      headers: { "X-Forwarded-For": who.address },
    },
  );
  // The browser keeps the cookie its first vote set.
  if (!who.cookie && res.headers.getSetCookie().some((l) => l.startsWith("client_id="))) who.cookie = cookiesFrom(res);
  return res;
}

async function createSuggestion(name = unique("Zorblax")) {
  const who = await visitor();
  const res = await suggest(who, { name });
  expect(res.status).toBe(303);
  return Number(new URL(res.headers.get("location")!, server.url).searchParams.get("created"));
}

describe("client identity", () => {
  it("a visit sets no cookie; the first vote sets a random, httpOnly, one-year client_id", async () => {
    const visit = await fetch(`${server.url}/suggest-platform`, { headers: { "X-Forwarded-For": newAddress() } });
    expect(visit.status).toBe(200);
    expect(visit.headers.getSetCookie().some((l) => l.startsWith("client_id="))).toBe(false);
    const id = await createSuggestion();
    const res = await postForm(
      `${server.url}/suggest-platform`,
      { intent: "vote", suggestion_id: String(id) },
      { headers: { "X-Forwarded-For": newAddress() } },
    );
    const line = res.headers.getSetCookie().find((l) => l.startsWith("client_id="));
    expect(line).toMatch(/^client_id=[0-9a-f-]{36};/);
    expect(line).toContain("HttpOnly");
    expect(line).toContain("SameSite=Lax");
    expect(line).toContain("Max-Age=31536000");
    const again = await fetch(`${server.url}/suggest-platform`, {
      headers: { Cookie: cookiesFrom(res), "X-Forwarded-For": newAddress() },
    });
    expect(again.headers.getSetCookie().some((l) => l.startsWith("client_id="))).toBe(false);
  });

  it("stores neither the address nor the cookie value in clear", async () => {
    const who = await visitor("198.51.100.77");
    const id = await createSuggestion();
    expect((await vote(who, id)).status).toBe(303);
    const row = (await raw.get<{ ip_hash: string; client_fingerprint: string }>(
      "select ip_hash, client_fingerprint from platform_suggestion_votes where suggestion_id = ?",
      id,
    ))!;
    const clientId = who.cookie!.split("client_id=")[1]!.split(";")[0]!;
    expect(row.ip_hash).not.toContain("198.51.100.77");
    expect(row.ip_hash).toMatch(/^[\w-]{43}$/);
    expect(row.client_fingerprint).not.toContain(clientId);
  });
});

describe("suggest a platform", () => {
  it("stores a valid suggestion with its normalized name and redirects (303)", async () => {
    const who = await visitor();
    const name = `Boursorama Banque ${unique("Éco")}`;
    const res = await suggest(who, { name, description: "Banque en ligne", website_url: "https://www.boursorama.com" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/suggest-platform\?created=\d+$/);
    const id = Number(location.split("=")[1]);
    const row = (await raw.get("select * from platform_suggestions where id = ?", id))!;
    expect(row).toMatchObject({
      name,
      description: "Banque en ligne",
      website_url: "https://www.boursorama.com/",
      status: "pending",
      votes_count: 0,
    });
    expect(row.normalized_name).toBe(
      name
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ""),
    );
    expect(String(row.normalized_name).startsWith("boursoramabanqueeco")).toBe(true);
    const page = await fetch(`${server.url}${location}`, {
      headers: { Cookie: cookiesFrom(res, who.cookie), "X-Forwarded-For": who.address },
    });
    const html = await page.text();
    expect(html).toContain('data-testid="suggestion-created"');
    expect(html).toContain("Merci\u00a0! Votre suggestion a été enregistrée.");
  });

  it("rejects an empty name (400), keeps the other input, writes nothing", async () => {
    const before = await countSuggestions();
    const res = await suggest(await visitor(), { name: "   ", description: "Ma description gardée" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Le nom de la plateforme est requis");
    expect(html).toContain("Ma description gardée");
    expect(await countSuggestions()).toBe(before);
  });

  for (const bad of [
    "pas une adresse",
    "ftp://files.example.com",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(document.cookie)",
    "data:text/html,hi",
  ]) {
    it(`rejects the website ${JSON.stringify(bad)} (400) and writes nothing`, async () => {
      const before = await countSuggestions();
      const name = unique("Plutonix");
      const res = await suggest(await visitor(), { name, website_url: bad });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain("Saisissez une adresse web valide commençant par http:// ou https://");
      expect(html).toContain(`value="${name}"`);
      expect(await countSuggestions()).toBe(before);
    });
  }

  it("blocks a near-duplicate of an existing suggestion (> 0.85) with 'Plateforme similaire détectée'", async () => {
    const name = unique("Quantorix Banque");
    await createSuggestion(name);
    const before = await countSuggestions();
    const res = await suggest(await visitor(), { name: name.slice(0, -1) });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Plateforme similaire détectée");
    expect(html).toContain('data-testid="similar-blocked"');
    expect(html).toMatch(/\d{2} %/);
    expect(await countSuggestions()).toBe(before);
  });

  for (const name of ["Trade Republic", "trade-republic", "REVOLUT", "N 26"]) {
    it(`blocks an existing platform's name ${JSON.stringify(name)}`, async () => {
      const before = await countSuggestions();
      const res = await suggest(await visitor(), { name });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain("Plateforme similaire détectée");
      expect(html).toContain("cette plateforme existe déjà");
      expect(await countSuggestions()).toBe(before);
    });
  }

  it("a near name of a live platform links to its page, in one message (no vote asked)", async () => {
    const before = await countSuggestions();
    const res = await suggest(await visitor(), { name: "Revolutt" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("est déjà une plateforme de Parrainly");
    expect(html).not.toContain("Votez pour elle");
    expect(html).toMatch(/<a [^>]*href="\/revolut"[^>]*>Revolut<\/a>/);
    // The message and the list once each: the refusal's box holds the list.
    expect(html.match(/data-testid="similar-blocked"/g)).toHaveLength(1);
    expect(html.match(/data-testid="similar-names"/g)).toHaveLength(1);
    expect(html.match(/est déjà une plateforme de Parrainly/g)).toHaveLength(1);
    expect(await countSuggestions()).toBe(before);
  });

  it("lists names between 0.7 and 0.85 with a percentage, without blocking", async () => {
    const live = await fetch(`${server.url}/resources/similar-names?name=Revolix`);
    expect(live.headers.get("content-type")).toContain("application/json");
    const answer = (await live.json()) as { typed: string; similar: { name: string; percent: number }[] };
    expect(answer.typed).toBe("Revolix");
    expect(answer.similar).toContainEqual(expect.objectContaining({ name: "Revolut", percent: 71 }));
    const who = await visitor();
    const res = await suggest(who, { name: "Revolix" });
    expect(res.status).toBe(303);
    const page = await fetch(`${server.url}${res.headers.get("location")}`, { headers: { "X-Forwarded-For": who.address } });
    expect(await page.text()).toMatch(/suggestion-created[^]*Revolut[^]*71 %/);
  });

  it("treats a filled honeypot as spam: 400, nothing written", async () => {
    const before = await countSuggestions();
    const res = await suggest(await visitor(), { name: unique("Spamtron"), website_confirm: "http://spam.example" });
    expect(res.status).toBe(400);
    expect(await countSuggestions()).toBe(before);
  });

  it("rate-limits suggestions per address (429) but not rejected attempts", async () => {
    const who = await visitor();
    for (let i = 0; i < 12; i++) expect((await suggest(who, { name: "" })).status).toBe(400);
    // Ten names with nothing in common: a name close to an earlier one is refused (400) before the limit counts it.
    for (let i = 0; i < 10; i++) expect((await suggest(who, { name: unrelatedName() })).status).toBe(303);
    const refused = await suggest(who, { name: unique("Overflowia") });
    expect(refused.status).toBe(429);
  });

  it("lists pending and approved suggestions by votes, hides rejected ones, with 'Populaire' and 'Nouveau'", async () => {
    const popular = await createSuggestion(unique("Popularis"));
    const rejected = await createSuggestion(unique("Rejectum"));
    const old = await createSuggestion(unique("Vetustas"));
    await raw.run("update platform_suggestions set votes_count = 600, status = 'approved' where id = ?", popular);
    await raw.run("update platform_suggestions set status = 'rejected' where id = ?", rejected);
    await raw.run(
      "update platform_suggestions set created_at = ? where id = ?",
      new Date(Date.now() - 86_400_001).toISOString(),
      old,
    );
    const html = await (await fetch(`${server.url}/suggest-platform`)).text();
    const item = (id: number) => new RegExp(`data-suggestion-id="${id}"[^]*?</li>`).exec(html)?.[0] ?? "";
    expect(html.indexOf(`data-suggestion-id="${popular}"`)).toBeLessThan(html.indexOf(`data-suggestion-id="${old}"`));
    expect(item(popular)).toContain("Populaire");
    expect(item(rejected)).toBe("");
    expect(item(old)).not.toContain("Nouveau");
    expect(item(old)).not.toContain("Populaire");
    // restore the invariant for the votes tests
    await raw.run("update platform_suggestions set votes_count = 0 where id = ?", popular);
  });
});

describe("votes", () => {
  it("counts once per client; a repeat answers 409 'Vous avez déjà voté…' and the button shows it", async () => {
    const id = await createSuggestion();
    const who = await visitor();
    const first = await vote(who, id);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe(`/suggest-platform#suggestion-${id}`);
    const again = await vote(who, id);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Vous avez déjà voté pour cette suggestion");
    expect(await votesOf(id)).toEqual({ counter: 1, rows: 1 });
    const html = await (
      await fetch(`${server.url}/suggest-platform`, { headers: { Cookie: who.cookie!, "X-Forwarded-For": who.address } })
    ).text();
    expect(new RegExp(`data-suggestion-id="${id}"[^]*?</li>`).exec(html)![0]).toMatch(/disabled=""[^>]*>Déjà voté/);
  });

  it("20 parallel repeats from one client count once", async () => {
    const id = await createSuggestion();
    const who = await visitor();
    // A client with its cookie (its first vote, on another suggestion, set it).
    expect((await vote(who, await createSuggestion())).status).toBe(303);
    const responses = await Promise.all(Array.from({ length: 20 }, () => vote(who, id)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await votesOf(id)).toEqual({ counter: 1, rows: 1 });
  });

  it("a second client counts too", async () => {
    const id = await createSuggestion();
    expect((await vote(await visitor(), id)).status).toBe(303);
    expect((await vote(await visitor(), id)).status).toBe(303);
    expect(await votesOf(id)).toEqual({ counter: 2, rows: 2 });
  });

  it("a client without a cookie gets one with its first vote", async () => {
    const id = await createSuggestion();
    const res = await vote({ address: newAddress() }, id);
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie().some((l) => l.startsWith("client_id="))).toBe(true);
    expect(await votesOf(id)).toEqual({ counter: 1, rows: 1 });
  });

  it("caps the votes from one address (cleared cookies) and says so", async () => {
    const id = await createSuggestion();
    const address = newAddress();
    for (let i = 0; i < 3; i++) expect((await vote(await visitor(address), id)).status).toBe(303);
    const capped = await vote(await visitor(address), id);
    expect(capped.status).toBe(429);
    expect(await capped.text()).toContain("Cette connexion a atteint le maximum de votes pour cette suggestion.");
    // A cookie-less request from that address is refused as well.
    expect((await vote({ address }, id)).status).toBe(429);
    expect((await vote(await visitor(), id)).status).toBe(303);
    expect(await votesOf(id)).toEqual({ counter: 4, rows: 4 });
  });

  it("parallel first votes from many clients of a few addresses respect both the unique index and the cap", async () => {
    const id = await createSuggestion();
    const clients = await Promise.all(Array.from({ length: 12 }, (_, i) => visitor(`192.0.2.${100 + (i % 3)}`)));
    const responses = await Promise.all(clients.flatMap((c) => [vote(c, id), vote(c, id)]));
    expect(responses.every((r) => [303, 409, 429].includes(r.status))).toBe(true);
    expect(await votesOf(id)).toEqual({ counter: 9, rows: 9 });
  });

  it("voting on an unknown, rejected or malformed suggestion is a 404, nothing written", async () => {
    const who = await visitor();
    const rejected = await createSuggestion();
    await raw.run("update platform_suggestions set status = 'rejected' where id = ?", rejected);
    expect((await vote(who, 99_999_999)).status).toBe(404);
    expect((await vote(who, rejected)).status).toBe(404);
    expect((await vote(who, "abc")).status).toBe(404);
    expect(await votesOf(rejected)).toEqual({ counter: 0, rows: 0 });
  });

  it("an unknown intent is a 400", async () => {
    const res = await postForm(
      `${server.url}/suggest-platform`,
      { intent: "nope" },
      { headers: { "X-Forwarded-For": newAddress() } },
    );
    expect(res.status).toBe(400);
  });

  it("votes_count always equals the number of vote rows", async () => {
    const mismatches = await raw.all(
      `select s.id, s.votes_count, count(v.id) as n from platform_suggestions s
       left join platform_suggestion_votes v on v.suggestion_id = s.id group by s.id, s.votes_count having s.votes_count <> count(v.id)`,
    );
    expect(mismatches).toEqual([]);
  });
});

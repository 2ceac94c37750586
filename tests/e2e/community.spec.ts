import { expect, test, type Page } from "@playwright/test";
import { JS_ONLY, createE2ePlatform, e2eDb, expectAccessible, holdPageScript, hydrated, jsDisabled } from "./support";

const platform = (overrides: Parameters<typeof createE2ePlatform>[0] = {}) => createE2ePlatform(overrides);

const rand = () => Math.random().toString(36).slice(2, 8).replace(/\d/g, "k");

async function createPartner(overrides: Record<string, unknown> = {}) {
  const name = `Partner ${rand()}`;
  return e2eDb()
    .insertInto("partnerships")
    .values({
      name,
      description: "Offre de test",
      url: `https://${name.replace(/\s/g, "").toLowerCase()}.example/deal`,
      logo_url: null,
      display_mode: "name",
      is_active: 1,
      display_order: 500,
      created_at: new Date().toISOString(),
      ...overrides,
    } as never)
    .returningAll()
    .executeTakeFirstOrThrow();
}

test.describe("home", () => {
  test("every active homepage platform and every partner is reachable, JS on or off", async ({ page }) => {
    const shown = await platform({ show_in_homepage: 1, display_order: 900, name: `Home ${rand()}` });
    const hidden = await platform({ show_in_homepage: 1, is_active: 0, display_order: 900 });
    const partner = await createPartner();
    const unsafe = await createPartner({ url: "javascript:alert(1)" });
    await page.goto("/");
    const list = page.getByTestId("platform-list");
    for (const slug of ["tesla", "revolut", "trade-republic", "igraal", "n26", "holy", shown.slug]) {
      await expect(list.locator(`a[href="/${slug}"]`)).toHaveCount(1);
    }
    await expect(list.locator(`a[href="/${hidden.slug}"]`)).toHaveCount(0);
    await list.locator(`a[href="/${shown.slug}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/${shown.slug}$`));

    await page.goto("/");
    const strip = page.getByTestId("partner-strip");
    const link = strip.getByRole("link", { name: partner.name });
    await expect(link).toHaveAttribute("href", partner.url);
    await expect(link).toHaveAttribute("rel", "sponsored noopener noreferrer");
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(strip.getByText(unsafe.name)).toBeVisible();
    await expect(strip.locator('a[href^="javascript"]')).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Voir tout" }).last()).toHaveAttribute("href", "/partnerships");
  });

  test("hero, 3 steps, price-tracker promo from settings, and no horizontal page overflow", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Comment ça marche" })).toBeVisible();
    await expect(page.locator("ol li h3")).toHaveCount(3);
    const promo = page.getByTestId("price-tracker-promo");
    await expect(promo).toContainText("100% Gratuit");
    await expect(promo.locator("li")).toHaveCount(3);
    const cta = promo.getByRole("link", { name: /Découvrir Keepa/ });
    await expect(cta).toHaveAttribute("href", "https://keepa.com/");
    await expect(cta).toHaveAttribute("rel", "sponsored noopener noreferrer");
    await expect(cta).toHaveAttribute("target", "_blank");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  test("the promo speaks English with ?lng=en", async ({ page }) => {
    await page.goto("/?lng=en");
    await expect(page.getByTestId("price-tracker-promo")).toContainText("100% Free");
    await expect(page.getByRole("heading", { name: "More discounts" })).toBeVisible();
  });

  test("accessible in dark and light themes", async ({ page, context, baseURL }) => {
    // Several axe runs (each a fresh context without JS): slow on a shared 2-core machine.
    test.slow();
    await page.goto("/");
    await expectAccessible(page);
    await context.addCookies([{ name: "theme", value: "light", url: baseURL! }]);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await expectAccessible(page);
  });

  test("narrow screens: still every platform reachable, accessible", async ({ page }) => {
    // Several axe runs (each a fresh context without JS): slow on a shared 2-core machine.
    test.slow();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/");
    await expect(page.getByTestId("platform-list").locator('a[href="/holy"]')).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page);
  });
});

test.describe("home carousel timing (JS)", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the carousel's motion needs JavaScript");

  async function frozenHome(page: Page, { wake = true } = {}) {
    await page.clock.install();
    await page.goto("/");
    await hydrated(page);
    // Stop the clock's natural flow (hydration needs it): from here on only runFor moves time.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    const carousel = page.getByTestId("platform-carousel");
    // The auto-advance waits for a first sign of life on the page: a pointer moving away from it.
    if (wake) await page.mouse.move(5, 5);
    return Object.assign(carousel, { index: async () => Number(await carousel.getAttribute("data-index")) });
  }

  test("stays still until the visitor moves, touches, scrolls or types, then plays", async ({ page }) => {
    const carousel = await frozenHome(page, { wake: false });
    await expect(carousel).toHaveAttribute("data-playing", "false");
    await page.clock.runFor(12_000);
    await expect(carousel).toHaveAttribute("data-index", "0");
    await expect(carousel).toHaveAttribute("data-playing", "false");
    await page.mouse.move(5, 5);
    await expect(carousel).toHaveAttribute("data-playing", "true");
    await page.clock.runFor(4000);
    await expect(carousel).toHaveAttribute("data-index", "1");
  });

  test("advances once in every 4000 ms window, and loops", async ({ page }) => {
    const carousel = await frozenHome(page);
    await expect(carousel).toHaveAttribute("data-playing", "true");
    // One dot per position: the last one is hidden two-up (a wide screen's first visible slide is never the last).
    const positions = await page.getByTestId("carousel-dot").filter({ visible: true }).count();
    // The timer's phase is unknown (time flowed while the page hydrated), so check whole windows:
    // exactly one step in each of them means a period of exactly 4000 ms.
    let expected = await carousel.index();
    for (let window = 0; window < positions + 1; window++) {
      await page.clock.runFor(4000);
      expected = (expected + 1) % positions;
      await expect(carousel).toHaveAttribute("data-index", String(expected));
      await expect(page.getByTestId("carousel-dot").nth(expected)).toHaveAttribute("aria-current", "true");
    }
    // Two-up, the position text counts the positions a wide screen has.
    await expect(carousel.locator("[aria-live]")).toHaveText(`Position ${expected + 1} sur ${positions}`, { useInnerText: true });
  });

  test("stops for good after a click on an arrow", async ({ page }) => {
    const carousel = await frozenHome(page);
    const next = String((await carousel.index()) + 1);
    await page.getByRole("button", { name: "Plateformes suivantes" }).click();
    await expect(carousel).toHaveAttribute("data-index", next);
    await page.mouse.move(5, 5);
    await page.clock.runFor(12_000);
    await expect(carousel).toHaveAttribute("data-index", next);
    await expect(carousel).toHaveAttribute("data-playing", "false");
  });

  test("stops when a dot is used", async ({ page }) => {
    const carousel = await frozenHome(page);
    await page.getByTestId("carousel-dot").nth(2).click();
    await expect(carousel).toHaveAttribute("data-index", "2");
    await page.mouse.move(5, 5);
    await page.clock.runFor(8000);
    await expect(carousel).toHaveAttribute("data-index", "2");
  });

  test("stops when focus enters", async ({ page }) => {
    const again = await frozenHome(page);
    await page.getByTestId("platform-list").locator("a").first().focus();
    const before = String(await again.index());
    await page.clock.runFor(8000);
    await expect(again).toHaveAttribute("data-index", before);
  });

  test("never moves by itself for people who prefer reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    const carousel = await frozenHome(page);
    await page.clock.runFor(12_000);
    await expect(carousel).toHaveAttribute("data-index", "0");
    await expect(page.getByRole("button", { name: "Plateformes suivantes" })).toBeVisible();
  });
});

test.describe("partnerships page", () => {
  test("platforms with 'Voir les codes', partners by display mode, footer links", async ({ page }) => {
    // Several axe runs (each a fresh context without JS): slow on a shared 2-core machine.
    test.slow();
    const shownPlatform = await platform({ show_in_partnerships: 1, name: `Partners ${rand()}` });
    const byName = await createPartner({ display_mode: "name" });
    const byLogo = await createPartner({ display_mode: "logo", logo_url: "https://logos.example/logo.png" });
    const both = await createPartner({ display_mode: "both", logo_url: "https://logos.example/both.png" });
    const unsafe = await createPartner({ url: "javascript:alert(1)", display_mode: "name" });
    const inactive = await createPartner({ is_active: 0 });
    await page.goto("/partnerships");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const platforms = page.getByTestId("partnership-platforms");
    await expect(platforms.getByRole("link", { name: `Voir les codes ${shownPlatform.name}` })).toHaveAttribute(
      "href",
      `/${shownPlatform.slug}`,
    );

    const partners = page.getByTestId("partner-list");
    for (const p of [byName, byLogo, both]) {
      const link = partners.locator(`a[href="${p.url}"]`);
      await expect(link).toHaveAttribute("rel", "sponsored noopener noreferrer");
      await expect(link).toHaveAttribute("target", "_blank");
    }
    await expect(partners.locator(`a[href="${byName.url}"] img`)).toHaveCount(0);
    await expect(partners.locator(`a[href="${byLogo.url}"] img`)).toHaveAttribute("alt", byLogo.name);
    await expect(partners.locator(`a[href="${byLogo.url}"]`)).not.toContainText(byLogo.name);
    await expect(partners.locator(`a[href="${both.url}"] img`)).toHaveAttribute("alt", both.name);
    await expect(partners.locator(`a[href="${both.url}"]`)).toContainText(both.name);
    // A logo's box is fixed before its image arrives and after it fails: nothing below moves when it
    // settles. 10rem × 3rem at the page's 16 px. The image is held, then refused.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("https://logos.example/both.png", async (route) => {
      await held;
      await route.fulfill({ status: 404, body: "" });
    });
    // Without JavaScript the browser loads images eagerly: the held one holds the load event too.
    await page.reload({ waitUntil: "domcontentloaded" });
    const logo = page.getByTestId("partner-list").locator(`a[href="${both.url}"] img`);
    await expect(logo).toHaveCount(1);
    const box = (el: HTMLImageElement) => ({
      width: el.getBoundingClientRect().width,
      height: el.getBoundingClientRect().height,
      complete: el.complete,
    });
    expect(await logo.evaluate(box)).toEqual({ width: 160, height: 48, complete: false });
    release();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
    expect(await logo.evaluate(box)).toEqual({ width: 160, height: 48, complete: true });
    await expect(partners.getByText(unsafe.name)).toBeVisible();
    await expect(partners.locator('a[href^="javascript"]')).toHaveCount(0);
    await expect(page.getByText(inactive.name)).toHaveCount(0);

    const footer = page.getByRole("navigation", { name: "Liens utiles" });
    for (const href of ["/privacy", "/terms", "/submit"]) await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1);
    await expectAccessible(page, { exclude: ["img"] });
  });
});

test.describe("privacy and terms", () => {
  for (const [path, heading] of [
    ["/privacy", "Politique de confidentialité"],
    ["/terms", "Conditions d'utilisation"],
  ] as const) {
    test(`${path} renders, with a breadcrumb, and is accessible`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      const ld = await page.locator('script[type="application/ld+json"]').textContent();
      expect(JSON.parse(ld!)["@type"]).toBe("BreadcrumbList");
      await expectAccessible(page);
    });
  }

  test("terms explain affiliate links; privacy names the cookies, in four languages", async ({ page }) => {
    await page.goto("/terms");
    await expect(page.locator("#affiliate-links")).toContainText("commission");
    await page.goto("/privacy?lng=de");
    await expect(page.locator("main")).toContainText("client_id");
    await page.goto("/terms?lng=es");
    await expect(page.getByRole("heading", { name: "Enlaces de afiliación" })).toBeVisible();
    await page.goto("/privacy?lng=en");
    await expect(page.getByRole("heading", { name: "Ask for the removal of data" })).toBeVisible();
  });
});

test.describe("suggest a platform", () => {
  test("suggest, see it listed, vote once", async ({ page }, testInfo) => {
    // Several axe runs (each a fresh context without JS): slow on a shared 2-core machine.
    test.slow();
    const name = `Zyxtra ${rand()} ${testInfo.project.name}`;
    await page.goto("/suggest-platform");
    await expectAccessible(page);
    await page.getByLabel("Nom de la plateforme").fill(name);
    await page.getByLabel("Description (facultative)").fill("Une banque de test");
    await page.getByLabel("Site web (facultatif)").fill("https://zyxtra.example");
    await page.getByRole("button", { name: "Envoyer la suggestion" }).click();
    await expect(page.getByTestId("suggestion-created")).toContainText(name);
    await expect(page.getByTestId("toast")).toContainText("Merci ! Votre suggestion a été enregistrée.");
    // The form is emptied, and nothing warns about the visitor's own new entry.
    await expect(page.getByLabel("Nom de la plateforme")).toHaveValue("");
    await expect(page.getByLabel("Description (facultative)")).toHaveValue("");
    await expect(page.locator("#similar-names")).not.toContainText(name);
    const item = page.getByTestId("suggestion").filter({ hasText: name });
    await expect(item).toContainText("Nouveau");
    await expect(item.getByTestId("votes-count")).toHaveText("0");

    await item.getByRole("button", { name: `Voter pour ${name}` }).click();
    await expect(item.getByTestId("votes-count")).toHaveText("1");
    await expect(item.getByRole("button", { name: `Vous avez voté pour ${name}` })).toBeDisabled();
    // With JS the count above is shown at once; the server's answer (its toast) says the vote is saved.
    await expect(page.getByTestId("toast")).toContainText("Merci pour votre vote !");
    await page.reload();
    await expect(item.getByTestId("votes-count")).toHaveText("1");
    await expect(item.getByRole("button", { name: `Vous avez voté pour ${name}` })).toBeDisabled();
    await expectAccessible(page);
  });

  test("an existing platform's name is blocked with the message next to the field", async ({ page }, testInfo) => {
    test.slow();
    await page.goto("/suggest-platform");
    await page.getByLabel("Nom de la plateforme").fill("Trade Republik");
    // With JS the live list appears under the field and moves the button: click once it is there.
    if (!jsDisabled(testInfo)) await expect(page.getByTestId("similar-names")).toContainText("Trade Republic");
    await page.getByRole("button", { name: "Envoyer la suggestion" }).click();
    await expect(page.getByTestId("similar-blocked")).toContainText("Plateforme similaire détectée");
    await expect(page.getByLabel("Nom de la plateforme")).toHaveValue("Trade Republik");
    await expect(page.getByTestId("similar-names")).toContainText("Trade Republic");
    // One message, not two: the list sits inside the refusal's box.
    await expect(page.getByTestId("similar-names")).toHaveCount(1);
    await expect(page.getByTestId("similar-blocked").getByTestId("similar-names")).toHaveCount(1);
    await expectAccessible(page);
  });

  test("a near name of a live platform links to its page instead of asking for votes", async ({ page }, testInfo) => {
    await page.goto("/suggest-platform");
    await page.getByLabel("Nom de la plateforme").fill("Revolutt");
    // With JS the live list appears under the field and moves the button: click once it is there
    // (a click during the shift once landed beside the button).
    if (!jsDisabled(testInfo)) await expect(page.getByTestId("similar-names")).toContainText("Revolut");
    await page.getByRole("button", { name: "Envoyer la suggestion" }).click();
    const blocked = page.getByTestId("similar-blocked");
    await expect(blocked).toContainText("est déjà une plateforme de Parrainly");
    await expect(blocked).not.toContainText("Votez");
    await blocked.getByRole("link", { name: "Revolut" }).click();
    await expect(page).toHaveURL(/\/revolut$/);
  });

  test("with JS, a name typed before the page's script has run is checked once it runs", JS_ONLY, async ({ page }) => {
    // JavaScript only: live check needs JavaScript.
    // The page's script is held back until the visitor has typed, as on a slow phone.
    const typed = await holdPageScript(page);
    await page.goto("/suggest-platform", { waitUntil: "commit" });
    await page.getByLabel("Nom de la plateforme").fill("Trade Republik");
    await expect(page.getByTestId("similar-names")).toHaveCount(0);
    typed();
    await expect(page.getByTestId("similar-names")).toContainText("Trade Republic");
  });

  test("with JS, similar names show while typing", JS_ONLY, async ({ page }) => {
    // JavaScript only: live check needs JavaScript.
    await page.goto("/suggest-platform");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Nom de la plateforme").pressSequentially("Revolix", { delay: 20 });
    await expect(page.getByTestId("similar-names")).toContainText("Revolut");
    await expect(page.getByTestId("similar-names")).toContainText("71 %");
    await page.getByLabel("Nom de la plateforme").fill("");
    // The check for the whole name is the last one the page asks for: once its answer is in, nothing shows.
    const answer = page.waitForResponse((r) => r.url().endsWith("/resources/similar-names?name=Qwvbnm"));
    await page.getByLabel("Nom de la plateforme").pressSequentially("Qwvbnm", { delay: 20 });
    expect(((await (await answer).json()) as { similar: unknown[] }).similar).toEqual([]);
    await expect(page.getByTestId("similar-names")).toHaveCount(0);
  });
});

test.describe("crawlers", () => {
  test(
    "sitemap.xml is well-formed, namespaced, lists every active platform; robots.txt declares it",
    JS_ONLY,
    async ({ page, request, baseURL }) => {
      // An HTTP-level check: run in one project only (the JS one).
      const mine = await platform();
      const off = await platform({ is_active: 0 });
      const before = await e2eDb().selectFrom("platforms").select("slug").where("is_active", "=", 1).execute();
      const res = await request.get("/sitemap.xml");
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toContain("application/xml");
      const xml = await res.text();
      const after = await e2eDb().selectFrom("platforms").select("slug").where("is_active", "=", 1).execute();
      const stillActive = before.filter((b) => after.some((a) => a.slug === b.slug)).map((b) => b.slug);

      await page.goto("/healthz");
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, "application/xml");
        const ns = "http://www.sitemaps.org/schemas/sitemap/0.9";
        return {
          error: doc.getElementsByTagName("parsererror").length > 0,
          root: doc.documentElement.localName,
          namespace: doc.documentElement.namespaceURI,
          locs: [...doc.getElementsByTagNameNS(ns, "loc")].map((n) => n.textContent ?? ""),
          lastmods: [...doc.getElementsByTagNameNS(ns, "lastmod")].map((n) => n.textContent ?? ""),
          hreflangs: [...doc.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "link")]
            .slice(0, 5)
            .map((n) => n.getAttribute("hreflang")),
        };
      }, xml);
      expect(parsed.error).toBe(false);
      expect(parsed.root).toBe("urlset");
      expect(parsed.namespace).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
      expect(parsed.hreflangs).toEqual(["fr", "en", "de", "es", "x-default"]);
      for (const path of ["/", "/submit", "/suggest-platform", "/partnerships", "/privacy", "/terms", "/random"]) {
        expect(parsed.locs).toContain(`${baseURL}${path}`);
      }
      for (const slug of [...stillActive, mine.slug]) {
        expect(parsed.locs).toContain(`${baseURL}/${slug}`);
        expect(parsed.locs).toContain(`${baseURL}/${slug}/get-code`);
      }
      expect(parsed.locs).not.toContain(`${baseURL}/${off.slug}`);
      const today = new Date().toISOString().slice(0, 10);
      for (const d of parsed.lastmods) {
        expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(d <= today).toBe(true);
      }

      const robots = await request.get("/robots.txt");
      expect(robots.headers()["content-type"]).toContain("text/plain");
      const text = await robots.text();
      expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
      expect(text).toMatch(/^Disallow: \/admin$/m);
      expect(text).toMatch(/^User-agent: \*$/m);
    },
  );
});

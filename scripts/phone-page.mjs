// A cold page on a phone, as the Chromium measurements load it (scripts/paint-times.mjs): a 412 px screen at 1.75x with touch, no cache, 4x slower CPU
// (Lighthouse's mobile setting).

/**
 * @param {import("@playwright/test").Browser} browser
 * @returns {Promise<{ page: import("@playwright/test").Page; cdp: import("@playwright/test").CDPSession; close: () => Promise<void> }>}
 */
export async function phonePage(browser) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1.75,
  });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    return { page, cdp, close: () => context.close() };
  } catch (error) {
    await context.close();
    throw error;
  }
}

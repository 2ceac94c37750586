// Playwright starts the webServer BEFORE globalSetup, so deleting the e2e database here would
// unlink the file the server already has open (e2eDb() would then open an empty one). The stale
// file is removed by the webServer command instead (playwright.config.ts).
export default function globalSetup() {}

// Playwright starts the webServer before globalSetup, so removing the e2e database here would pull
// it from under the running server: the webServer command in playwright.config.ts removes it instead.
export default function globalSetup() {}

// Nothing to do: Playwright starts the webServer BEFORE globalSetup, so deleting the e2e database
// here removed the file under the running server (tests then opened a new, empty file through
// e2eDb()). The webServer command in playwright.config.ts removes a stale file before it starts.
export default function globalSetup() {}

// Nothing to do: Playwright starts the webServer BEFORE globalSetup, so deleting the e2e database
// here removed the file under the running server (tests then opened a new, empty file through
// e2eDb()). The webServer command in playwright.config.ts rebuilds when a source changed since the
// last build (decision 346) and removes a stale database file before it starts the server.
export default function globalSetup() {}

import { loadRemixBuild } from "./remix-build";

// The runner: loads the Remix server build, whose entry module exports the Express server
// (server/app.ts, decision 001), and starts it. Nothing else of the server or the app is here.
const dev = process.argv.includes("--dev");
const { entry, ...remix } = await loadRemixBuild(dev);
await entry.startServer(remix, dev);

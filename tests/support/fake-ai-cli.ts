import { startFakeAi } from "./fake-ai";

// The e2e run's fake AI provider (playwright.config.ts starts it): both protocols on one port,
// answering from keywords in the admin's message (see keywordBrain).
const port = Number(process.env.FAKE_AI_PORT ?? 0);
const fake = await startFakeAi({ port });
console.log(`fake AI listening on ${fake.url}`);
const stop = () => void fake.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

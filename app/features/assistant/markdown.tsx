import { clientOnly$ } from "vite-env-only/macros";
import { MarkdownRenderer as BrowserRenderer } from "./markdown-renderer";

type Renderer = typeof BrowserRenderer;

/**
 * The assistant's answers as Markdown (markdown-renderer.tsx). react-markdown and its parsers take
 * about 18 MB of a server's memory: the server loads them when an admin first opens the assistant
 * (`loadMarkdown`, from its loaders), not at start; the browser has them in the assistant's chunk.
 * Until then (a render no loader prepared) an answer shows as plain text.
 */
let serverRenderer: Renderer | undefined;

export async function loadMarkdown(): Promise<void> {
  serverRenderer ??= (await import("./markdown-renderer")).MarkdownRenderer;
}

const browserRenderer = clientOnly$(BrowserRenderer);

export function Markdown({ text }: { text: string }) {
  const Render = browserRenderer ?? serverRenderer;
  return Render ? <Render text={text} /> : <p>{text}</p>;
}

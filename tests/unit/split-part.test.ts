import { createElement, Suspense, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lazyNow } from "~/components/split-part";

const Hello = ({ name }: { name: string }) => createElement("p", null, `hello ${name}`);
const render = (Part: ComponentType<{ name: string }>) =>
  renderToStaticMarkup(createElement(Suspense, { fallback: "waiting" }, createElement(Part, { name: "x" })));

describe("lazyNow (app/components/split-part.tsx)", () => {
  it("renders at once, without suspending, when the component is here already (hydration never waits)", () => {
    const Part = lazyNow(
      () => Hello,
      () => new Promise<typeof Hello>(() => {}),
    );
    expect(render(Part)).toBe("<p>hello x</p>");
  });

  it("suspends while its code loads, then the same component renders it", async () => {
    let arrive!: (component: typeof Hello) => void;
    const Part = lazyNow<{ name: string }>(
      () => undefined,
      () => new Promise((resolve) => (arrive = resolve)),
    );
    expect(render(Part)).toBe("waiting");
    arrive(Hello);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(render(Part)).toBe("<p>hello x</p>");
  });
});

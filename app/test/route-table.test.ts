import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { HANDLERS } from "../src/inbox/process-delivery.ts";
import { routeTable } from "../src/inbox/route-table.ts";
import type { Handler } from "../src/webhooks/on.ts";
import { ignored } from "../src/webhooks/outcome.ts";

const handler: Handler = async () => ignored("test");

describe("routeTable", () => {
  it("joins the families' routes", () => {
    const table = routeTable({ a: { issues: handler }, b: { "issues.opened": handler } });
    expect(Object.keys(table).sort()).toEqual(["issues", "issues.opened"]);
  });

  it("refuses a key two families claim, naming both", () => {
    expect(() =>
      routeTable({
        comments: { "pull_request.synchronize": handler },
        pulls: { "pull_request.synchronize": handler },
      }),
    ).toThrow(/pull_request\.synchronize is claimed by both comments and pulls/);
  });

  it("the App's table routes every event app.yml subscribes to", () => {
    const manifest = parse(readFileSync(resolve(import.meta.dirname, "../app.yml"), "utf8"));
    const events = z.object({ default_events: z.array(z.string()) }).parse(manifest).default_events;
    // Each family owns its keys: the module loading at all proves none is claimed twice.
    const keys = Object.keys(HANDLERS);
    for (const event of events) {
      expect(
        keys.some((k) => k === event || k.startsWith(`${event}.`)),
        `no route for ${event}`,
      ).toBe(true);
    }
  });
});

import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/app-harness.ts";
import { startGoal } from "../support/goal-steps.ts";
import { recordSlice, startDashboardHarness } from "./dashboard-steps.ts";

/** The live streams poll every 2 s: this many polls pass before silence counts as silence. */
const POLLS = 3;
const POLL_MS = 2_000;

/** Reads a server-sent event stream into `events` until aborted. */
function listen(url: string, viewer: string, signal: AbortSignal) {
  const events: string[] = [];
  const done = (async () => {
    const res = await fetch(url, { headers: { "x-test-viewer": viewer }, signal });
    const reader = res.body?.getReader();
    const text = new TextDecoder();
    let buffer = "";
    for (;;) {
      const chunk = await reader?.read().catch(() => ({ done: true, value: undefined }));
      if (!chunk || chunk.done) return res.status;
      buffer += text.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const name = /^event: (.+)$/m.exec(buffer.slice(0, end))?.[1];
        if (name) events.push(name);
        buffer = buffer.slice(end + 2);
      }
    }
  })();
  return { events, done };
}

/**
 * Scenario: the readonly dashboard, where people sign in with GitHub and see only the
 * repositories they can read. Someone who can read acme/widgets keeps the overview open and
 * is told when a goal there moves; someone who cannot is told nothing — not even that
 * something changed.
 */
describe("e2e: the live overview says nothing about repositories you cannot read", () => {
  let h: Harness;
  const session = async (req: IncomingMessage) => {
    const login = req.headers["x-test-viewer"];
    if (login === "rita") return { login, canRead: async (r: string) => r === "acme/widgets" };
    if (login === "olga") return { login, canRead: async () => false };
    return null;
  };
  beforeAll(async () => {
    h = await startDashboardHarness("readonly", { session });
  });
  afterAll(() => h.close());

  it("a reader's stream says the goal changed; an outsider's stays silent", async () => {
    const { goalId } = await startGoal(h, "alice", "Ship the widget cache");
    const stop = new AbortController();
    const reader = listen(`${h.appUrl}/loopx/live`, "rita", stop.signal);
    const outsider = listen(`${h.appUrl}/loopx/live`, "olga", stop.signal);
    try {
      const deadline = Date.now() + 10_000;
      while (!(reader.events.includes("ready") && outsider.events.includes("ready"))) {
        if (Date.now() > deadline) throw new Error("the streams never opened");
        await new Promise((r) => setTimeout(r, 50));
      }
      await recordSlice(h, goalId, { summary: "cache added", done: "cached", usd: 0.5 });
      while (!reader.events.includes("changed")) {
        if (Date.now() > deadline + POLLS * POLL_MS) throw new Error("the reader was never told");
        await new Promise((r) => setTimeout(r, 50));
      }
      // As many polls again as the reader needed at most: the outsider heard nothing.
      await new Promise((r) => setTimeout(r, POLLS * POLL_MS));
      expect(outsider.events).toEqual(["ready"]);
    } finally {
      stop.abort();
      await Promise.allSettled([reader.done, outsider.done]);
    }
  }, 60_000);
});

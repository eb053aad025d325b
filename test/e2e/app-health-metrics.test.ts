import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { fileIssue, label } from "../support/ops-steps.ts";

const TOKEN = "operator-metrics-token-0123456789abcdef";
const auth = { authorization: `Bearer ${TOKEN}` };

/** Scenario: an operator's view — /healthz follows the database, /metrics shows the queues. */
describe("e2e: /healthz and /metrics", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ app: { metrics: { token: TOKEN } } });
  });
  afterAll(() => h.close());

  it("healthz answers 200 while the store answers", async () => {
    const r = await fetch(`${h.appUrl}/healthz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true });
  });

  it("metrics: Prometheus text by default, JSON on request, spend per installation", async () => {
    const number = await fileIssue(h, "wendy", "Measure widget paint time");
    await label(h, "wendy", number);
    await h.settle();
    const text = await (await fetch(`${h.appUrl}/metrics`, { headers: auth })).text();
    expect(text).toContain("# TYPE loopx_inbox_pending gauge");
    expect(text).toMatch(/^loopx_inbox_pending 0$/m);
    expect(text).toMatch(/^loopx_outbox_due 0$/m);
    expect(text).toMatch(/^loopx_dead_letters 0$/m);
    expect(text).toMatch(/^loopx_spend_usd\{installation="\d+"\} 0$/m);

    const json = await (
      await fetch(`${h.appUrl}/metrics`, { headers: { ...auth, accept: "application/json" } })
    ).json();
    expect(json).toMatchObject({
      inbox: { count: 0, oldestAgeSeconds: null },
      outbox: { count: 0, pending: 0 },
      deadLetters: 0,
    });
  });

  it("healthz answers 503 when the database does not", async () => {
    const broken = await fetch(`${h.appUrl}/healthz`);
    expect(broken.status).toBe(200);
    const ping = h.app.ops.ping;
    h.app.ops.ping = async () => {
      throw new Error("connection refused");
    };
    try {
      const r = await fetch(`${h.appUrl}/healthz`);
      expect(r.status).toBe(503);
    } finally {
      h.app.ops.ping = ping;
    }
  });
});

import { createHmac } from "node:crypto";
import { dbOf, tables } from "@loopx/store/testing";
import { Webhooks } from "@octokit/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_PATH } from "../../app/src/create-loopx-app.ts";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { expectWarning } from "../support/expected-warnings.ts";

/** An event the App subscribes to no handler for: stored, and settled as it arrives. */
const STARRED = { action: "created", installation: { id: 1 }, starred_at: null };

/**
 * Scenario: strangers post to the App's webhook endpoint what GitHub never sends — a forged
 * signature, no JSON, a missing header, a GET — and each is refused with the answer GitHub's
 * own webhook library gives, storing nothing; a delivery signed with the App's secret is
 * stored and answered 200, and its redelivery is not stored twice.
 */
describe("hostile: what the webhook endpoint refuses", () => {
  let h: Harness;
  let signer: Webhooks;
  const stored = async (id: string) =>
    (await dbOf(h.store).select().from(tables.inbox)).filter((r) => r.deliveryId === id);

  const post = (headers: Record<string, string>, body: string) =>
    fetch(`${h.appUrl}${WEBHOOK_PATH}`, { method: "POST", headers, body });
  const headersFor = async (id: string, body: string) => ({
    "content-type": "application/json",
    "x-github-event": "star",
    "x-github-delivery": id,
    "x-hub-signature-256": await signer.sign(body),
  });

  beforeAll(async () => {
    h = await startHarness();
    signer = new Webhooks({ secret: h.webhookSecret });
  });
  afterAll(() => h.close());

  it("stores a signed delivery once and answers 200, its redelivery too", async () => {
    const body = JSON.stringify(STARRED);
    const headers = await headersFor("refusals-signed", body);
    const first = await post(headers, body);
    expect([first.status, await first.text()]).toEqual([200, "ok\n"]);
    const again = await post(headers, body);
    expect(again.status).toBe(200);
    expect(await stored("refusals-signed")).toHaveLength(1);
  });

  it("refuses a signature made with another secret, tells the operator, stores nothing", async () => {
    expectWarning(/^webhook refusals-forged \(star\) refused: its signature does not match/);
    const body = JSON.stringify(STARRED);
    const forged = `sha256=${createHmac("sha256", "not-the-secret").update(body).digest("hex")}`;
    const res = await post(
      { ...(await headersFor("refusals-forged", body)), "x-hub-signature-256": forged },
      body,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: expect.stringContaining("signature does not match"),
    });
    expect(await stored("refusals-forged")).toEqual([]);
  });

  it("refuses a body signed for another payload", async () => {
    expectWarning(/^webhook refusals-swapped \(star\) refused/);
    const headers = await headersFor("refusals-swapped", JSON.stringify(STARRED));
    const res = await post(headers, JSON.stringify({ ...STARRED, action: "deleted" }));
    expect(res.status).toBe(400);
    expect(await stored("refusals-swapped")).toEqual([]);
  });

  it("refuses what is not JSON, or lacks a header, before reading or checking it", async () => {
    const body = JSON.stringify(STARRED);
    const signed = await headersFor("refusals-unread", body);
    const form = await post(
      { ...signed, "content-type": "application/x-www-form-urlencoded" },
      body,
    );
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({ error: expect.stringContaining('"application/json"') });

    const { "x-hub-signature-256": _, ...unsigned } = signed;
    const missing = await post(unsigned, body);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: "Required headers missing: x-hub-signature-256",
    });
    expect(await stored("refusals-unread")).toEqual([]);
  });

  it("refuses a signed body that is not a JSON object", async () => {
    for (const [id, body] of [
      ["refusals-text", "labeled"],
      ["refusals-array", "[1,2]"],
      ["refusals-null", "null"],
    ] as const) {
      const res = await post(await headersFor(id, body), body);
      expect([id, res.status]).toEqual([id, 400]);
      expect(await stored(id)).toEqual([]);
    }
  });

  it("answers any other method on the path 404", async () => {
    const res = await fetch(`${h.appUrl}${WEBHOOK_PATH}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: `Unknown route: GET ${WEBHOOK_PATH}` });
  });
});

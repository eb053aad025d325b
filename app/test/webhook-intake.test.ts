import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhooks } from "@octokit/webhooks";
import { afterEach, describe, expect, it } from "vitest";
import {
  createWebhookIntake,
  type VerifiedDelivery,
  type WebhookIntakeOptions,
} from "../src/webhooks/webhook-intake.ts";

const SECRET = "intake-secret";
const signer = new Webhooks({ secret: SECRET });

/** The endpoint on a loopback server, verifying with @octokit/webhooks as the App does. */
async function serve(record: WebhookIntakeOptions["record"]) {
  const errors: string[] = [];
  const receive = createWebhookIntake({
    verify: (body, signature) => signer.verify(body, signature),
    record,
    log: { info: () => {}, warn: () => {}, error: (m) => errors.push(m) },
  });
  const server = createServer((req, res) => void receive(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, errors, url: `http://127.0.0.1:${port}/` };
}

async function deliver(url: string, id: string, payload: unknown) {
  const body = JSON.stringify(payload);
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-github-event": "issues",
      "x-github-delivery": id,
      "x-hub-signature-256": await signer.sign(body),
    },
    body,
  });
}

describe("the webhook intake", () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = null;
  });

  it("hands over the delivery as GitHub sent it", async () => {
    const got: VerifiedDelivery[] = [];
    const s = await serve(async (d) => {
      got.push(d);
    });
    server = s.server;
    const payload = { action: "opened", installation: { id: 7 }, note: "é ✓" };
    expect((await deliver(s.url, "d-1", payload)).status).toBe(200);
    expect(got).toEqual([{ id: "d-1", name: "issues", payload, body: JSON.stringify(payload) }]);
  });

  it("answers only once the delivery is stored, however long that takes", async () => {
    let store = () => {};
    const s = await serve(() => new Promise<void>((resolve) => (store = resolve)));
    server = s.server;
    let answered = false;
    const answer = deliver(s.url, "d-slow", { action: "opened" }).then((res) => {
      answered = true;
      return res.status;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    store();
    expect(await answer).toBe(200);
  });

  it("answers 500 when the delivery cannot be stored, so GitHub marks it failed", async () => {
    const s = await serve(async () => {
      throw new Error("connection refused");
    });
    server = s.server;
    const res = await deliver(s.url, "d-lost", { action: "opened" });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain("connection refused");
    expect(s.errors).toEqual([
      expect.stringMatching(/^webhook d-lost \(issues\) not stored: connection refused/),
    ]);
  });
});

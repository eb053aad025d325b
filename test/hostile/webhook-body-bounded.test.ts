import { Agent, request } from "node:http";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_PATH } from "../../app/src/create-loopx-app.ts";
import { type Harness, startHarness } from "../support/app-harness.ts";

/** GitHub caps a webhook payload at 25 MB (docs: "About webhook events and payloads", Payload cap). */
const CAP = 25 * 1024 * 1024;
const MB = 1024 * 1024;

const HEADERS = {
  "content-type": "application/json",
  "x-github-event": "issues",
  "x-github-delivery": "00000000-0000-4000-8000-000000000413",
  // Unsigned in all but name: the App must refuse the size before it could check this.
  "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
};

interface Sent {
  status: number;
  /** Bytes the client managed to send before the App answered. */
  sent: number;
  /** Peak growth of this process's resident memory while it lasted (the App runs here). */
  peakRssGrowth: number;
  /** Peak growth of what JavaScript holds: the heap and the buffers outside it. */
  peakHeapGrowth: number;
}

const heap = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * POSTs `total` bytes to the webhook endpoint in 1 MB chunks (one reused buffer, so the
 * client holds no more than that), declared with `declaredLength` or chunked when null.
 * Stops sending as soon as the App answers.
 */
function post(url: string, total: number, declaredLength: number | null): Promise<Sent> {
  const chunk = Buffer.alloc(MB, "a".charCodeAt(0));
  const base = process.memoryUsage().rss;
  const heapBase = heap();
  let peak = base;
  let heapPeak = heapBase;
  const measure = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
    heapPeak = Math.max(heapPeak, heap());
  };
  const sample = setInterval(measure, 5);
  return new Promise<Sent>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = { ...HEADERS };
    if (declaredLength !== null) headers["content-length"] = String(declaredLength);
    // A connection of its own (never one another request left mid-body), kept alive as
    // GitHub's are, so the App lingers to let it read the answer rather than hanging up.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const req = request(`${url}${WEBHOOK_PATH}`, { method: "POST", headers, agent }, (res) => {
      answered = true;
      res.resume();
      res.on("end", () => {
        clearInterval(sample);
        peak = Math.max(peak, process.memoryUsage().rss);
        req.destroy();
        agent.destroy();
        resolve({
          status: res.statusCode ?? 0,
          sent,
          peakRssGrowth: peak - base,
          peakHeapGrowth: heapPeak - heapBase,
        });
      });
    });
    req.on("error", (error) => {
      if (!answered) {
        clearInterval(sample);
        reject(error);
      }
    });
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered && sent >= total) req.end();
    };
    pump();
  });
}

/**
 * An unauthenticated stranger POSTs a huge body to the webhook endpoint. The App answers 413
 * for a declared length over GitHub's cap without reading the body, and for a chunked body
 * as soon as it passes the cap, so its memory grows by far less than the body (64 MB for
 * 300 MB sent) — the signature is never checked on what it refused to buffer.
 */
describe("hostile: the webhook endpoint never buffers a body over GitHub's 25 MB cap", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("a declared content-length over the cap: 413 before the body is read", async () => {
    const answer = await post(h.appUrl, MB, 300 * MB);
    expect(answer.status).toBe(413);
    // The App answered with most of the declared body never sent.
    expect(answer.sent).toBeLessThan(CAP);
  });

  it("a chunked 300 MB body: 413 once it passes the cap; memory grows < 64 MB", async () => {
    const answer = await post(h.appUrl, 300 * MB, null);
    console.log(
      `chunked 300 MB POST: ${answer.status} after ${Math.round(answer.sent / MB)} MB sent; peak growth ${Math.round(answer.peakRssGrowth / MB)} MB RSS, ${Math.round(answer.peakHeapGrowth / MB)} MB heap and buffers`,
    );
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(300 * MB);
    expect(answer.peakRssGrowth).toBeLessThan(64 * MB);
    expect(answer.peakHeapGrowth).toBeLessThan(64 * MB);
  });

  it("nothing refused was recorded as a delivery", async () => {
    const rows = await dbOf(h.store).execute(
      sql`SELECT count(*)::int AS n FROM inbox WHERE delivery_id = ${HEADERS["x-github-delivery"]}`,
    );
    expect(JSON.stringify(rows)).toContain('"n":0');
  });
});

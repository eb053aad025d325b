import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../packages/sandbox/src/index.ts";
import { startAppProcess } from "../faults/support/app-process.ts";
import { TICK_WORKFLOW } from "../support/app-harness.ts";
import { startSmeeChannel } from "../support/smee-channel.ts";

/**
 * Scenario: local development behind no public URL. GitHub posts webhooks to a smee channel;
 * `npm start` with WEBHOOK_PROXY_URL relays them to itself, signatures intact, and acts on
 * them; a bad channel URL is refused at start.
 */
describe("e2e: WEBHOOK_PROXY_URL (smee)", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it("webhooks sent to the channel reach the App, which starts the goal", async () => {
    const secret = "proxy-secret";
    const sandbox = await createSandbox({ webhookSecret: secret });
    cleanup.push(() => sandbox.stop());
    const channel = await startSmeeChannel();
    cleanup.push(() => channel.close());
    sandbox.createRepo("acme/widgets", {
      files: { ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
      collaborators: { alice: "maintain" },
    });
    const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
    const dataDir = await mkdtemp(join(tmpdir(), "loopx-proxy-"));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const p = await startAppProcess({
      APP_ID: String(app.id),
      PRIVATE_KEY: privateKey ?? "",
      WEBHOOK_SECRET: secret,
      LOOPX_PUBLIC_URL: "https://loopx.example.com",
      LOOPX_DATA_DIR: dataDir,
      GITHUB_API_URL: sandbox.gheUrl,
      LOOPX_POLL_INTERVAL_MS: "200",
      WEBHOOK_PROXY_URL: channel.url,
    });
    cleanup.push(() => p.stop());
    // GitHub knows only the channel: the App's own address is never given to it.
    sandbox.setWebhookUrl(channel.url);
    sandbox.install(app.id, "acme", ["acme/widgets"]);
    const alice = new Octokit({
      baseUrl: sandbox.url,
      auth: sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
    const o = { owner: "acme", repo: "widgets" };
    const { data: issue } = await alice.rest.issues.create({ ...o, title: "Cache it", body: "." });
    await alice.rest.issues.addLabels({ ...o, issue_number: issue.number, labels: ["loopx"] });
    let comments = 0;
    for (let i = 0; i < 100 && comments === 0; i++) {
      await sandbox.settle();
      comments = (await alice.rest.issues.listComments({ ...o, issue_number: issue.number })).data
        .length;
      if (comments === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(comments, p.output()).toBe(1);
    expect(channel.received()).toBeGreaterThanOrEqual(3);
    expect(await p.stop()).toBe(0);
  });

  it("a WEBHOOK_PROXY_URL that is not a URL is refused at start, naming the fix", async () => {
    const sandbox = await createSandbox();
    cleanup.push(() => sandbox.stop());
    const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
    await expect(
      startAppProcess({
        APP_ID: String(app.id),
        PRIVATE_KEY: privateKey ?? "",
        WEBHOOK_SECRET: "s",
        LOOPX_PUBLIC_URL: "https://loopx.example.com",
        LOOPX_DATA_DIR: "/tmp/unused",
        WEBHOOK_PROXY_URL: "smee.io/abc",
      }),
    ).rejects.toThrow(/WEBHOOK_PROXY_URL must be a smee.io channel URL/);
  });
});

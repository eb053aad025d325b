import { createServer, type Server } from "node:http";
import { createNodeMiddleware, Probot } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoopxOctokit } from "../../app/src/github/loopx-octokit.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

/**
 * A real Probot app, served over HTTP on loopback, against the sandbox: the sandbox sends a
 * signed `issues.labeled` webhook, the app comments back through `context.octokit.rest`, the
 * comment lands in sandbox state and its `issue_comment.created` echo comes back with the
 * app's bot as sender.
 */
describe("e2e: a real Probot app against the sandbox", () => {
  const secret = "e2e-secret";
  let sandbox: Sandbox;
  let server: Server;
  const seen: Array<{ name: string; action?: string; sender: string; senderType: string }> = [];

  beforeAll(async () => {
    sandbox = await createSandbox({ webhookSecret: secret });
    sandbox.createRepo("acme/widgets", { collaborators: { alice: "write" } });
    const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
    if (!privateKey) throw new Error("no key");
    const probot = new Probot({
      appId: app.id,
      privateKey,
      secret,
      baseUrl: sandbox.gheUrl,
      Octokit: LoopxOctokit,
      logLevel: "warn",
    });
    await probot.load((bot) => {
      bot.onAny(async (context) => {
        const payload = context.payload as {
          action?: string;
          sender?: { login: string; type: string };
        };
        seen.push({
          name: context.name,
          action: payload.action,
          sender: payload.sender?.login ?? "",
          senderType: payload.sender?.type ?? "",
        });
      });
      bot.on("issues.labeled", async (context) => {
        if (context.payload.label?.name !== "loopx") return;
        await context.octokit.rest.issues.createComment(context.issue({ body: "LoopX is on it." }));
      });
    });
    const middleware = await createNodeMiddleware(() => {}, {
      probot,
      webhooksPath: "/api/github/webhooks",
    });
    server = createServer((req, res) => {
      void Promise.resolve(middleware(req, res)).then((handled) => {
        if (!handled) {
          res.statusCode = 404;
          res.end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("no address");
    sandbox.setWebhookUrl(`http://127.0.0.1:${address.port}/api/github/webhooks`);
    sandbox.install(app.id, "acme", ["acme/widgets"]);
  });

  afterAll(async () => {
    await sandbox.stop();
    await new Promise((resolve) => server.close(resolve));
  });

  it("labeled → comment via installation token → issue_comment.created echo from the bot", async () => {
    const alice = sandbox.createUserToken("alice");
    const headers = { authorization: `token ${alice}`, "content-type": "application/json" };
    const created = await fetch(`${sandbox.url}/repos/acme/widgets/issues`, {
      method: "POST",
      headers,
      body: JSON.stringify({ title: "Make widgets faster" }),
    });
    const { number } = (await created.json()) as { number: number };
    await fetch(`${sandbox.url}/repos/acme/widgets/issues/${number}/labels`, {
      method: "POST",
      headers,
      body: JSON.stringify({ labels: ["loopx"] }),
    });
    await sandbox.settle();
    await sandbox.settle();

    const labeled = sandbox
      .deliveries()
      .find((d) => d.event === "issues" && d.action === "labeled");
    expect(labeled?.statusCode).toBe(200);
    const comments = sandbox.issue("acme/widgets", number).comments_list as Array<{
      body: string;
      user: { login: string };
    }>;
    expect(comments).toEqual([
      expect.objectContaining({
        body: "LoopX is on it.",
        user: expect.objectContaining({ login: "loopx[bot]" }),
      }),
    ]);
    expect(seen).toContainEqual({
      name: "issue_comment",
      action: "created",
      sender: "loopx[bot]",
      senderType: "Bot",
    });
    const tokenCalls = sandbox
      .requests()
      .filter((r) => r.operationId === "apps/create-installation-access-token");
    expect(tokenCalls.length).toBeGreaterThan(0);
    expect(sandbox.requests().every((r) => r.path.startsWith("/") && r.status < 500)).toBe(true);
  });

  it("a webhook signed with the wrong secret is refused by Probot", async () => {
    sandbox.store.apps.forEach((app) => {
      app.webhookSecret = "wrong";
    });
    const alice = sandbox.createUserToken("alice");
    await fetch(`${sandbox.url}/repos/acme/widgets/issues`, {
      method: "POST",
      headers: { authorization: `token ${alice}` },
      body: JSON.stringify({ title: "bad sig" }),
    });
    await sandbox.settle();
    const last = sandbox.deliveries().at(-1);
    expect(last?.statusCode).toBeGreaterThanOrEqual(400);
  });
});

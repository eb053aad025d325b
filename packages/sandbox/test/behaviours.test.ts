import { Octokit } from "@octokit/rest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox, takeUnsupported } from "../src/index.ts";
import { auth, clone, commitFile, git } from "./git-support.ts";
import { client, errorsText, o, setup, webhookValidator } from "./helpers.ts";

type T = Awaited<ReturnType<typeof setup>>;
let t: T | undefined;
afterEach(async () => {
  await t?.sandbox.stop();
  t = undefined;
});
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status,
  );

describe("sandbox behaviours", () => {
  it("starts in under a second", async () => {
    const started = performance.now();
    const sandbox = await createSandbox();
    const ms = performance.now() - started;
    await sandbox.stop();
    expect(ms).toBeLessThan(1000);
  });

  it("401 with GitHub's body for a missing, bad or expired token; 404 + loud log for an unsupported route", async () => {
    t = await setup();
    const anon = new Octokit({ baseUrl: t.sandbox.url });
    const res = await fetch(`${t.sandbox.url}/repos/acme/widgets/issues`, {
      method: "POST",
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      message: "Requires authentication",
      documentation_url: "https://docs.github.com/rest",
      status: "401",
    });
    expect(await status(client(t.sandbox, "ghs_nope").rest.repos.get(o))).toBe(401);
    await t.sandbox.clock.advance(61 * 60 * 1000);
    expect(await status(t.bot.rest.repos.get(o))).toBe(401);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const miss = await fetch(`${t.sandbox.url}/repos/acme/widgets/deployments`);
    expect(miss.status).toBe(404);
    expect(await miss.json()).toEqual({
      message: "Not Found",
      documentation_url: "https://docs.github.com/rest",
      status: "404",
    });
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining("UNSUPPORTED ROUTE GET /repos/acme/widgets/deployments"),
    );
    expect(t.sandbox.unsupported().map((r) => r.path)).toEqual(["/repos/acme/widgets/deployments"]);
    // The strict test setup fails any test making such a call; this one made it on purpose.
    expect(takeUnsupported().map((r) => r.path)).toEqual(["/repos/acme/widgets/deployments"]);
    warn.mockRestore();
    expect(await status(anon.rest.apps.getAuthenticated())).toBe(401);
  });

  it("rate-limit headers on every response, and the API under /api/v3 too", async () => {
    t = await setup();
    const res = await fetch(`${t.sandbox.gheUrl}/repos/acme/widgets`, {
      headers: { authorization: `token ${t.sandbox.createUserToken("alice")}` },
    });
    expect(res.status).toBe(200);
    for (const h of [
      "x-ratelimit-limit",
      "x-ratelimit-remaining",
      "x-ratelimit-reset",
      "x-ratelimit-used",
    ])
      expect(res.headers.get(h)).not.toBeNull();
  });

  it("content-creation secondary limit: the 81st create in a minute is a 403 with retry-after", async () => {
    t = await setup();
    const issue = (await t.bot.rest.issues.create({ ...o, title: "x" })).data;
    for (let i = 0; i < 79; i++)
      await t.bot.rest.issues.createComment({ ...o, issue_number: issue.number, body: `c${i}` });
    const err = await t.bot.rest.issues
      .createComment({ ...o, issue_number: issue.number, body: "one too many" })
      .catch(
        (e: {
          status: number;
          response: { headers: Record<string, string>; data: { message: string } };
        }) => e,
      );
    expect(err).toMatchObject({ status: 403 });
    if ("response" in err) {
      expect(Number(err.response.headers["retry-after"])).toBeGreaterThan(0);
      expect(err.response.data.message).toMatch(/secondary rate limit/);
    }
    await t.sandbox.clock.advance(61_000);
    expect(
      await status(
        t.bot.rest.issues.createComment({ ...o, issue_number: issue.number, body: "later" }),
      ),
    ).toBe(200);
    expect(t.sandbox.contentCreating()).toBe(81);
  });

  it("route faults: 5xx, 429 with retry-after, latency — switchable at run time", async () => {
    t = await setup();
    t.sandbox.faults.route({ route: "repos/get", status: 502, times: 1 });
    expect(await status(t.bot.rest.repos.get(o))).toBe(502);
    t.sandbox.faults.route({
      route: "/repos/{owner}/{repo}",
      status: 429,
      retryAfter: 7,
      times: 1,
    });
    const err = await t.bot.rest.repos
      .get(o)
      .catch((e: { status: number; response: { headers: Record<string, string> } }) => e);
    expect(err).toMatchObject({ status: 429, response: { headers: { "retry-after": "7" } } });
    t.sandbox.faults.route({ route: "repos/get", latencyMs: 150, times: 1 });
    const started = performance.now();
    await t.bot.rest.repos.get(o);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("mergeable is null until computed, then dirty on conflicts; merge closes linked issues only on the default branch", async () => {
    t = await setup();
    const { bot, sandbox } = t;
    const a = (await bot.rest.issues.create({ ...o, title: "a" })).data;
    const b = (await bot.rest.issues.create({ ...o, title: "b" })).data;
    sandbox.push("acme/widgets", "dev", { "x.txt": "dev" });
    sandbox.push("acme/widgets", "feat", { "y.txt": "feat" });
    const toDev = (
      await bot.rest.pulls.create({
        ...o,
        title: "to dev",
        head: "feat",
        base: "dev",
        body: `Fixes #${b.number}`,
      })
    ).data;
    expect(toDev.mergeable).toBeNull();
    await bot.rest.pulls.merge({ ...o, pull_number: toDev.number });
    expect((await bot.rest.issues.get({ ...o, issue_number: b.number })).data.state).toBe("open");
    sandbox.push("acme/widgets", "fix", { "z.txt": "fix" });
    const pr = (
      await bot.rest.pulls.create({
        ...o,
        title: "fix",
        head: "fix",
        base: "main",
        body: `closes #${a.number}`,
      })
    ).data;
    sandbox.setConflict("acme/widgets", pr.number, true);
    expect((await bot.rest.pulls.get({ ...o, pull_number: pr.number })).data.mergeable).toBeNull();
    const computed = (await bot.rest.pulls.get({ ...o, pull_number: pr.number })).data;
    expect([computed.mergeable, computed.mergeable_state]).toEqual([false, "dirty"]);
    expect(await status(bot.rest.pulls.merge({ ...o, pull_number: pr.number }))).toBe(405);
    sandbox.setConflict("acme/widgets", pr.number, false);
    await bot.rest.pulls.merge({ ...o, pull_number: pr.number });
    expect((await bot.rest.issues.get({ ...o, issue_number: a.number })).data).toMatchObject({
      state: "closed",
      state_reason: "completed",
    });
    expect(pr.requested_reviewers?.map((u) => u.login)).toEqual(["alice"]);
  });

  it("a PR whose head brings the base nothing is 422 No commits between, and nothing is opened", async () => {
    t = await setup();
    const { bot, bob, sandbox } = t;
    const noCommits = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: { status: number; response: { data: { errors?: { message?: string }[] } } }) => [
          e.status,
          e.response.data.errors?.map((x) => x.message),
        ],
      );
    // A branch whose PR merged, after main moved on: its head is in main, nothing to pull.
    sandbox.push("acme/widgets", "feat", { "feat.txt": "feat" });
    const first = (await bot.rest.pulls.create({ ...o, title: "x", head: "feat", base: "main" }))
      .data;
    await bot.rest.pulls.merge({ ...o, pull_number: first.number });
    sandbox.push("acme/widgets", "main", { "later.txt": "main moved on" });
    const again = (head: string) => bot.rest.pulls.create({ ...o, title: "x", head, base: "main" });
    expect(await noCommits(again("feat"))).toEqual([422, ["No commits between main and feat"]]);
    expect(await noCommits(again("main"))).toEqual([422, ["No commits between main and main"]]);
    // A fork's branch named with its owner: GitHub names the base with its owner too.
    const fork = (await bob.rest.repos.createFork(o)).data;
    await sandbox.settle();
    expect(
      await noCommits(bob.rest.pulls.create({ ...o, title: "x", head: "bob:main", base: "main" })),
    ).toEqual([422, ["No commits between acme:main and bob:main"]]);
    sandbox.push(fork.full_name, "main", { "mine.txt": "bob's" }, "bob");
    const opened = await bob.rest.pulls.create({
      ...o,
      title: "x",
      head: "bob:main",
      base: "main",
    });
    expect(opened.status).toBe(201);
    const listed = (await bot.rest.pulls.list({ ...o, state: "all" })).data;
    expect(listed.map((p) => [p.number, p.head.label])).toEqual([
      [opened.data.number, "bob:main"],
      [first.number, "acme:feat"],
    ]);
  });

  it("reopening a closed PR follows its branch forward; a merged or rewritten one stays shut", async () => {
    t = await setup();
    const { bot, sandbox } = t;
    const reopen = (n: number) =>
      status(bot.rest.pulls.update({ ...o, pull_number: n, title: "again", state: "open" }));
    const closedPull = async (branch: string) => {
      sandbox.push("acme/widgets", branch, { [`${branch}.txt`]: "1" });
      const pr = (await bot.rest.pulls.create({ ...o, title: branch, head: branch, base: "main" }))
        .data;
      await bot.rest.pulls.update({ ...o, pull_number: pr.number, state: "closed" });
      return pr;
    };
    // Closed, then its branch moved forward: reopened at the branch's new tip.
    const moved = await closedPull("moved");
    const tip = sandbox.push("acme/widgets", "moved", { "moved.txt": "2" });
    const before = sandbox.emitted.length;
    expect(await reopen(moved.number)).toBe(200);
    const now = (await bot.rest.pulls.get({ ...o, pull_number: moved.number })).data;
    expect([now.state, now.head.sha, now.title]).toEqual(["open", tip, "again"]);
    const reopened = sandbox.emitted
      .slice(before)
      .filter((e) => e.event === "pull_request" && e.payload.action === "reopened");
    expect(reopened).toHaveLength(1);
    const validate = webhookValidator("pull_request", "reopened");
    if (!validate) throw new Error("no schema for pull_request.reopened");
    expect(validate(reopened[0]?.payload), errorsText(validate)).toBe(true);
    // Merged: it stays merged, and the refused edit changes nothing.
    const merged = await closedPull("merged");
    await bot.rest.pulls.update({ ...o, pull_number: merged.number, state: "open" });
    await bot.rest.pulls.merge({ ...o, pull_number: merged.number });
    expect(await reopen(merged.number)).toBe(422);
    expect((await bot.rest.pulls.get({ ...o, pull_number: merged.number })).data.title).toBe(
      "merged",
    );
    // Rewritten (force-pushed onto another history): GitHub cannot reopen it either.
    const rewritten = await closedPull("rewritten");
    const dir = await clone(sandbox.cloneUrl("acme/widgets"), sandbox.createUserToken("alice"));
    await git(dir, "checkout", "--quiet", "-B", "rewritten", "origin/main");
    await commitFile(dir, "other.txt", "another history");
    await git(
      dir,
      ...auth(sandbox.createUserToken("alice")),
      "push",
      "--quiet",
      "--force",
      "origin",
      "rewritten",
    );
    await sandbox.settle();
    expect(await reopen(rewritten.number)).toBe(422);
    const shut = (await bot.rest.pulls.get({ ...o, pull_number: rewritten.number })).data;
    expect([shut.state, shut.head.sha]).toEqual(["closed", rewritten.head.sha]);
  });

  it("sub-issues: one parent, eight levels deep at most, never its own ancestor", async () => {
    t = await setup({ secondaryLimits: false });
    const { bot } = t;
    const make = async (title: string) => (await bot.rest.issues.create({ ...o, title })).data;
    const link = (parent: number, id: number, replace?: boolean) =>
      status(
        bot.rest.issues.addSubIssue({
          ...o,
          issue_number: parent,
          sub_issue_id: id,
          ...(replace === undefined ? {} : { replace_parent: replace }),
        }),
      );
    const chain = [await make("root")];
    for (let level = 1; level <= 8; level++) {
      const child = await make(`level ${level}`);
      const above = chain[chain.length - 1];
      if (!above) throw new Error("no parent");
      expect(await link(above.number, child.id)).toBe(200);
      chain.push(child);
    }
    const [root, first, , third] = chain;
    const deepest = chain[8];
    if (!root || !first || !third || !deepest) throw new Error("short chain");
    expect(await link(deepest.number, (await make("level 9")).id)).toBe(422);
    expect(await link(third.number, root.id)).toBe(422);
    // A second parent only with replace_parent, which moves it.
    const other = await make("other parent");
    expect(await link(other.number, first.id)).toBe(422);
    expect(await link(other.number, first.id, true)).toBe(200);
    const { data: parent } = await bot.rest.issues.getParent({ ...o, issue_number: first.number });
    expect(parent.number).toBe(other.number);
    const { data: left } = await bot.rest.issues.listSubIssues({ ...o, issue_number: root.number });
    expect(left).toEqual([]);
  });

  it("sub-issues: numeric id only, 100 per parent, last writer wins on issue PATCH", async () => {
    t = await setup({ secondaryLimits: false });
    const { bot } = t;
    const parent = (await bot.rest.issues.create({ ...o, title: "parent" })).data;
    const child = (await bot.rest.issues.create({ ...o, title: "child" })).data;
    const asString = await bot
      .request("POST /repos/{owner}/{repo}/issues/{issue_number}/sub_issues" as string, {
        ...o,
        issue_number: parent.number,
        // GitHub answers 422 when the id is sent as a string; the sandbox must too.
        data: JSON.stringify({ sub_issue_id: String(child.id) }),
      })
      .catch((e: { status: number }) => e);
    expect(asString).toMatchObject({ status: 422 });
    for (let i = 0; i < 100; i++) {
      const c = (await bot.rest.issues.create({ ...o, title: `c${i}` })).data;
      await bot.rest.issues.addSubIssue({ ...o, issue_number: parent.number, sub_issue_id: c.id });
    }
    expect(
      await status(
        bot.rest.issues.addSubIssue({ ...o, issue_number: parent.number, sub_issue_id: child.id }),
      ),
    ).toBe(422);
    await Promise.all([
      bot.rest.issues.update({ ...o, issue_number: child.number, body: "first" }),
      t.alice.rest.issues.update({ ...o, issue_number: child.number, body: "second" }),
    ]);
    expect(["first", "second"]).toContain(
      (await t.bot.rest.issues.get({ ...o, issue_number: child.number })).data.body,
    );
  });
});

describe("webhook delivery", () => {
  it("signs, logs, drops, duplicates and redelivers with the same delivery id", async () => {
    const received: Array<{ event: string; guid: string; sig: string }> = [];
    const { createServer } = await import("node:http");
    const server = createServer((req, res) => {
      received.push({
        event: String(req.headers["x-github-event"]),
        guid: String(req.headers["x-github-delivery"]),
        sig: String(req.headers["x-hub-signature-256"]),
      });
      req.resume();
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    t = await setup({ webhookUrl: `http://127.0.0.1:${port}/` });
    await t.sandbox.settle();
    received.length = 0;
    t.sandbox.faults.webhook({ mode: "drop", event: "issues.opened", times: 1 });
    t.sandbox.faults.webhook({ mode: "duplicate", event: "issue_comment", times: 1 });
    const issue = (await t.bot.rest.issues.create({ ...o, title: "x" })).data;
    await t.bot.rest.issues.createComment({ ...o, issue_number: issue.number, body: "hi" });
    await t.sandbox.settle();
    expect(received.map((r) => r.event)).toEqual(["issue_comment", "issue_comment"]);
    expect(received[0]?.sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    const failed = (await t.appOctokit.rest.apps.listWebhookDeliveries()).data.find(
      (d) => d.event === "issues" && d.status_code !== 200,
    );
    expect(failed).toBeDefined();
    if (!failed) return;
    await t.appOctokit.rest.apps.redeliverWebhookDelivery({ delivery_id: failed.id });
    await t.sandbox.settle();
    expect(received.at(-1)).toMatchObject({ event: "issues", guid: failed.guid });
    await t.sandbox.stop();
    t = undefined;
    server.close();
  });
});

describe("token revocation and the inspection endpoints", () => {
  it("DELETE /installation/token: the token stops working at once, on REST and on git", async () => {
    t = await setup();
    const token = (
      await t.appOctokit.rest.apps.createInstallationAccessToken({
        installation_id: t.installation.id,
      })
    ).data.token;
    const doomed = client(t.sandbox, token);
    expect((await doomed.rest.repos.get(o)).status).toBe(200);
    await doomed.rest.apps.revokeInstallationAccessToken();
    expect(await status(doomed.rest.repos.get(o))).toBe(401);
    const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
    const git = await fetch(
      `${t.sandbox.cloneUrl("acme/widgets")}/info/refs?service=git-upload-pack`,
      {
        headers: { authorization: `Basic ${basic}` },
      },
    );
    expect(git.status).toBe(401);
  });

  it("GET /_sandbox/requests|deliveries|issues/{o}/{r}/{n}|runs/{id} answer JSON; anything else 404", async () => {
    t = await setup();
    const issue = (await t.bot.rest.issues.create({ ...o, title: "inspect me" })).data;
    await t.sandbox.settle();
    const get = async (path: string) => {
      const res = await fetch(`${t?.sandbox.url}/_sandbox/${path}`);
      const body: unknown = await res.json();
      return { status: res.status, body };
    };
    const requests = await get("requests");
    expect(requests.status).toBe(200);
    expect(requests.body).toContainEqual(
      expect.objectContaining({
        method: "POST",
        route: "/repos/{owner}/{repo}/issues",
        status: 201,
      }),
    );
    const deliveries = await get("deliveries");
    expect(deliveries.body).toContainEqual(
      expect.objectContaining({ event: "issues", action: "opened" }),
    );
    const one = await get(`issues/acme/widgets/${issue.number}`);
    expect(one.body).toMatchObject({ title: "inspect me", comments_list: [], sub_issue_ids: [] });
    const runId = (
      (
        await t.bot.request(
          "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
          {
            ...o,
            workflow_id: "loopx.yml",
            ref: "main",
            return_run_details: true,
          },
        )
      ).data as { workflow_run_id: number }
    ).workflow_run_id;
    await t.sandbox.runner.wait(runId);
    const run = await get(`runs/${runId}`);
    expect(run.body).toMatchObject({
      id: runId,
      status: "completed",
      conclusion: "success",
      jobs: [expect.objectContaining({ key: "tick", conclusion: "success" })],
    });
    expect((await get("issues/acme/widgets/999")).status).toBe(404);
    expect((await get("nope")).status).toBe(404);
  });
});

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Octokit } from "@octokit/rest";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { type AppProcess, appProcessEnv, startAppProcess } from "../faults/support/app-process.ts";
import { TICK_WORKFLOW } from "../support/app-harness.ts";
import { freshDatabase } from "../support/databases.ts";
import { findPgBin } from "../support/postgres-server.ts";
import { playPlanTick, playTick, type TickClient } from "../support/pr-ticks.ts";
import { requireChecks } from "../support/required-checks.ts";
import { mintTickToken, postJson } from "../support/tick-api-harness.ts";
import { checkoutRelease, previousRelease, type Release } from "./support/previous-release.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const serverUrl = inject("pgUrl");
const pgBin = findPgBin();
const AUDIENCE = "https://loopx.example.com";
const release: Release = previousRelease(ROOT);

/**
 * Scenario: an upgrade. The previous release (the newest vX.Y.Z tag; before the first, the
 * commit of main HEAD forked from) runs on PostgreSQL and starts a goal; its store is dumped
 * (pg_dump) and loaded into a new database; HEAD starts on that, applies its migrations, and
 * takes the goal to done: a plan, a slice, the PR, a person's approval and merge.
 */
describe.skipIf(!serverUrl || !pgBin)("install: upgrading from the previous release", () => {
  const secret = "upgrade-secret";
  let scratch: string;
  let releaseTree: string;
  let sandbox: Sandbox;
  let app: { id: number; privateKey: string };
  const running: AppProcess[] = [];
  const drops: (() => Promise<void>)[] = [];
  const repo = { owner: "acme", repo: "widgets" } as const;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "loopx-upgrade-"));
    releaseTree = checkoutRelease(ROOT, release.sha, join(scratch, "release"));
    sandbox = await createSandbox({ webhookSecret: secret });
    sandbox.runner.enabled = false;
    sandbox.createRepo("acme/widgets", {
      files: { "README.md": "# widgets\n", ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
      collaborators: { alice: "maintain" },
    });
    // The widgets repository has CI: without a required check no branch work is green.
    await requireChecks(sandbox, "acme/widgets", ["ci"]);
    const created = sandbox.createApp({ slug: "loopx" });
    if (!created.privateKey) throw new Error("no key");
    app = { id: created.app.id, privateKey: created.privateKey };
  }, 300_000);
  afterAll(async () => {
    for (const p of running) await p.kill();
    await sandbox?.stop();
    for (const drop of drops) await drop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const database = async () => {
    const db = await freshDatabase(serverUrl ?? "");
    drops.push(db.drop);
    return db.url;
  };
  const start = async (databaseUrl: string, cwd?: string) => {
    const env = appProcessEnv({
      sandbox,
      appId: app.id,
      privateKey: app.privateKey,
      webhookSecret: secret,
      databaseUrl,
    });
    // The sandbox's Actions tokens come from its own issuer, not GHES's /_services/token.
    const p = await startAppProcess({ ...env, LOOPX_OIDC_ISSUER: sandbox.url }, cwd ? { cwd } : {});
    running.push(p);
    sandbox.setWebhookUrl(`${p.base}/api/github/webhooks`);
    return p;
  };
  /** The first row of a query, parsed. */
  const one = async <T extends z.ZodType>(url: string, text: string, row: T) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      return z.array(row).parse(await sql.unsafe(text))[0];
    } finally {
      await sql.end();
    }
  };
  const until = async (what: string, ok: () => Promise<boolean>) => {
    const deadline = Date.now() + 60_000;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sandbox.settle();
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it(`HEAD migrates the dumped store of ${release.ref} (${release.sha.slice(0, 12)}) and takes its goal to done`, async () => {
    const alice = new Octokit({
      baseUrl: sandbox.url,
      auth: sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });

    // The release: a goal started, its projection written.
    const releaseDb = await database();
    const old = await start(releaseDb, releaseTree);
    sandbox.install(app.id, "acme", ["acme/widgets"]);
    await sandbox.settle();
    const { data: issue } = await alice.rest.issues.create({
      ...repo,
      title: "Cache the layout",
      body: "Rendering recomputes it.",
    });
    await alice.rest.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["loopx"] });
    await until("the release's goal and its drained outbox", async () => {
      const row = await one(
        releaseDb,
        "SELECT (SELECT count(*)::int FROM goals) AS goals, (SELECT count(*)::int FROM outbox WHERE done_at IS NULL) AS pending",
        z.object({ goals: z.number(), pending: z.number() }),
      );
      return row?.goals === 1 && row.pending === 0;
    });
    expect(await old.stop(), old.output()).toBe(0);
    running.length = 0;

    // Its store, dumped and loaded as an operator would move it.
    const dump = join(scratch, `store-${release.ref}.sql`);
    writeFileSync(
      dump,
      execFileSync(join(pgBin ?? "", "pg_dump"), ["--no-owner", "--no-privileges", releaseDb], {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      }),
    );
    const headDb = await database();
    execFileSync(join(pgBin ?? "", "psql"), ["-q", "-v", "ON_ERROR_STOP=1", "-f", dump, headDb], {
      stdio: "pipe",
    });
    const migrations = async () =>
      (
        await one(
          headDb,
          "SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations",
          z.object({ n: z.number() }),
        )
      )?.n ?? 0;
    const releaseMigrations = await migrations();
    expect(releaseMigrations).toBeGreaterThan(0);

    // HEAD on the loaded store: it migrates, then carries the goal on.
    const head = await start(headDb);
    const journal = await import("../../migrations/meta/_journal.json", { with: { type: "json" } });
    expect(await migrations()).toBe(journal.default.entries.length);
    expect(await migrations()).toBeGreaterThanOrEqual(releaseMigrations);

    const client: TickClient = {
      sandbox,
      repo: {
        owner: "acme",
        name: "widgets",
        fullName: "acme/widgets",
        id: sandbox.store.repoByName("acme", "widgets").id,
        ownerId: sandbox.store.repoByName("acme", "widgets").ownerId,
      },
      post: (path, body, token) => postJson(`${head.base}${path}`, body, token),
      token: (run, claims = {}) =>
        mintTickToken(sandbox, client.repo, run, claims, { audience: AUDIENCE }),
    };
    // The goal has no todos: its first slice plans one.
    const planned = await playPlanTick(client, issue.number, {
      done: "Planned the work.",
      next: "Cache the layout.",
      proposedTodos: [{ title: "Memoise layout()" }],
    });
    expect(planned).toBe(200);

    sandbox.ci.rule = () => "success";
    const tick = await playTick(
      client,
      issue.number,
      { "src/layout.ts": "export const layout = memo();\n" },
      { complete: true },
    );
    const pull = async () =>
      (await alice.rest.pulls.list({ ...repo, state: "all" })).data.find(
        (p) => p.head.ref === tick.branch,
      );
    await until("the PR", async () => (await pull()) !== undefined);
    const pr = await pull();
    if (!pr) throw new Error("no PR");
    const mergeGate = async () =>
      (
        await one(
          headDb,
          `SELECT status FROM gates WHERE pr_number = ${pr.number} AND pr_head_sha = '${tick.sha}'`,
          z.object({ status: z.string() }),
        )
      )?.status;
    await until("the merge gate", async () => (await mergeGate()) === "open");
    await alice.rest.pulls.createReview({
      ...repo,
      pull_number: pr.number,
      commit_id: tick.sha,
      event: "APPROVE",
    });
    await until("the approval", async () => (await mergeGate()) === "approved");
    await alice.rest.pulls.merge({ ...repo, pull_number: pr.number });
    await until("the goal done", async () => {
      const row = await one(headDb, "SELECT status FROM goals", z.object({ status: z.string() }));
      return row?.status === "done";
    });
    await until("the issue closed", async () =>
      Promise.resolve(
        z.object({ state: z.string() }).parse(sandbox.issue("acme/widgets", issue.number)).state ===
          "closed",
      ),
    );
    expect(sandbox.issue("acme/widgets", issue.number)).toMatchObject({
      state: "closed",
      state_reason: "completed",
    });
    expect(await head.stop(), head.output()).toBe(0);
    running.length = 0;
  }, 300_000);
});

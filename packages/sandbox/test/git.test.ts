import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { auth, clone, commitFile, git, gitTry } from "./git-support.ts";
import { client, errorsText, o, setup, webhookValidator } from "./helpers.ts";

type T = Awaited<ReturnType<typeof setup>>;
let t: T | undefined;
afterEach(async () => {
  await t?.sandbox.stop();
  t = undefined;
});

async function tokenFor(
  t: T,
  body: { repositories?: string[]; permissions?: Record<string, "read" | "write"> },
): Promise<string> {
  const { data } = await t.appOctokit.rest.apps.createInstallationAccessToken({
    installation_id: t.installation.id,
    ...body,
  });
  return data.token;
}

function validated(t: T, event: string, action?: string) {
  const found = t.sandbox.emitted.filter(
    (e) => e.event === event && (action === undefined || e.payload.action === action),
  );
  const validate = webhookValidator(event, action);
  if (!validate) throw new Error(`no schema for ${event}.${action}`);
  for (const e of found) if (!validate(e.payload)) throw new Error(errorsText(validate));
  return found.map((e) => e.payload);
}

describe("real git repositories over smart HTTP", () => {
  it("clones with an installation token; the contents API and clone_url read the same git", async () => {
    t = await setup();
    const repo = (await t.bot.rest.repos.get(o)).data;
    expect(repo.clone_url).toBe(`${t.sandbox.url}/acme/widgets.git`);
    const token = await tokenFor(t, {});
    const dir = await clone(repo.clone_url, token);
    expect(readFileSync(join(dir, ".github/loopx.yml"), "utf8")).toBe("harness: shell\n");
    // The token was passed as a header, not stored: nothing credential-like in the clone's config.
    expect(readFileSync(join(dir, ".git/config"), "utf8")).not.toContain(token);
    const file = (await t.bot.rest.repos.getContent({ ...o, path: ".github/CODEOWNERS" })).data;
    if (Array.isArray(file) || file.type !== "file") throw new Error("not a file");
    expect(file.sha).toBe((await git(dir, "rev-parse", "HEAD:.github/CODEOWNERS")).trim());
    // No credentials: git is challenged (401) like for a private repository on GitHub.
    const anon = await gitTry(dir, "ls-remote", repo.clone_url);
    expect(anon.status).not.toBe(0);
  });

  it("push needs contents:write on a token covering the repo: read-only and other-repo tokens get 403", async () => {
    t = await setup();
    const gadgets = t.sandbox.createRepo("acme/gadgets");
    t.installation.repositoryIds.push(gadgets.id);
    const url = t.sandbox.cloneUrl("acme/widgets");
    const readOnly = await tokenFor(t, { permissions: { contents: "read" } });
    const elsewhere = await tokenFor(t, { repositories: ["gadgets"] });
    const writer = await tokenFor(t, {
      repositories: ["widgets"],
      permissions: { contents: "write" },
    });
    const dir = await clone(url, readOnly);
    await commitFile(dir, "src/x.ts", "export const x = 1;\n");
    const refused = await gitTry(
      dir,
      ...auth(readOnly),
      "push",
      "origin",
      "HEAD:refs/heads/feature",
    );
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("403");
    const other = await gitTry(
      dir,
      ...auth(elsewhere),
      "push",
      "origin",
      "HEAD:refs/heads/feature",
    );
    expect(other.stderr).toContain("403");
    expect(t.sandbox.store.repos.get(t.repo.id)?.branches.has("feature")).toBe(false);
    await git(dir, ...auth(writer), "push", "--quiet", "origin", "HEAD:refs/heads/feature");
    expect(t.sandbox.store.repos.get(t.repo.id)?.branches.get("feature")).toBe(
      (await git(dir, "rev-parse", "HEAD")).trim(),
    );
    // A user with triage only is refused too; a writer may push.
    const trina = t.sandbox.createUserToken("trina");
    expect(
      (await gitTry(dir, ...auth(trina), "push", "origin", "HEAD:refs/heads/t")).stderr,
    ).toContain("403");
  });

  it("a push emits a validated `push` webhook and `synchronize` on the open PR, with the PR's head moved", async () => {
    t = await setup();
    const token = await tokenFor(t, {});
    const dir = await clone(t.sandbox.cloneUrl("acme/widgets"), token);
    await git(dir, "checkout", "--quiet", "-b", "loopx/1-t1");
    const first = await commitFile(dir, "src/a.ts", "export const a = 1;\n", "Add a");
    await git(dir, ...auth(token), "push", "--quiet", "origin", "loopx/1-t1");
    const pr = (
      await t.bot.rest.pulls.create({ ...o, title: "T1", head: "loopx/1-t1", base: "main" })
    ).data;
    expect(pr.head.sha).toBe(first);
    expect([pr.commits, pr.changed_files, pr.additions]).toEqual([1, 1, 1]);
    const second = await commitFile(dir, "src/b.ts", "export const b = 2;\n", "Add b");
    await git(dir, ...auth(token), "push", "--quiet", "origin", "loopx/1-t1");
    await t.sandbox.settle();
    const pushes = validated(t, "push");
    expect(pushes).toHaveLength(2);
    expect(pushes[0]).toMatchObject({
      ref: "refs/heads/loopx/1-t1",
      created: true,
      after: first,
      head_commit: { id: first, message: "Add a", added: ["src/a.ts"] },
      pusher: { name: "loopx[bot]" },
      sender: { login: "loopx[bot]", type: "Bot" },
    });
    expect(pushes[1]).toMatchObject({
      before: first,
      after: second,
      created: false,
      forced: false,
    });
    expect(pushes[1]?.commits).toHaveLength(1);
    const sync = validated(t, "pull_request", "synchronize");
    expect(sync.at(-1)).toMatchObject({ before: first, after: second, number: pr.number });
    expect((await t.bot.rest.pulls.get({ ...o, pull_number: pr.number })).data.head.sha).toBe(
      second,
    );
  });

  it("mergeable comes from a trial merge: a true conflict is `dirty` (405 on merge); a clean PR merges with a real merge commit", async () => {
    t = await setup();
    const { sandbox, bot } = t;
    sandbox.push("acme/widgets", "clash", { "README.md": "theirs\n" });
    sandbox.push("acme/widgets", "main", { "README.md": "ours\n" });
    sandbox.push("acme/widgets", "clean", { "docs/new.md": "hello\n" });
    const clash = (await bot.rest.pulls.create({ ...o, title: "c", head: "clash", base: "main" }))
      .data;
    const clean = (await bot.rest.pulls.create({ ...o, title: "k", head: "clean", base: "main" }))
      .data;
    expect(clash.mergeable).toBeNull();
    const computed = (await bot.rest.pulls.get({ ...o, pull_number: clash.number })).data;
    expect(computed.mergeable_state).toBe("unknown");
    const again = (await bot.rest.pulls.get({ ...o, pull_number: clash.number })).data;
    expect([again.mergeable, again.mergeable_state]).toEqual([false, "dirty"]);
    await expect(bot.rest.pulls.merge({ ...o, pull_number: clash.number })).rejects.toMatchObject({
      status: 405,
    });
    await bot.rest.pulls.get({ ...o, pull_number: clean.number });
    expect(
      (await bot.rest.pulls.get({ ...o, pull_number: clean.number })).data.mergeable_state,
    ).toBe("clean");
    const merged = (await bot.rest.pulls.merge({ ...o, pull_number: clean.number })).data;
    const gitDir = sandbox.gitDir("acme/widgets");
    const parents = (await git(gitDir, "rev-list", "--parents", "-n", "1", merged.sha))
      .trim()
      .split(" ");
    expect(parents).toHaveLength(3);
    expect(await git(gitDir, "show", `${merged.sha}:docs/new.md`)).toBe("hello\n");
    const content = await bot.rest.repos.getContent({ ...o, path: "docs/new.md" });
    expect(Array.isArray(content.data)).toBe(false);
    await sandbox.settle();
    expect(validated(t, "push").at(-1)).toMatchObject({
      ref: "refs/heads/main",
      after: merged.sha,
    });
  });
});

describe("CI on push", () => {
  it("a push to a PR's branch creates a suite and check runs that complete by the test's rule, with validated webhooks", async () => {
    t = await setup();
    const { sandbox } = t;
    // A CI app installed on the repository, so its `check_suite.requested` is delivered (GitHub
    // sends `requested` to the suite's own app only).
    const { app: ciApp } = sandbox.createApp({ slug: "ci" });
    sandbox.install(ciApp.id, "acme", ["acme/widgets"]);
    sandbox.ci.appId = ciApp.id;
    sandbox.ci.checks = ["test", "lint"];
    // A verdict may carry the output a job's log would give, as a check run's `output` does.
    sandbox.ci.rule = (c) =>
      c.read("fail.txt") !== null && c.check === "test"
        ? { conclusion: "failure", title: "1 test failed", summary: "fail.txt: boom" }
        : "success";
    const token = await tokenFor(t, {});
    const dir = await clone(sandbox.cloneUrl("acme/widgets"), token);
    await git(dir, "checkout", "--quiet", "-b", "work");
    await commitFile(dir, "ok.txt", "ok\n");
    await git(dir, ...auth(token), "push", "--quiet", "origin", "work");
    expect(sandbox.store.checkSuites.size).toBe(0); // no PR yet: no CI
    const pr = (await t.bot.rest.pulls.create({ ...o, title: "w", head: "work", base: "main" }))
      .data;
    await sandbox.idle();
    const green = (await t.bot.rest.checks.listForRef({ ...o, ref: pr.head.sha })).data;
    expect(green.check_runs.map((r) => [r.name, r.status, r.conclusion])).toEqual([
      ["test", "completed", "success"],
      ["lint", "completed", "success"],
    ]);
    const red = await commitFile(dir, "fail.txt", "boom\n");
    await git(dir, ...auth(token), "push", "--quiet", "origin", "work");
    await sandbox.idle();
    const suites = (await t.bot.rest.checks.listSuitesForRef({ ...o, ref: red })).data;
    expect(suites.check_suites.map((s) => [s.status, s.conclusion])).toEqual([
      ["completed", "failure"],
    ]);
    const runs = (await t.bot.rest.checks.listForRef({ ...o, ref: red })).data.check_runs;
    expect(runs.map((r) => [r.name, r.conclusion, r.output.title, r.output.summary])).toEqual([
      ["test", "failure", "1 test failed", "fail.txt: boom"],
      ["lint", "success", "lint: success", "rule → success"],
    ]);
    // `requested` reaches the suite's app only; the rest reach both installed apps.
    expect(validated(t, "check_suite", "requested")).toHaveLength(2);
    expect(validated(t, "check_suite", "completed")).toHaveLength(2 * 2);
    expect(validated(t, "check_run", "created")).toHaveLength(4 * 2);
    expect(validated(t, "check_run", "completed")).toHaveLength(4 * 2);
  });

  it("or by running a command in a fresh checkout of the commit (exit 0 = success, timeout kills it)", async () => {
    t = await setup();
    const { sandbox } = t;
    sandbox.ci.command = { run: 'test -f ok.txt && echo "tests pass"', timeoutMs: 5_000 };
    sandbox.push("acme/widgets", "good", { "ok.txt": "1" });
    sandbox.push("acme/widgets", "bad", { "nope.txt": "1" });
    for (const head of ["good", "bad"])
      await t.bot.rest.pulls.create({ ...o, title: head, head, base: "main" });
    await sandbox.idle();
    const conclusion = async (ref: string) =>
      (await t?.bot.rest.checks.listForRef({ ...o, ref }))?.data.check_runs[0]?.conclusion;
    expect(await conclusion("good")).toBe("success");
    expect(await conclusion("bad")).toBe("failure");
    const summary = (await t.bot.rest.checks.listForRef({ ...o, ref: "good" })).data.check_runs[0]
      ?.output.summary;
    expect(summary).toContain("tests pass");
    const alice = client(sandbox, sandbox.createUserToken("alice"));
    expect((await alice.rest.repos.get(o)).status).toBe(200);
  });
});

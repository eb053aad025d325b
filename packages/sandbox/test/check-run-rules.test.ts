import { afterEach, describe, expect, it } from "vitest";
import { appJwt, client, o, setup } from "./helpers.ts";

let t: Awaited<ReturnType<typeof setup>> | undefined;
afterEach(async () => {
  await t?.sandbox.stop();
  t = undefined;
});

/** Another App installed on acme/widgets, with the permissions given. */
async function otherApp(
  s: NonNullable<typeof t>,
  slug: string,
  permissions: Record<string, "read" | "write">,
) {
  const { app, privateKey } = s.sandbox.createApp({ slug, permissions });
  if (!privateKey) throw new Error("no key");
  const installation = s.sandbox.install(app.id, "acme", ["acme/widgets"]);
  const jwt = client(s.sandbox, await appJwt(app.id, privateKey, s.sandbox.clock.now()));
  const { data } = await jwt.rest.apps.createInstallationAccessToken({
    installation_id: installation.id,
  });
  return { app, octokit: client(s.sandbox, data.token) };
}

const gatesRun = (head: string, conclusion: "success" | "failure") => ({
  ...o,
  name: "LoopX / gates",
  head_sha: head,
  status: "completed" as const,
  conclusion,
  output: { title: conclusion, summary: conclusion },
});

describe("sandbox: check runs an App owns, and rulesets at merge", () => {
  it("creating a check run needs checks: write; only the App that created it may update it", async () => {
    t = await setup();
    const head = t.sandbox.push("acme/widgets", "feat", { "a.txt": "a" });
    const reader = await otherApp(t, "reader", { checks: "read", metadata: "read" });
    await expect(
      reader.octokit.rest.checks.create(gatesRun(head, "failure")),
    ).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining("Resource not accessible by integration"),
    });
    const { data: run } = await t.bot.rest.checks.create(gatesRun(head, "failure"));
    const writer = await otherApp(t, "writer", { checks: "write", metadata: "read" });
    await expect(
      writer.octokit.rest.checks.update({ ...o, check_run_id: run.id, conclusion: "success" }),
    ).rejects.toMatchObject({ status: 403 });
    const { data: updated } = await t.bot.rest.checks.update({
      ...o,
      check_run_id: run.id,
      conclusion: "success",
    });
    expect(updated.conclusion).toBe("success");
    const events = t.sandbox.emitted
      .filter((e) => e.event === "check_run")
      .map((e) => (e.payload as { action: string }).action);
    // Announced as GitHub does: created, then completed once it has a conclusion.
    expect([...new Set(events)]).toEqual(["created", "completed"]);
  });

  it("with enforcement on, a merge waits for the ruleset's required checks on the head, from the App it names", async () => {
    t = await setup();
    t.sandbox.faults.enforceRulesetsAtMerge = true;
    const acme = client(t.sandbox, t.sandbox.createUserToken("acme"));
    await acme.rest.repos.createRepoRuleset({
      ...o,
      name: "LoopX gates",
      enforcement: "active",
      conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
      rules: [
        {
          type: "required_status_checks",
          parameters: {
            required_status_checks: [{ context: "LoopX / gates", integration_id: t.app.id }],
            strict_required_status_checks_policy: false,
          },
        },
      ],
    });
    const head = t.sandbox.push("acme/widgets", "feat", { "a.txt": "a" });
    const pr = (await t.alice.rest.pulls.create({ ...o, title: "x", head: "feat", base: "main" }))
      .data;
    const merge = () => t?.alice.rest.pulls.merge({ ...o, pull_number: pr.number });
    // Missing: refused.
    await expect(merge()).rejects.toMatchObject({
      status: 405,
      message: expect.stringContaining('Required status check "LoopX / gates" is expected'),
    });
    // Passing, but from another App than the one the rule names: still refused.
    const other = await otherApp(t, "imposter", { checks: "write", metadata: "read" });
    await other.octokit.rest.checks.create(gatesRun(head, "success"));
    await expect(merge()).rejects.toMatchObject({ status: 405 });
    // The named App's failing run: refused; its newer passing verdict: merged.
    const { data: run } = await t.bot.rest.checks.create(gatesRun(head, "failure"));
    await expect(merge()).rejects.toMatchObject({
      status: 405,
      message: expect.stringContaining("is failing"),
    });
    await t.bot.rest.checks.update({ ...o, check_run_id: run.id, conclusion: "success" });
    expect((await merge())?.data.merged).toBe(true);
  });

  it("a branch no ruleset covers merges without checks; enforcement off merges anyway", async () => {
    t = await setup();
    t.sandbox.faults.enforceRulesetsAtMerge = true;
    t.sandbox.push("acme/widgets", "dev", { "x.txt": "dev" });
    t.sandbox.push("acme/widgets", "feat", { "a.txt": "a" });
    const acme = client(t.sandbox, t.sandbox.createUserToken("acme"));
    await acme.rest.repos.createRepoRuleset({
      ...o,
      name: "ci",
      enforcement: "active",
      conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
      rules: [
        {
          type: "required_status_checks",
          parameters: {
            required_status_checks: [{ context: "ci" }],
            strict_required_status_checks_policy: false,
          },
        },
      ],
    });
    const toDev = (await t.alice.rest.pulls.create({ ...o, title: "d", head: "feat", base: "dev" }))
      .data;
    expect((await t.alice.rest.pulls.merge({ ...o, pull_number: toDev.number })).data.merged).toBe(
      true,
    );
    t.sandbox.push("acme/widgets", "fix", { "b.txt": "b" });
    const toMain = (
      await t.alice.rest.pulls.create({ ...o, title: "m", head: "fix", base: "main" })
    ).data;
    await expect(
      t.alice.rest.pulls.merge({ ...o, pull_number: toMain.number }),
    ).rejects.toMatchObject({ status: 405 });
    t.sandbox.faults.enforceRulesetsAtMerge = false;
    expect((await t.alice.rest.pulls.merge({ ...o, pull_number: toMain.number })).data.merged).toBe(
      true,
    );
  });
});

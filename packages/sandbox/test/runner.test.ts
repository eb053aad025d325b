import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { giveToRunner } from "../src/index.ts";
import { tempDir } from "./git-support.ts";
import { errorsText, o, setup, webhookValidator } from "./helpers.ts";

type T = Awaited<ReturnType<typeof setup>>;
let t: T | undefined;
afterEach(async () => {
  await t?.sandbox.stop();
  t = undefined;
});

/** A tiny stand-in for the LoopX action: one entry, three phases, records what it saw. */
const ACTION = `
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
const env = process.env;
const phase = env.INPUT_PHASE;
// The Actions artifact service, with the job's runtime token (what @actions/artifact calls).
const artifacts = async (method, body) => (await fetch(env.ACTIONS_RESULTS_URL + "twirp/github.actions.results.api.v1.ArtifactService/" + method, { method: "POST", headers: { authorization: "Bearer " + env.ACTIONS_RUNTIME_TOKEN }, body: JSON.stringify(body) })).json();
const record = { phase, at: Date.now(), env: Object.fromEntries(Object.entries(env).filter(([k]) => /^(GITHUB_|INPUT_|ACTIONS_|RUNNER_|LOOPX_)/.test(k))) };
if (phase === "ask") {
  const res = await fetch(env.ACTIONS_ID_TOKEN_REQUEST_URL + "&audience=loopx", { headers: { authorization: "bearer " + env.ACTIONS_ID_TOKEN_REQUEST_TOKEN } });
  record.idToken = (await res.json()).value;
  appendFileSync(env.GITHUB_OUTPUT, "run=true\\nbrief<<EOF_a1\\nline one\\nline two\\nEOF_a1\\n");
  appendFileSync(env.GITHUB_STEP_SUMMARY, "asked\\n");
}
if (phase === "agent") {
  const token = env["INPUT_GITHUB-TOKEN"];
  const h = { authorization: "token " + token, "content-type": "application/json" };
  const api = env.GITHUB_API_URL + "/repos/" + env.GITHUB_REPOSITORY;
  record.readStatus = (await fetch(api, { headers: h })).status;
  record.writeStatus = (await fetch(api + "/issues", { method: "POST", headers: h, body: JSON.stringify({ title: "x" }) })).status;
  const basic = Buffer.from("x-access-token:" + token).toString("base64");
  writeFileSync("wip.txt", "wip\\n");
  const g = (...a) => execFileSync("git", ["-c", "user.name=agent", "-c", "user.email=a@example.invalid", ...a], { stdio: "pipe" }).toString();
  g("add", "wip.txt");
  g("commit", "-qm", "wip");
  try { g("-c", "http.extraHeader=Authorization: Basic " + basic, "push", "origin", "HEAD:refs/heads/loopx/1-1"); record.pushed = true; }
  catch (e) { record.pushed = false; record.pushError = String(e.stderr); }
  record.gitConfig = execFileSync("cat", [".git/config"]).toString();
  const created = await artifacts("CreateArtifact", { name: "result" });
  await fetch(created.signed_upload_url, { method: "PUT", body: JSON.stringify({ ok: true }) });
  await artifacts("FinalizeArtifact", { name: "result", size: "11" });
}
if (phase === "report") {
  const { signed_url } = await artifacts("GetSignedArtifactURL", { name: "result" });
  record.artifact = signed_url ? await (await fetch(signed_url)).text() : null;
}
writeFileSync(env.OUT + "/" + phase + ".json", JSON.stringify(record));
`;

const TICK = `name: LoopX tick
on:
  workflow_dispatch:
    inputs:
      goal:
        required: true
        type: string
concurrency:
  group: loopx-\${{ github.repository_id }}-\${{ inputs.goal }}
  cancel-in-progress: false
env:
  OUT: \${{ vars.out }}
jobs:
  ask:
    runs-on: ubuntu-latest
    permissions:
      id-token: write
    outputs:
      run: \${{ steps.ask.outputs.run }}
      brief: \${{ steps.ask.outputs.brief }}
    steps:
      - id: ask
        uses: loopx/loopx@v1
        with:
          phase: ask
          goal: \${{ inputs.goal }}
  agent:
    needs: ask
    if: needs.ask.outputs.run == 'true'
    runs-on: ubuntu-latest
    permissions:
      contents: read
    timeout-minutes: 5
    steps:
      - uses: loopx/loopx@v1
        with:
          phase: agent
          brief: \${{ needs.ask.outputs.brief }}
  report:
    needs: [ask, agent]
    if: always()
    runs-on: ubuntu-latest
    permissions:
      id-token: write
    steps:
      - uses: loopx/loopx@v1
        with:
          phase: report
`;

function validateAll(t: T, event: string) {
  for (const { payload } of t.sandbox.emitted.filter((e) => e.event === event)) {
    const action = String(payload.action);
    const validate = webhookValidator(event, action);
    if (!validate) throw new Error(`no schema for ${event}`);
    if (!validate(payload)) throw new Error(`${event}.${action}: ${errorsText(validate)}`);
  }
}

async function start(files: Record<string, string>) {
  const t = await setup({ secondaryLimits: false });
  const out = tempDir("sandbox-runner-test-");
  const entry = join(out, "action.mjs");
  writeFileSync(entry, ACTION);
  // Jobs run as the runner user: the scratch action and its output directory are its own.
  giveToRunner(out);
  t.sandbox.runner.actions = {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
    "loopx/loopx@v1": { entry, inputs: { "github-token": "${{ github.token }}" } },
  };
  t.sandbox.runner.vars = { out };
  t.sandbox.push("acme/widgets", "main", files);
  await t.sandbox.idle();
  return { t, out };
}

async function dispatch(t: T, workflow: string, inputs: Record<string, string>): Promise<number> {
  const res = await t.bot.request(
    "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
    {
      ...o,
      workflow_id: workflow,
      ref: "main",
      inputs,
      return_run_details: true,
    },
  );
  return (res.data as { workflow_run_id: number }).workflow_run_id;
}

const read = (out: string, phase: string) =>
  JSON.parse(readFileSync(join(out, `${phase}.json`), "utf8"));

describe("workflow runner", () => {
  it("runs ask → agent → report with if:, outputs, artifacts; OIDC only for id-token jobs; the agent's token is read-only", async () => {
    const s = await start({ ".github/workflows/tick.yml": TICK });
    t = s.t;
    const runId = await dispatch(t, "tick.yml", { goal: "7" });
    const run = await t.sandbox.runner.wait(runId);
    expect(run.conclusion).toBe("success");
    const [ask, agent, report] = ["ask", "agent", "report"].map((p) => read(s.out, p));
    expect(ask.at).toBeLessThan(agent.at);
    expect(agent.at).toBeLessThan(report.at);
    // OIDC: only ask and report were granted id-token: write.
    expect(ask.env.ACTIONS_ID_TOKEN_REQUEST_URL).toBeDefined();
    expect(report.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN).toBeDefined();
    expect(Object.keys(agent.env).filter((k) => k.startsWith("ACTIONS_ID_TOKEN"))).toEqual([]);
    const { payload } = await jwtVerify(
      ask.idToken,
      createLocalJWKSet(await t.sandbox.oidc.jwks()),
      {
        issuer: t.sandbox.url,
        audience: "loopx",
      },
    );
    expect(payload).toMatchObject({
      repository: "acme/widgets",
      repository_id: String(t.repo.id),
      repository_owner: "acme",
      repository_owner_id: String(t.repo.ownerId),
      workflow_ref: "acme/widgets/.github/workflows/tick.yml@refs/heads/main",
      job_workflow_ref: "acme/widgets/.github/workflows/tick.yml@refs/heads/main",
      event_name: "workflow_dispatch",
      ref: "refs/heads/main",
      run_id: String(runId),
      run_attempt: "1",
      actor: "loopx[bot]",
    });
    // The runner's env, INPUT_* naming (dashes kept) and heredoc outputs.
    expect(agent.env).toMatchObject({
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_REPOSITORY_ID: String(t.repo.id),
      GITHUB_RUN_ID: String(runId),
      GITHUB_RUN_ATTEMPT: "1",
      GITHUB_EVENT_NAME: "workflow_dispatch",
      GITHUB_REF: "refs/heads/main",
      GITHUB_JOB: "agent",
      GITHUB_ACTOR: "loopx[bot]",
      GITHUB_API_URL: t.sandbox.url,
      GITHUB_WORKFLOW_REF: "acme/widgets/.github/workflows/tick.yml@refs/heads/main",
      INPUT_PHASE: "agent",
      INPUT_BRIEF: "line one\nline two",
    });
    expect(agent.env["INPUT_GITHUB-TOKEN"]).toMatch(/^ghs_/);
    expect(ask.env.INPUT_GOAL).toBe("7");
    // contents: read — reads work, writes and pushes are refused, no credential in the clone.
    expect([agent.readStatus, agent.writeStatus, agent.pushed]).toEqual([200, 403, false]);
    expect(agent.pushError).toContain("403");
    expect(agent.gitConfig).not.toContain("ghs_");
    expect(agent.gitConfig).toContain(`${t.sandbox.url}/acme/widgets.git`);
    // The agent job's artifact, through the runtime token, reached the report job.
    expect(JSON.parse(report.artifact)).toEqual({ ok: true });
    // The recorded run, over REST and the inspection API.
    const jobs = (await t.bot.rest.actions.listJobsForWorkflowRun({ ...o, run_id: runId })).data;
    expect(jobs.jobs.map((j) => [j.name, j.status, j.conclusion])).toEqual([
      ["ask", "completed", "success"],
      ["agent", "completed", "success"],
      ["report", "completed", "success"],
    ]);
    const recorded = t.sandbox.run(runId);
    expect(recorded?.jobs.find((j) => j.key === "ask")).toMatchObject({
      outputs: { run: "true", brief: "line one\nline two" },
      summary: "asked\n",
    });
    // The job token died with its job.
    const res = await fetch(`${t.sandbox.url}/repos/acme/widgets`, {
      headers: { authorization: `token ${agent.env["INPUT_GITHUB-TOKEN"]}` },
    });
    expect(res.status).toBe(401);
    await t.sandbox.settle();
    const actions = t.sandbox.emitted
      .filter(
        (e) =>
          e.event === "workflow_run" && (e.payload.workflow_run as { id: number }).id === runId,
      )
      .map((e) => e.payload.action);
    expect(actions).toEqual(["requested", "in_progress", "completed"]);
    validateAll(t, "workflow_run");
  });

  it("skips a job whose if: is false and still runs always() jobs", async () => {
    const s = await start({
      // The stand-in answers run=true; a condition wanting 'false' must skip the agent job.
      ".github/workflows/tick.yml": TICK.replace("outputs.run == 'true'", "outputs.run == 'false'"),
    });
    t = s.t;
    const runId = await dispatch(t, "tick.yml", { goal: "1" });
    expect((await t.sandbox.runner.wait(runId)).conclusion).toBe("success");
    const jobs = t.sandbox.run(runId)?.jobs.map((j) => [j.key, j.conclusion]);
    expect(jobs).toEqual([
      ["ask", "success"],
      ["agent", "skipped"],
      ["report", "success"],
    ]);
  });
});

const HOLD = `name: Hold
on:
  workflow_dispatch:
    inputs:
      n:
        required: true
concurrency:
  group: hold-\${{ github.repository_id }}
  cancel-in-progress: false
jobs:
  hold:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "start \${{ inputs.n }}" >> "\${{ vars.out }}/log"
          while [ ! -f "\${{ vars.out }}/release" ]; do sleep 0.05; done
`;

describe("workflow runner: concurrency and timeouts", () => {
  it("one running, one pending per group: the newest pending replaces the older; the running one is never cancelled", async () => {
    const s = await start({ ".github/workflows/hold.yml": HOLD });
    t = s.t;
    const [r1, r2, r3] = [
      await dispatch(t, "hold.yml", { n: "1" }),
      await dispatch(t, "hold.yml", { n: "2" }),
      await dispatch(t, "hold.yml", { n: "3" }),
    ];
    const status = (id: number | undefined) => {
      const run = t?.sandbox.store.workflowRuns.get(id ?? 0);
      return [run?.status, run?.conclusion];
    };
    expect(status(r1)).toEqual(["in_progress", null]);
    expect(status(r2)).toEqual(["completed", "cancelled"]);
    expect(status(r3)).toEqual(["pending", null]);
    writeFileSync(join(s.out, "release"), "");
    await t.sandbox.runner.wait(r3 ?? 0);
    expect(status(r1)).toEqual(["completed", "success"]);
    expect(status(r3)).toEqual(["completed", "success"]);
    expect(readFileSync(join(s.out, "log"), "utf8")).toBe("start 1\nstart 3\n");
    await t.sandbox.settle();
    validateAll(t, "workflow_run");
  });

  it("timeout-minutes kills the hanging step's process group and cancels the job", async () => {
    const s = await start({
      ".github/workflows/slow.yml": `name: Slow
on: workflow_dispatch
jobs:
  slow:
    runs-on: ubuntu-latest
    timeout-minutes: 1
    steps:
      - run: |
          echo $$ > "\${{ vars.out }}/pid"
          sleep 30
      - run: echo never > "\${{ vars.out }}/after"
`,
    });
    t = s.t;
    t.sandbox.runner.minuteMs = 300;
    const started = performance.now();
    const runId = await dispatch(t, "slow.yml", {});
    const run = await t.sandbox.runner.wait(runId);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.conclusion).toBe("cancelled");
    const job = t.sandbox.run(runId)?.jobs[0];
    expect(job?.conclusion).toBe("cancelled");
    expect(job?.log).toContain("exceeded the maximum execution time");
    expect(existsSync(join(s.out, "after"))).toBe(false);
    const pid = Number(readFileSync(join(s.out, "pid"), "utf8"));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("events caused by a job's GITHUB_TOKEN start no workflows or CI; an App token's do", async () => {
    const s = await start({
      ".github/workflows/on-push.yml": `name: On push
on:
  push:
    branches: ["feature"]
jobs:
  noop:
    runs-on: ubuntu-latest
    steps:
      - run: echo pushed
`,
      ".github/workflows/bump.yml": `name: Bump
on: workflow_dispatch
permissions:
  contents: write
jobs:
  bump:
    runs-on: ubuntu-latest
    steps:
      - run: |
          git checkout -q -b feature origin/feature
          echo bump >> bump.txt
          git add bump.txt
          git -c user.name=bot -c user.email=bot@example.invalid commit -qm bump
          git -c http.extraHeader="Authorization: Basic $(printf 'x-access-token:%s' '\${{ github.token }}' | base64 -w0)" push -q origin feature
`,
    });
    t = s.t;
    const { sandbox } = t;
    sandbox.ci.rule = () => "success";
    sandbox.push("acme/widgets", "feature", { "f.txt": "1" });
    await t.bot.rest.pulls.create({ ...o, title: "f", head: "feature", base: "main" });
    await sandbox.idle();
    const pushRuns = () =>
      [...sandbox.store.workflowRuns.values()].filter((r) => r.event === "push").length;
    const suites = () => sandbox.store.checkSuites.size;
    const [runsBefore, suitesBefore] = [pushRuns(), suites()];
    expect([runsBefore, suitesBefore]).toEqual([1, 1]);
    const bump = await dispatch(t, "bump.yml", {});
    expect((await sandbox.runner.wait(bump)).conclusion).toBe("success");
    await sandbox.idle();
    const head = sandbox.store.repos.get(t.repo.id)?.branches.get("feature");
    expect(
      sandbox.emitted.some((e) => e.event === "pull_request" && e.payload.after === head),
    ).toBe(true);
    expect([pushRuns(), suites()]).toEqual([runsBefore, suitesBefore]);
    // The same kind of push by the App (installation token) starts both.
    sandbox.push("acme/widgets", "feature", { "g.txt": "2" }, "loopx[bot]");
    await sandbox.idle();
    expect([pushRuns(), suites()]).toEqual([runsBefore + 1, suitesBefore + 1]);
  });
});

import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { containsCredential, WITHHELD } from "@loopx/core";
import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import {
  dispatchOneTick,
  type FinishedRun,
  finishRun,
  useTickWorkflow,
} from "../support/tick-workflow-runs.ts";
import { PROBE_SCRIPT, seenProcesses, shq } from "./support/probe-site.ts";

/**
 * The probes of `jail-probes.test.ts`, run where GitHub runs them: the shipped loopx-tick.yml on
 * the sandbox's runner, its jobs as the non-root `runner` user with passwordless sudo, the
 * agent step a JavaScript action with ACTIONS_RUNTIME_TOKEN and the cache URL in its
 * environment, the file commands in `$RUNNER_TEMP/_runner_file_commands`. The slice finds the
 * job's directories from its work tree (`<job>/ws`, beside `<job>/tmp` = RUNNER_TEMP,
 * `<job>/home`, `<job>/_actions`), as an agent on a hosted runner finds `_work/_temp`.
 */
const FILE_COMMAND = (name: string) =>
  `"$(ls -v "$job"/tmp/_runner_file_commands/${name}_* 2>/dev/null | tail -n 1)"`;

describe("hostile: on the runner, the slice reaches no credential and nothing of the job", () => {
  let h: TickHarness;
  let marks: string;
  let done: FinishedRun;
  let issue: number;
  let goalId: string;
  /** Every GITHUB_TOKEN and ACTIONS_RUNTIME_TOKEN the sandbox issued for the run's jobs. */
  const issued: string[] = [];
  const read = (path: string) => {
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const branch = done.jobs.ask?.outputs.branch ?? "";
    const head = repo.branches.get(branch);
    if (!head) throw new Error(`${branch} was not pushed:\n${done.logs}`);
    const text = h.sandbox.store.git(repo).readFile(head, `probes/${path}`);
    if (text === null) throw new Error(`probes/${path} is not on ${branch}`);
    return text;
  };

  beforeAll(async () => {
    h = await startTickHarness();
    const { runtime } = h.sandbox.runner;
    const mint = runtime.issue.bind(runtime);
    runtime.issue = (grant) => {
      const token = mint(grant);
      issued.push(token);
      return token;
    };
    const tokens = h.sandbox.store.tokens;
    const set = tokens.set.bind(tokens);
    tokens.set = (key, value) => {
      if (value.kind === "job") issued.push(key);
      return set(key, value);
    };
    // Written by whatever runs outside the jail (the runner user, root): must stay empty.
    marks = mkdtempSync(join(tmpdir(), "loopx-marks-"));
    chmodSync(marks, 0o1777);
    const probe = [
      `job="$(cd .. && pwd)"`,
      [
        "sh probe.sh",
        `"$job/tmp" "$job/home" "$job/_actions"`,
        ...["set_env", "set_output", "add_path", "step_summary"].map(FILE_COMMAND),
        shq(marks),
      ].join(" "),
    ].join("\n");
    useTickWorkflow(h, {
      // The tick's own comment shows what the agent reported.
      config:
        "harness:\n  default: shell\nvalidationCommand: test -f probes/ok\ncomments: sticky\n",
      vars: { LOOPX_SHELL_COMMAND: probe },
    });
    h.sandbox.push("acme/widgets", "main", { "probe.sh": PROBE_SCRIPT });
    const goal = await h.startGoal("Probe the runner", ["Probe the runner"]);
    issue = goal.goal.issue.number;
    goalId = goal.goal.id;
    const run = await dispatchOneTick(h, issue);
    done = await finishRun(h, run.id, 120_000);
    await h.settle();
  }, 180_000);
  afterAll(() => h.close());

  it("the slice ran in its jail, validated, and the report pushed its findings", async () => {
    expect(done.jobs.agent?.conclusion, done.logs).toBe("success");
    expect(done.jobs.report?.conclusion, done.logs).toBe("success");
    const state = await h.store.loadGoal(goalId);
    const tick = state?.ticks.find((t) => t.id === done.jobs.ask?.outputs["tick-id"]);
    expect(tick?.outcome, done.logs).toBe("progress");
    expect(read("sudo.txt")).toMatch(/^[0-9]+\n$/);
  });

  it("no /proc/$PPID/environ nor any /proc/*/environ holds the runtime token, the cache URL or an input", () => {
    for (const name of ["parent-environ.txt", "environ.txt"]) {
      const seen = read(name);
      expect(seen).not.toMatch(/^(INPUT_|ACTIONS_|GITHUB_OUTPUT|GITHUB_ENV|RUNNER_TEMP)/m);
      expect(containsCredential(seen, issued), seen).toBe(false);
    }
  });

  it("no process outside the jail: not the action, not the runner", () => {
    const { outside, uids } = seenProcesses(read("ps.txt"));
    expect(outside).toEqual([]);
    expect(uids.size).toBe(1);
    // The jail's uid is its own, not the runner user's.
    const runner = execFileSync("id", ["-u", "runner"], { encoding: "utf8" }).trim();
    expect([...uids]).not.toContain(runner);
  });

  it("the runner's passwordless sudo is not the slice's", () => {
    expect(read("sudo.txt").trim()).not.toBe("0");
  });

  it("RUNNER_TEMP (the tick directory, the file commands) is out of sight", () => {
    // All that is left of it is the path down to the slice's own directory.
    expect(read("runner-temp.txt")).toBe("loopx-tick\n");
    expect(read("tick-dir.txt")).toMatch(/^(loopx-slice-\S+\n)?$/);
  });

  it("no file command: nothing it meant for GITHUB_ENV ran in a later step, nothing in the summary", () => {
    expect(readdirSync(marks)).toEqual([]);
    expect(done.jobs.agent?.summary).not.toContain("EVIL");
    expect(done.jobs.agent?.log).not.toContain("/EVIL");
  });

  it("no runtime token, so no cache entry seeded", () => {
    expect(read("runtime-token.txt").trim()).toBe("none");
    expect(read("cache-save.txt").trim()).toBe("no token");
  });

  it("hooks, filters and fsmonitor it planted in .git never ran outside the jail", () => {
    expect(read("hooks.txt")).toBe("planted\n");
    expect(readdirSync(marks)).toEqual([]);
  });

  it("what the App posted holds no credential in any encoding, and needed no withholding", () => {
    const jobTokens = issued;
    // Three jobs, each with its GITHUB_TOKEN and its runtime token.
    expect(jobTokens.length).toBeGreaterThanOrEqual(6);
    const comments = h.sandbox.issue("acme/widgets", issue).comments_list;
    const tick = comments.find((c) => readKey(String(c.body ?? ""))?.startsWith("tick:"));
    const body = String(tick?.body ?? "");
    expect(body, JSON.stringify(comments)).toContain("probed the runner");
    expect(body).not.toContain(WITHHELD);
    for (const c of comments) expect(containsCredential(String(c.body), jobTokens)).toBe(false);
    // `::add-mask::` lines are the runner's masking commands, consumed and never shown.
    for (const job of Object.values(done.jobs)) {
      const shown = job.log
        .split("\n")
        .filter((l) => !l.startsWith("::add-mask::"))
        .join("\n");
      expect(containsCredential(shown, jobTokens), job.key).toBe(false);
    }
  });
});

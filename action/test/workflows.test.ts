import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";

const Step = z.object({
  id: z.string().optional(),
  uses: z.string().optional(),
  run: z.string().optional(),
  if: z.string().optional(),
  with: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  env: z.record(z.string(), z.string()).optional(),
  "timeout-minutes": z.number().optional(),
  "continue-on-error": z.boolean().optional(),
});
const Job = z.object({
  needs: z.union([z.string(), z.array(z.string())]).optional(),
  if: z.string().optional(),
  permissions: z.record(z.string(), z.enum(["read", "write", "none"])),
  "timeout-minutes": z.number(),
  "cache-mode": z.enum(["read", "write", "write-only", "none"]).optional(),
  outputs: z.record(z.string(), z.string()).optional(),
  steps: z.array(Step),
});
const Workflow = z.object({
  on: z.record(z.string(), z.unknown()),
  permissions: z.record(z.string(), z.string()),
  concurrency: z.object({ group: z.string(), "cancel-in-progress": z.boolean() }).optional(),
  jobs: z.record(z.string(), Job),
});

const load = (name: string) =>
  Workflow.parse(
    parse(readFileSync(resolve(import.meta.dirname, "../../.github/workflows", name), "utf8")),
  );
const tick = load("loopx-tick.yml");
const wake = load("loopx-wake.yml");
const job = (name: string) => {
  const j = tick.jobs[name];
  if (!j) throw new Error(`loopx-tick.yml has no ${name} job`);
  return j;
};
const allJobs = [...Object.values(tick.jobs), ...Object.values(wake.jobs)];
const ACTION = "loopx/loopx@v1";
/** A GitHub expression as written in the YAML. */
const expr = (e: string) => `\${{ ${e} }}`;

describe("loopx-tick.yml", () => {
  it("is reusable (workflow_call) and dispatchable with a goal", () => {
    expect(Object.keys(tick.on).sort()).toEqual(["workflow_call", "workflow_dispatch"]);
    expect(JSON.stringify(tick.on.workflow_dispatch)).toContain('"goal"');
  });

  it("runs one tick per goal and slot at a time and never cancels a running slice", () => {
    expect(tick.concurrency).toEqual({
      group: `loopx-${expr("github.repository_id")}-${expr("inputs.goal")}-${expr("inputs.slot")}`,
      "cancel-in-progress": false,
    });
  });

  it("grants nothing at the top; each job asks for its own permissions", () => {
    expect(tick.permissions).toEqual({});
    expect(Object.keys(tick.jobs)).toEqual(["ask", "agent", "report"]);
  });

  it("ask: id-token and contents: read, no checkout, no install", () => {
    const ask = job("ask");
    expect(ask.permissions).toEqual({ "id-token": "write", contents: "read" });
    expect(ask.steps.some((s) => s.uses?.startsWith("actions/checkout"))).toBe(false);
    expect(ask.steps.some((s) => s.run !== undefined)).toBe(false);
    expect(ask.steps[0]).toMatchObject({ uses: ACTION, with: { phase: "ask" } });
    // The lease travels only in its own artifact, never as a job output.
    expect(Object.keys(ask.outputs ?? {})).not.toContain("lease-token");
  });

  it("agent: contents: read only, no id-token, no persisted credentials, no token, no cache, a step timeout", () => {
    const agent = job("agent");
    expect(agent.permissions).toEqual({ contents: "read" });
    // Nothing the slice's job does may seed a cache a default-branch job restores.
    expect(agent["cache-mode"]).toBe("none");
    // The agent step gets no token: a read token would still be one more credential in reach.
    for (const step of agent.steps) expect(Object.keys(step.with ?? {})).not.toContain("token");
    expect(agent.if).toBe("needs.ask.outputs.run == 'true'");
    const checkout = agent.steps.find((s) => s.uses?.startsWith("actions/checkout"));
    expect(checkout?.with?.["persist-credentials"]).toBe(false);
    const slice = agent.steps.find((s) => s.with?.phase === "agent");
    expect(slice?.uses).toBe(ACTION);
    expect(slice?.["timeout-minutes"]).toBeLessThan(agent["timeout-minutes"]);
    const downloads = agent.steps.filter((s) => s.uses?.startsWith("actions/download-artifact"));
    expect(downloads.map((s) => s.with?.name)).toEqual(["loopx-ask"]);
    const upload = agent.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"));
    expect(upload).toMatchObject({ if: "always()", with: { name: "loopx-result" } });
  });

  it("report: runs always when ask said run, with id-token, no checkout", () => {
    const report = job("report");
    expect(report.if).toBe("always() && needs.ask.outputs.run == 'true'");
    expect(report.permissions).toEqual({ "id-token": "write" });
    expect(report.steps.some((s) => s.uses?.startsWith("actions/checkout"))).toBe(false);
    expect(report.steps.at(-1)).toMatchObject({
      uses: ACTION,
      with: { phase: "report", "agent-result": expr("needs.agent.result") },
    });
  });

  it("the lease (lease.json) is downloaded by the report job only", () => {
    for (const [name, j] of Object.entries(tick.jobs)) {
      const gets = j.steps.filter(
        (s) => s.with?.name === "loopx-lease" && s.uses?.includes("download"),
      );
      expect(gets.length, name).toBe(name === "report" ? 1 : 0);
    }
  });

  it("the lease outlasts the agent job plus the report job (App default lease: 45 minutes)", () => {
    expect(job("agent")["timeout-minutes"] + job("report")["timeout-minutes"]).toBeLessThan(45);
  });
});

describe("loopx-wake.yml", () => {
  it("is called only (never fires in LoopX's own repository); the documented caller runs off the hour, once a day", () => {
    expect(Object.keys(wake.on)).toEqual(["workflow_call"]);
    const docs = readFileSync(resolve(import.meta.dirname, "../../docs/workflows.md"), "utf8");
    const caller = [...docs.matchAll(/^```yaml\n([\s\S]*?)^```/gm)]
      .map((m) => m[1] ?? "")
      .find((text) => text.includes("loopx-wake.yml@v1"));
    const callerOn = z
      .object({ on: z.object({ schedule: z.unknown() }) })
      .parse(parse(caller ?? ""));
    // Off the hour (GitHub delays top-of-hour schedules), and a job bills at least a minute a
    // run: once a day keeps an idle repository within 60 billed minutes a month (twice would
    // be 62 in a 31-day month).
    const [entry, ...more] = z.array(z.object({ cron: z.string() })).parse(callerOn.on.schedule);
    expect(more).toEqual([]);
    const [minute, hour, ...days] = (entry?.cron ?? "").split(" ");
    expect(Number(minute)).toBeGreaterThanOrEqual(1);
    expect(Number(minute)).toBeLessThanOrEqual(59);
    const at = Number(hour);
    expect(Number.isInteger(at) && at >= 0 && at <= 23).toBe(true);
    expect(days).toEqual(["*", "*", "*"]);
  });

  it("is tiny: id-token only, no checkout, no install", () => {
    const [only, ...rest] = Object.values(wake.jobs);
    expect(rest).toEqual([]);
    expect(only?.permissions).toEqual({ "id-token": "write" });
    expect(only?.steps).toHaveLength(1);
    expect(only?.steps[0]).toMatchObject({ uses: ACTION, with: { phase: "wake" } });
  });
});

describe("both workflows", () => {
  it("never ask for `workflows`, `actions` or write access to contents", () => {
    for (const j of allJobs) {
      expect(Object.keys(j.permissions)).not.toContain("workflows");
      expect(j.permissions.actions).toBeUndefined();
      expect(j.permissions.contents ?? "none").not.toBe("write");
    }
  });

  it("only the ask and report jobs (and wake) hold an OIDC token", () => {
    const holders = Object.entries(tick.jobs)
      .filter(([, j]) => j.permissions["id-token"] === "write")
      .map(([n]) => n);
    expect(holders).toEqual(["ask", "report"]);
  });

  it("use only official actions besides this one", () => {
    for (const j of allJobs) {
      for (const s of j.steps.filter((x) => x.uses)) {
        expect(s.uses).toMatch(
          /^(loopx\/loopx@|actions\/(checkout|upload-artifact|download-artifact|setup-node)@)/,
        );
      }
    }
  });
});

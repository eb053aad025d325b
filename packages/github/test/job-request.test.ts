import { describe, expect, it } from "vitest";
import { checkJobRequest, parseConfig } from "../src/index.ts";

const config = parseConfig({
  jobs: {
    "long-tests": {
      workflow: "long-tests.yml",
      inputs: {
        suite: { type: "choice", options: ["unit", "e2e"], required: true },
        shards: { type: "number" },
        verbose: { type: "boolean" },
        filter: { type: "string" },
      },
    },
    bench: { workflow: "bench.yaml" },
  },
});
if (!config.ok) throw new Error(JSON.stringify(config.errors));
const jobs = config.config.jobs ?? {};

describe("jobs: in .github/loopx.yml", () => {
  it("is optional: unset means no job is listed", () => {
    const none = parseConfig({});
    expect(none.ok && none.config.jobs).toBeUndefined();
  });

  it("refuses a job without a workflow file, a bad name, an unknown input type or a choice without options", () => {
    for (const bad of [
      { x: { inputs: {} } },
      { x: { workflow: "../evil.yml" } },
      { "has space": { workflow: "a.yml" } },
      { x: { workflow: "a.yml", inputs: { n: { type: "file" } } } },
      { x: { workflow: "a.yml", inputs: { n: { type: "choice" } } } },
      { x: { workflow: "a.yml", inputs: { n: { type: "choice", options: [] } } } },
      { x: { workflow: "a.yml", extra: 1 } },
    ]) {
      const parsed = parseConfig({ jobs: bad });
      expect(parsed.ok, JSON.stringify(bad)).toBe(false);
      if (!parsed.ok) expect(parsed.errors[0]?.path).toMatch(/^jobs/);
    }
  });
});

describe("checkJobRequest", () => {
  it("allows a listed job with valid inputs, sent as strings", () => {
    expect(
      checkJobRequest(jobs, {
        name: "long-tests",
        inputs: { suite: "e2e", shards: 4, verbose: true },
      }),
    ).toEqual({
      ok: true,
      job: {
        name: "long-tests",
        workflow: "long-tests.yml",
        inputs: { suite: "e2e", shards: "4", verbose: "true" },
      },
    });
    expect(checkJobRequest(jobs, { name: "bench", inputs: {} })).toEqual({
      ok: true,
      job: { name: "bench", workflow: "bench.yaml", inputs: {} },
    });
  });

  it("refuses an unlisted job, naming the listed ones", () => {
    const r = checkJobRequest(jobs, { name: "deploy", inputs: {} });
    expect(r).toEqual({
      ok: false,
      reason:
        'job "deploy" is not listed: the jobs listed in .github/loopx.yml are long-tests, bench',
    });
    const none = checkJobRequest({}, { name: "deploy", inputs: {} });
    expect(none.ok || none.reason).toMatch(/no jobs are listed/);
    // An inherited property is no listed job.
    expect(checkJobRequest(jobs, { name: "constructor", inputs: {} }).ok).toBe(false);
  });

  it("refuses undeclared, mistyped, out-of-choice and missing inputs, saying what the job takes", () => {
    const r = checkJobRequest(jobs, {
      name: "long-tests",
      inputs: { suite: "perf", shards: "4", verbose: "yes", token: "x" },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toContain('input "suite" must be one of "unit", "e2e"');
    expect(r.reason).toContain('input "shards" must be a number');
    expect(r.reason).toContain('input "verbose" must be true or false');
    expect(r.reason).toContain('input "token" is not declared');
    expect(r.reason).toContain(
      'job "long-tests" takes suite (choice), shards (number), verbose (boolean), filter (string)',
    );
    const missing = checkJobRequest(jobs, { name: "long-tests", inputs: { filter: "x" } });
    expect(missing.ok || missing.reason).toMatch(/input "suite" is required/);
    const none = checkJobRequest(jobs, { name: "bench", inputs: { a: "1" } });
    expect(none.ok || none.reason).toMatch(/job "bench" takes no inputs/);
  });
});

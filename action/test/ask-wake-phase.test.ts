import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentBrief, LeaseFile } from "../src/tick-files.ts";
import { runAction } from "./support/run-action.ts";
import { LEASE, runAnswer, startTickWorld, type TickWorld, tempDir } from "./support/tick-world.ts";

let w: TickWorld;
beforeAll(async () => {
  w = await startTickWorld();
});
afterAll(() => w.stop());

const ask = (extra: Record<string, string> = {}, env: Record<string, string> = {}) => {
  const tickDir = tempDir("loopx-tick-");
  return runAction(
    {
      phase: "ask",
      goal: "12",
      "api-url": w.api.url,
      "tick-dir": tickDir,
      ...extra,
    },
    { ...w.githubEnv, ...w.idTokenEnv(), ...env },
  ).then((run) => ({ run, tickDir }));
};

describe("ask", () => {
  it("on run: outputs the claim, masks the lease, writes the brief for the agent and the lease for the report", async () => {
    w.api.ask = runAnswer();
    const { run, tickDir } = await ask({ "max-usd": "0.5" });
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({
      run: "true",
      "tick-id": runAnswer().tickId,
      todo: "T3",
      branch: "loopx/12-T3",
      harness: "shell",
      "lease-token": LEASE,
      "brief-file": join(tickDir, "ask.json"),
    });
    expect(run.stdout).toContain(`::add-mask::${LEASE}`);
    expect(run.summary).not.toContain(LEASE);
    const brief: Record<string, unknown> = z
      .record(z.string(), z.unknown())
      .parse(JSON.parse(readFileSync(join(tickDir, "ask.json"), "utf8")));
    expect(AgentBrief.safeParse(brief).success).toBe(true);
    expect(brief.leaseToken).toBeUndefined();
    expect(brief.briefText).toBe(runAnswer().briefText);
    const lease = LeaseFile.parse(JSON.parse(readFileSync(join(tickDir, "lease.json"), "utf8")));
    expect(lease).toMatchObject({ goal: 12, leaseToken: LEASE, branch: "loopx/12-T3" });
    // The request the App saw: validated by core's AskRequest, limits lowered by the input.
    expect(w.api.bodies("/api/v1/ticks").at(-1)).toEqual({ goal: 12, limits: { usd: 0.5 } });
    // No audience input: the action asked for its api-url, the deployment's own audience.
    expect(w.api.calls.at(-1)?.claims.aud).toBe(w.api.url);
  });

  it("sends the caller's slot, and no slot for a goal's one slot", async () => {
    w.api.ask = runAnswer();
    const { run } = await ask({ slot: "2" });
    expect(run.code).toBe(0);
    expect(w.api.bodies("/api/v1/ticks").at(-1)).toEqual({ goal: 12, slot: "2" });
    await ask({ slot: "" });
    expect(w.api.bodies("/api/v1/ticks").at(-1)).toEqual({ goal: 12 });
    const bad = await ask({ slot: "9" });
    expect(bad.run.code).not.toBe(0);
  });

  it("on wait: run=false and a one-line summary (why, next wake), and no files", async () => {
    w.api.ask = {
      run: false,
      route: "wait",
      reason: "backing off after 2 ticks without progress",
      nextWakeAt: "2030-01-01T10:00:00.000Z",
    };
    const { run, tickDir } = await ask();
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ run: "false", route: "wait" });
    expect(run.outputs["tick-id"]).toBeUndefined();
    expect(run.summary.trim().split("\n")).toEqual([
      "LoopX #12: wait — backing off after 2 ticks without progress (next wake 2030-01-01T10:00:00.000Z).",
    ]);
    expect(() => readFileSync(join(tickDir, "ask.json"))).toThrow();
  });

  it("retries a 5xx with a fresh OIDC token (each token is single-use) and then succeeds", async () => {
    w.api.ask = runAnswer();
    w.api.failNext("/api/v1/ticks", {
      status: 503,
      body: { error: "unavailable", message: "db busy" },
    });
    const before = w.api.calls.length;
    const { run } = await ask();
    expect(run.code).toBe(0);
    expect(run.outputs.run).toBe("true");
    const jtis = w.api.calls.slice(before).map((c) => c.claims.jti);
    expect(jtis).toHaveLength(2);
    expect(new Set(jtis).size).toBe(2);
  });

  it("a refusal fails the step with the App's reason and what to check", async () => {
    w.api.ask = {
      status: 403,
      body: { error: "forbidden", message: "job_workflow_ref is not the configured workflow" },
    };
    const { run } = await ask();
    expect(run.code).not.toBe(0);
    expect(run.errors.join("\n")).toMatch(
      /refused POST \/api\/v1\/ticks \(HTTP 403, forbidden\): job_workflow_ref .*on the default branch/,
    );
  });

  it("an unknown answer shape fails clearly rather than guessing", async () => {
    w.api.ask = { status: 200, body: { run: "maybe" } };
    const { run } = await ask();
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toContain("does not understand");
  });

  it("without id-token: write, says which permission the job needs", async () => {
    const { run } = await ask(
      {},
      { ACTIONS_ID_TOKEN_REQUEST_URL: "", ACTIONS_ID_TOKEN_REQUEST_TOKEN: "" },
    );
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toContain("permissions: { id-token: write }");
  });

  it("a token for another audience is refused by the App, and the step fails", async () => {
    w.api.ask = runAnswer();
    const { run } = await ask({ audience: "someone-else" });
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toContain("unauthenticated");
    expect(run.errors.join()).toContain("`audience` input");
  });
});

describe("wake", () => {
  it("asks the App to dispatch due goals and says which", async () => {
    w.api.wake = { dispatched: [12, 14] };
    const run = await runAction(
      { phase: "wake", "api-url": w.api.url },
      { ...w.githubEnv, ...w.idTokenEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.outputs.dispatched).toBe("[12,14]");
    expect(run.summary).toContain("dispatched ticks for #12, #14");
  });

  it("fails after retries when the App is down, naming the URL to check", async () => {
    const run = await runAction(
      { phase: "wake", "api-url": "http://127.0.0.1:9" },
      { ...w.githubEnv, ...w.idTokenEnv() },
    );
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toMatch(
      /did not answer POST \/api\/v1\/wake after 4 attempts.*api-url/,
    );
  });
});

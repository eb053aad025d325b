import { readFileSync } from "node:fs";
import { AskResponse, containsCredential, WITHHELD } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { playTick } from "../support/tick-phases.ts";
import { everythingShown } from "./support/everything-shown.ts";

/**
 * Secrets in a harness's output: the exact value handed to the harness and token-shaped
 * strings (ghs_, ghp_, github_pat_, sk-ant-, sk-) in everything the agent prints or claims,
 * plainly and encoded (base64, hex). None of them may appear, in any encoding, where they
 * would be shown: the jobs' logs and summaries, the result file, the App's log, the comments
 * and bodies on GitHub, the stored evidence and events. A field that held one is withheld
 * whole, and the ledger says which field.
 */
const SERVICE_KEY = "svc-9f8e7d6c5b4a39281706";
const TOKENS = [
  `ghs_${"A1b2C3d4E5".repeat(4)}`,
  `ghp_${"Zz09Yy18Xx".repeat(4)}`,
  `github_pat_11AAAAAAA0${"q".repeat(60)}`,
  `sk-ant-api03-${"k".repeat(40)}`,
  `sk-proj-${"p".repeat(40)}`,
];
const leak = [
  ...TOKENS,
  Buffer.from(`token=${TOKENS[0]}`).toString("base64"),
  Buffer.from(TOKENS[1] ?? "").toString("hex"),
].join(" ");

/** Texts that hold a secret, plainly or in any encoding the scan knows. */
function leaked(texts: string[]): string[] {
  return texts.filter((t) => containsCredential(t, [SERVICE_KEY]));
}

describe("hostile: secrets in harness output are redacted everywhere they would be shown", () => {
  let h: TickHarness;
  const logged: string[] = [];
  beforeAll(async () => {
    // Every line the App logs, at every level, and anything that reaches the console.
    const keep = (m: string) => {
      logged.push(m);
    };
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    });
    h = await startTickHarness({ log: { info: keep, warn: keep, error: keep } });
    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml": "harness:\n  default: shell\nvalidationCommand: test -s notes.txt\n",
    });
  });
  afterAll(async () => {
    await h.close();
    vi.restoreAllMocks();
  });

  it("a slice printing and claiming secrets: the action's logs, summaries and result hide them, and so does the App", async () => {
    const goal = await h.startGoal("Rotate the widget keys", ["Rotate the signing key"]);
    const claim = {
      outcome: "progress",
      handoff: {
        done: `Used $MY_SERVICE_KEY and ${leak}`,
        next: `Keep ${TOKENS[0]}`,
        questions: [`Is ${TOKENS[1]} still valid?`],
      },
      evidence: [{ kind: "note", summary: `key=$MY_SERVICE_KEY ${leak}` }],
      proposedTodos: [{ title: `Revoke ${TOKENS[3]}`, detail: leak }],
      gateRequests: [{ question: `May I publish ${TOKENS[2]}?`, scopes: ["merge"] }],
    };
    // The claim is written by the shell, so $MY_SERVICE_KEY expands to the real value.
    const json = JSON.stringify(claim).replaceAll('"', '\\"');
    const command = [
      `echo "key=$MY_SERVICE_KEY ${leak}"`,
      `echo "$MY_SERVICE_KEY" > notes.txt`,
      `printf '%s' "${json}" > "$LOOPX_RESULT"`,
    ].join(" && ");
    const tick = await playTick(h, {
      goal: goal.goal.issue.number,
      runId: 6101,
      agent: { "shell-command": command, "harness-env": "MY_SERVICE_KEY" },
      agentEnv: { MY_SERVICE_KEY: SERVICE_KEY },
    });
    expect(tick.agent?.outputs["slice-outcome"], tick.agent?.stdout).toBe("validated_progress");
    expect(tick.report?.code, tick.report?.stdout).toBe(0);
    await h.settle();

    const result = readFileSync(tick.agent?.outputs["result-file"] ?? "", "utf8");
    expect(result).toContain(WITHHELD);
    // `::add-mask::` lines are the runner's masking commands, consumed and never shown.
    const shownLog = (out: string) =>
      out
        .split("\n")
        .filter((l) => !l.startsWith("::add-mask::"))
        .join("\n");
    const jobs = [tick.ask, tick.agent, tick.report].flatMap((r) =>
      r ? [shownLog(r.stdout), r.stderr, r.summary] : [],
    );
    expect(leaked([result, ...jobs])).toEqual([]);

    const shown = await everythingShown(h.sandbox, h.store);
    // The handoff did reach GitHub and the store — withheld, not dropped; the ledger knows.
    expect(shown.github.some((t) => t.includes(WITHHELD))).toBe(true);
    expect(shown.stored.some((t) => t.includes(WITHHELD))).toBe(true);
    expect(shown.stored.some((t) => t.includes('"credential.withheld"'))).toBe(true);
    expect(leaked(shown.github)).toEqual([]);
    expect(leaked(shown.stored)).toEqual([]);
    expect(leaked(logged)).toEqual([]);
  });

  it("a result sent straight to the API with token shapes in every field: the App redacts them itself", async () => {
    const goal = await h.startGoal("Audit the widget tokens", ["Audit the tokens"]);
    const asked = await h.post(
      "/api/v1/ticks",
      { goal: goal.goal.issue.number },
      await h.token(6201),
    );
    const claimed = AskResponse.parse(asked.body);
    if (!claimed.run) throw new Error(`expected a run: ${claimed.reason}`);
    const result = {
      todo: claimed.todo,
      outcome: "progress",
      validation: { command: `check ${TOKENS[0]}`, exitCode: 0, passed: true, summary: leak },
      evidence: [{ kind: "log", summary: leak }],
      handoff: { done: leak, next: leak, questions: [leak] },
      proposedTodos: [{ title: `Revoke ${TOKENS[1]}`, detail: leak }],
      gateRequests: [{ question: `Publish ${TOKENS[2]}?`, scopes: ["merge"] }],
      cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 },
      sessionId: TOKENS[3],
    };
    const sent = await h.post(
      `/api/v1/ticks/${claimed.tickId}/result`,
      { leaseToken: claimed.leaseToken, result },
      await h.token(6201),
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await h.settle();

    const shown = await everythingShown(h.sandbox, h.store);
    expect(leaked(shown.github)).toEqual([]);
    expect(leaked(shown.stored)).toEqual([]);
    expect(leaked(logged)).toEqual([]);
  });
});

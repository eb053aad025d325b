/**
 * `npm run bench:requests`: how many GitHub requests the App makes for a goal start and for
 * a gate approval, counted exactly from the sandbox's request log (the real app over HTTP,
 * embedded PGlite); and for productive ticks with CI (the first, which opens the PR, and a
 * follow-on on the same PR), from the tick's ask through the outbox and every check run's
 * webhook, with how many goals one installation sustains at that rate. Figures, not pass
 * criteria.
 */
import { pathToFileURL } from "node:url";
import { openGate } from "@loopx/core";
import { readKey } from "@loopx/github";
import { z } from "zod";
import { startHarness } from "../test/support/app-harness.ts";
import { playTick } from "../test/support/pr-ticks.ts";
import { startTickHarness } from "../test/support/tick-api-harness.ts";
import { capacity, type TickCount } from "./tick-capacity.ts";

export interface Count {
  requests: number;
  writes: number;
  contentCreating: number;
}

export async function benchRequests(): Promise<{ start: Count; approval: Count }> {
  const h = await startHarness();
  try {
    const alice = h.as("alice");
    const counted = async (act: () => Promise<unknown>): Promise<Count> => {
      await h.settle();
      await act();
      // Everything after the person's own request is the App's doing (and GitHub's echoes).
      const from = h.sandbox.requests().length;
      await h.settle();
      const made = h.sandbox.requests().slice(from);
      return {
        requests: made.length,
        writes: made.filter((r) => r.method !== "GET").length,
        contentCreating: made.filter((r) => r.contentCreating).length,
      };
    };
    const { data: issue } = await alice.rest.issues.create({
      owner: "acme",
      repo: "widgets",
      title: "Speed up rendering",
      body: "Rendering takes 3 s.",
    });
    const start = await counted(() =>
      alice.rest.issues.addLabels({
        owner: "acme",
        repo: "widgets",
        issue_number: issue.number,
        labels: ["loopx"],
      }),
    );
    const goal = await h.store.findGoalByIssue(h.repo.id, issue.number);
    if (!goal) throw new Error("the label started no goal");
    await h.store.apply(goal.goal.id, (s, now) =>
      openGate(
        s,
        { question: "Ship it?", scopes: ["release"] },
        { actor: { kind: "app" }, now, newId: h.app.deps.newId },
      ),
    );
    h.app.outbox.kick();
    const approval = await counted(() =>
      alice.rest.issues.createComment({
        owner: "acme",
        repo: "widgets",
        issue_number: issue.number,
        body: "/loopx approve G1",
      }),
    );
    return { start, approval };
  } finally {
    await h.close();
  }
}

/**
 * A comment that asks a person for something: a gate's question (opened, or asked again about
 * a new head) or the notice mentioning the owners. Known by the key LoopX writes into it.
 */
function tellsPerson(body: unknown): boolean {
  const text = z.object({ body: z.string() }).safeParse(body);
  const key = text.success ? readKey(text.data.body) : null;
  return key !== null && (key.startsWith("gate:") || key.startsWith("notify:"));
}

/** How long each of CI's check runs takes, in real milliseconds. */
const CI_RUN_MS = 100;

/** Checks the sandbox's CI reports on every push: `ci` (required) and 19 more. */
export const CI_CHECKS = ["ci", ...Array.from({ length: 19 }, (_, i) => `check-${i + 1}`)];

/**
 * Two productive ticks on a configured repository (`.github/loopx.yml` committed) with a
 * 20-check CI: the App's requests (installation token and App JWT; the jobs' own calls use
 * their GITHUB_TOKEN, another budget), with 304s counted apart as GitHub does not charge them.
 */
export async function benchTickRequests(): Promise<{ first: TickCount; next: TickCount }> {
  const h = await startTickHarness({ api: { rateLimit: { perMinute: 100_000, burst: 1000 } } });
  try {
    // CI runs on every push to a PR branch and passes: each head gets 20 check runs and a
    // completed check suite, whose webhooks reach the App as GitHub's would. Real CI takes
    // minutes, long after the push's own deliveries and the PR writes they cause: a tick's CI
    // is held until the App has settled everything its report caused, then each run takes
    // CI_RUN_MS.
    let releaseCi = () => {};
    let ciHeld = Promise.resolve();
    h.sandbox.ci.checks = CI_CHECKS;
    h.sandbox.ci.rule = async () => {
      await ciHeld;
      return new Promise<"success">((resolve) => setTimeout(() => resolve("success"), CI_RUN_MS));
    };
    // The defaults, committed: reads of it are conditional (304) once the App has a copy.
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: quiet\n" }, "alice");
    const goal = await h.startGoal("Bench: requests", ["Cache layout", "Document it"]);
    const issue = goal.goal.issue.number;
    // Each tick runs as the workflow run the App dispatched for it, as on GitHub, so the App's
    // reads of that run (its jobs, for runner minutes) find it.
    const dispatched = (): number => {
      const runs = [...h.sandbox.store.workflowRuns.values()].filter(
        (r) => r.repoId === h.repo.id && r.inputs.goal === String(issue),
      );
      const newest = runs.sort((a, b) => b.id - a.id)[0];
      if (!newest) throw new Error(`the App dispatched no tick for #${issue}`);
      return newest.id;
    };
    const counted = async (files: Record<string, string>): Promise<TickCount> => {
      await h.sandbox.idle();
      await h.settle();
      const from = h.sandbox.requests().length;
      ciHeld = new Promise<void>((resolve) => {
        releaseCi = resolve;
      });
      // A slice takes minutes: the outbox has long drained the ask's writes before it reports.
      await playTick(h, issue, files, { runId: dispatched(), duringSlice: () => h.settle() });
      await h.settle();
      releaseCi();
      await h.sandbox.idle();
      await h.settle();
      const app = h.sandbox
        .requests()
        .slice(from)
        .filter((r) => r.by?.startsWith("installation:") || r.by?.startsWith("app:"));
      if (process.env.BENCH_TRACE)
        for (const r of app)
          console.error(
            `${r.status} ${r.method} ${r.operationId ?? r.path} ${r.path}${process.env.BENCH_TRACE === "body" && r.body ? `\n${JSON.stringify(r.body).slice(0, 3000)}` : ""}`,
          );
      const created = app.filter((r) => r.contentCreating && r.status < 400);
      return {
        rest: app.filter((r) => r.status !== 304).length,
        notModified: app.filter((r) => r.status === 304).length,
        contentCreating: created.length,
        tellsPerson: created.filter((r) => tellsPerson(r.body)).length,
        byOperation: [...new Set(app.map((r) => r.operationId ?? r.path))].map((op) => {
          const of = app.filter((r) => (r.operationId ?? r.path) === op);
          const unchanged = of.filter((r) => r.status === 304).length;
          const charged = `${of.length - unchanged}× ${op}`;
          return unchanged > 0 ? `${charged} (+${unchanged} × 304)` : charged;
        }),
      };
    };
    const first = await counted({ "src/layout.ts": "export const cache = 1;\n" });
    const next = await counted({ "src/layout.ts": "export const cache = 2;\n" });
    return { first, next };
  } finally {
    await h.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const ticks = await benchTickRequests();
  for (const [what, c] of [
    ["first productive tick (opens the PR), 20-check CI", ticks.first],
    ["follow-on productive tick (same PR), 20-check CI", ticks.next],
  ] as const) {
    const first = c === ticks.first;
    const unasked = c.contentCreating - c.tellsPerson;
    const met = c.rest <= 10 && unasked <= (first ? 1 : 0) ? "met" : "NOT MET";
    console.log(
      `${what}: ${c.rest} REST (target ≤ 10), ${c.notModified} answered 304 (not charged), ${c.contentCreating} content-creating, ${c.tellsPerson} of them asking a person (target: others ${first ? "≤ 1" : "0"}): ${met}`,
    );
    console.log(`  ${c.byOperation.join(", ")}`);
    const cap = capacity(c, 30);
    const capMet = Math.min(cap.oneRepository.goals, cap.repositoryEach.goals) >= 150;
    console.log(
      `  goals one installation sustains at a 30-minute cadence, every limit at 80 % (target ≥ 150, ${capMet ? "met" : "NOT MET"}): ${cap.oneRepository.goals} in one repository (limited by ${cap.oneRepository.limitedBy}), ${cap.repositoryEach.goals} with a repository each (limited by ${cap.repositoryEach.limitedBy})`,
    );
  }
  console.log(
    "  before (main at the issue): 22–32 REST per productive tick before CI, ~5 more per check run; ~30 goals at a 10-minute cadence, ~7 with a 20-check CI",
  );
  const { start, approval } = await benchRequests();
  const row = (what: string, c: Count) =>
    console.log(
      `${what.padEnd(16)} ${String(c.requests).padStart(3)} requests, ${c.writes} writes (${c.contentCreating} content-creating)`,
    );
  row("goal start", start);
  row("gate approval", approval);
}

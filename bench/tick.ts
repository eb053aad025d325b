/**
 * `npm run bench:tick`: the tick's figures, on the sandbox with the
 * real App and the committed action bundle as child processes. Figures, not pass criteria.
 *
 *   wait decision: action start → decision for a wait tick — `node action/dist/index.js`
 *                  (phase ask) from spawn to exit, median over repeats (target < 1 s); the
 *                  App's share (the POST alone) is shown beside it; GitHub requests made
 *                  during the wait ticks (by the action or the App), from the sandbox's log
 *                  (target 0)
 *   requests:      GitHub requests in one productive tick (ask → shell slice → report → the
 *                  App's outbox), from the sandbox's request log (target ≤ 3 content writes:
 *                  the sandbox's content-creating class, as GitHub's secondary limits count
 *                  them); every write is listed by operation. The follow-up tick's dispatch
 *                  is never run here, so the App may dispatch it more than once.
 *   bundle:        action/dist/index.js, raw and gzipped
 *
 *   npx tsx bench/tick.ts      # BENCH_REPEATS=N for more wait ticks (default 15)
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { AskResponse } from "@loopx/core";
import { runAction } from "../action/test/support/run-action.ts";
import { startTickHarness, type TickHarness } from "../test/support/tick-api-harness.ts";
import { idTokenEnv, playTick } from "../test/support/tick-phases.ts";
import { median } from "./stats.ts";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 15);
const BUNDLE = resolve(import.meta.dirname, "../action/dist/index.js");

const ms = (n: number) => `${n.toFixed(0)} ms`;

/** GitHub's API and git, not the runner's OIDC service the sandbox also serves. */
function gitHubRequests<T extends { path: string }>(log: T[]): T[] {
  return log.filter(
    (r) => !r.path.startsWith("/.well-known/") && !r.path.startsWith("/_services/"),
  );
}

/** The ask step of run `runId` as the runner starts it; resolves with its wall time. */
async function askStep(h: TickHarness, goal: number, runId: number) {
  // Outside the timing: the runner hands a job its id-token settings before the step starts.
  const idToken = idTokenEnv(h, runId);
  const started = performance.now();
  const run = await runAction(
    { phase: "ask", goal: String(goal), "api-url": h.apiUrl },
    {
      GITHUB_SERVER_URL: h.sandbox.url,
      GITHUB_API_URL: h.sandbox.url,
      ...idToken,
    },
  );
  const elapsed = performance.now() - started;
  if (run.code !== 0) throw new Error(`ask failed: ${run.errors.join("; ")}`);
  return { elapsed, run };
}

async function waitDecision(h: TickHarness) {
  const goal = await h.startGoal("Bench: wait", ["Held by another run"]);
  const issue = goal.goal.issue.number;
  // Another run holds the only todo: every later ask is a wait.
  const first = await askStep(h, issue, 1);
  if (first.run.outputs.run !== "true") throw new Error("the first ask did not claim");
  await h.settle();
  const cold = await askStep(h, issue, 2);
  await h.settle();
  const from = h.sandbox.requests().length;
  const spawn: number[] = [];
  const api: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const { elapsed, run } = await askStep(h, issue, 100 + i);
    if (run.outputs.run !== "false") throw new Error("expected a wait");
    spawn.push(elapsed);
    const t = performance.now();
    const answer = await h.post("/api/v1/ticks", { goal: issue }, await h.token(1000 + i));
    api.push(performance.now() - t);
    if (AskResponse.parse(answer.body).run) throw new Error("expected a wait");
  }
  await h.settle();
  const github = gitHubRequests(h.sandbox.requests().slice(from));
  return {
    cold: cold.elapsed,
    spawn: median(spawn),
    api: median(api),
    waitTicks: 2 * REPEATS,
    requests: github.length,
  };
}

async function productiveTick(h: TickHarness) {
  const goal = await h.startGoal("Bench: progress", ["Write the widget list"]);
  await h.settle();
  const from = h.sandbox.requests().length;
  const tick = await playTick(h, {
    goal: goal.goal.issue.number,
    runId: 5000,
    agent: {
      harness: "shell",
      "shell-command": `echo gear > widgets.txt && printf '%s' '{"outcome":"progress","handoff":{"done":"Listed","next":"More"}}' > "$LOOPX_RESULT"`,
    },
  });
  if (tick.report?.outputs.pushed !== "true") {
    throw new Error(`the productive tick did not push: ${tick.report?.errors.join("; ")}`);
  }
  await h.settle();
  const log = gitHubRequests(h.sandbox.requests().slice(from));
  const git = log.filter((r) => r.route === "git");
  const rest = log.filter((r) => r.route !== "git");
  const writes = rest.filter((r) => r.method !== "GET");
  return {
    total: log.length,
    git: git.length,
    reads: rest.length - writes.length,
    writes: writes.map((r) => `${r.method} ${r.operationId ?? r.path} → ${r.status}`),
    contentCreating: rest.filter((r) => r.contentCreating && r.status < 400).length,
  };
}

/** The rate limit (60/min per repository) is for runaway workflows, not for a bench. */
const harness = () => startTickHarness({ api: { rateLimit: { perMinute: 100_000, burst: 1000 } } });

export interface TickBench {
  wait: Awaited<ReturnType<typeof waitDecision>>;
  productive: Awaited<ReturnType<typeof productiveTick>>;
  repeats: number;
  bundleBytes: number;
  bundleGzipBytes: number;
}

export async function benchTick(): Promise<TickBench> {
  // Each figure on its own sandbox and App, so one goal's outbox never counts in another's.
  const h1 = await harness();
  const productive = await productiveTick(h1).finally(() => h1.close());
  const h2 = await harness();
  const wait = await waitDecision(h2).finally(() => h2.close());
  return {
    wait,
    productive,
    repeats: REPEATS,
    bundleBytes: statSync(BUNDLE).size,
    bundleGzipBytes: gzipSync(readFileSync(BUNDLE)).length,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { wait, productive: requests, bundleBytes: bytes, bundleGzipBytes: gz } = await benchTick();
  console.log("tick bench (sandbox, real App, action bundle as child processes)");
  console.log(
    `  wait decision (action start → decision): median ${ms(wait.spawn)} over ${REPEATS} (target < 1 s); first wait: ${ms(wait.cold)}; the App's POST alone: median ${ms(wait.api)}`,
  );
  console.log(
    `  wait ticks: ${wait.requests} GitHub requests over ${wait.waitTicks} (target 0 per tick)`,
  );
  console.log(
    `  productive tick: ${requests.total} GitHub requests — ${requests.reads} REST reads, ${requests.writes.length} REST writes, ${requests.git} git (smart HTTP); content-creating writes: ${requests.contentCreating} (target ≤ 3)`,
  );
  const counts = new Map<string, number>();
  for (const w of requests.writes) counts.set(w, (counts.get(w) ?? 0) + 1);
  for (const [w, n] of counts) console.log(`    ${n} × ${w}`);
  console.log(
    `  action bundle: ${(bytes / 1024).toFixed(0)} KiB (${(gz / 1024).toFixed(0)} KiB gzipped)`,
  );
}

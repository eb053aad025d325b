import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { GIT_ENV } from "./git/git.ts";
import type { GitRoot } from "./git/root.ts";
import { runProcess } from "./proc.ts";
import { renderCheckRun, renderSuite } from "./render/checks.ts";
import type { RouteContext } from "./routes/context.ts";
import { findOrCreateSuite, settleCheckSuite } from "./state/check-ops.ts";
import type { AppRecord, CheckRun, Repo, User } from "./state/types.ts";

/** What a check run of CI may conclude; `skipped` is a job whose `if:` was false. */
export type CiConclusion =
  | "success"
  | "failure"
  | "neutral"
  | "cancelled"
  | "timed_out"
  | "skipped";

/**
 * What a rule decides about one check run: a conclusion, or one with the run's output (what
 * a job's log would say), which the check run then carries as GitHub's `output` does.
 */
export type CiVerdict =
  | CiConclusion
  | { conclusion: CiConclusion; title?: string; summary?: string };

export interface CiContext {
  repo: string;
  branch: string;
  sha: string;
  /** The check run's name. */
  check: string;
  /** What started it: `push` or `pull_request`. */
  event: string;
  /** Reads a file at the commit under test. */
  read(path: string): string | null;
}

export interface CiCommand {
  /** A shell command run with bash in a fresh checkout of the commit; exit 0 = success. */
  run: string;
  /** Real milliseconds before the process group is killed (conclusion `timed_out`). */
  timeoutMs?: number;
  env?: Record<string, string>;
}

/** GitHub Actions' own app: CI check suites belong to it, as on github.com. */
export const ACTIONS_APP_ID = 15368;

/**
 * The repository's CI, as GitHub Actions runs it for `push`/`pull_request`: a check suite and
 * one check run per name in `checks`, completed by `rule` or by running `command` in a checkout.
 * Off until a rule or a command is set. Not started by events a GITHUB_TOKEN caused.
 */
export class Ci {
  rule: ((ctx: CiContext) => CiVerdict | Promise<CiVerdict>) | null = null;
  command: CiCommand | null = null;
  checks: string[] = ["ci"];
  /** The app owning CI's suites (default: the built-in github-actions app). */
  appId: number = ACTIONS_APP_ID;
  private readonly running = new Set<Promise<void>>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly ctx: RouteContext,
    private readonly root: GitRoot,
  ) {}

  get enabled(): boolean {
    return this.rule !== null || this.command !== null;
  }

  /** Waits until every CI run started so far has completed. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  start(repo: Repo, branch: string, sha: string, sender: User, event: string): void {
    // One suite per commit and app, as GitHub: a push and the PR's synchronize share it.
    const key = `${repo.id}:${sha}`;
    if (!this.enabled || this.seen.has(key)) return;
    this.seen.add(key);
    const { store, render, bus, clock } = this.ctx;
    const app = actionsApp(this.ctx, this.appId);
    const suite = findOrCreateSuite(this.ctx, repo, app.id, sha);
    suite.headBranch = branch;
    bus.emit(
      "check_suite",
      repo,
      sender,
      { action: "requested", check_suite: renderSuite(render, suite, "webhook") },
      app.id,
    );
    const runs = this.checks.map((name) => {
      const run: CheckRun = {
        id: store.id(),
        suiteId: suite.id,
        repoId: repo.id,
        appId: app.id,
        name,
        headSha: sha,
        status: "in_progress",
        conclusion: null,
        startedAt: clock.now(),
        completedAt: null,
        externalId: null,
        detailsUrl: null,
        output: { title: null, summary: null, text: null },
      };
      store.checkRuns.set(run.id, run);
      bus.emit("check_run", repo, sender, {
        action: "created",
        check_run: renderCheckRun(render, run, "webhook"),
      });
      return run;
    });
    settleCheckSuite(this.ctx, suite, sender);
    const work = (async () => {
      for (const run of runs) {
        const { conclusion, title, summary } = await this.evaluate(
          repo,
          branch,
          sha,
          run.name,
          event,
        );
        run.status = "completed";
        run.conclusion = conclusion;
        run.completedAt = clock.now();
        run.output = { title: title ?? `${run.name}: ${conclusion}`, summary, text: null };
        bus.emit("check_run", repo, sender, {
          action: "completed",
          check_run: renderCheckRun(render, run, "webhook"),
        });
      }
      settleCheckSuite(this.ctx, suite, sender, true);
    })().catch((error: unknown) => console.error("[sandbox] CI failed", error));
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private async evaluate(
    repo: Repo,
    branch: string,
    sha: string,
    check: string,
    event: string,
  ): Promise<{ conclusion: CiConclusion; title?: string; summary: string }> {
    const git = this.ctx.store.git(repo);
    if (this.rule) {
      const verdict = await this.rule({
        repo: this.ctx.store.fullName(repo),
        branch,
        sha,
        check,
        event,
        read: (path) => git.readFile(sha, path),
      });
      if (typeof verdict !== "string") {
        const { conclusion, title, summary } = verdict;
        return { conclusion, ...(title !== undefined ? { title } : {}), summary: summary ?? "" };
      }
      const summary = verdict === "skipped" ? "This check was skipped." : `rule → ${verdict}`;
      return { conclusion: verdict, summary };
    }
    if (!this.command) return { conclusion: "neutral", summary: "no CI configured" };
    const dir = this.root.scratch("ci");
    try {
      execFileSync("git", ["clone", "--quiet", "--no-checkout", repo.gitDir, dir], {
        env: GIT_ENV,
      });
      execFileSync("git", ["-C", dir, "checkout", "--quiet", sha], { env: GIT_ENV });
      const result = await runProcess({
        command: "bash",
        args: ["--noprofile", "--norc", "-eo", "pipefail", "-c", this.command.run],
        cwd: dir,
        env: { ...process.env, CI: "true", ...this.command.env },
        ...(this.command.timeoutMs !== undefined ? { timeoutMs: this.command.timeoutMs } : {}),
      });
      const tail = result.output.split("\n").slice(-60).join("\n").slice(-60_000);
      const conclusion = result.timedOut ? "timed_out" : result.code === 0 ? "success" : "failure";
      return { conclusion, summary: `\`\`\`\n${tail}\n\`\`\`` };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** The app CI's suites belong to: a registered one, or the built-in github-actions app. */
export function actionsApp(ctx: RouteContext, appId: number): AppRecord {
  const existing = ctx.store.apps.get(appId);
  if (existing) return existing;
  let bot = ctx.store.userByLogin("github-actions[bot]");
  if (!bot) {
    bot = { id: 41898282, login: "github-actions[bot]", type: "Bot", name: null };
    ctx.store.users.set(bot.id, bot);
  }
  const app: AppRecord = {
    id: appId,
    slug: "github-actions",
    name: "GitHub Actions",
    clientId: "Iv1.github-actions",
    ownerId: bot.id,
    publicKeyPem: "",
    privateKeyPem: null,
    webhookSecret: "",
    permissions: { actions: "write", checks: "write", contents: "write", metadata: "read" },
    events: [],
    botUserId: bot.id,
    createdAt: ctx.clock.now(),
  };
  ctx.store.apps.set(app.id, app);
  return app;
}

import type { GitRoot } from "../git/root.ts";
import type { OidcIssuer } from "../oidc.ts";
import { announceRun, newRun, workflowsOf } from "../routes/actions.ts";
import type { RouteContext } from "../routes/context.ts";
import type { Pull, Repo, User, Workflow, WorkflowRun } from "../state/types.ts";
import { cronMatches } from "./cron.ts";
import { interpolate, type Value } from "./expressions.ts";
import type { ActionSpec } from "./job.ts";
import { conclusionOf } from "./job-slot.ts";
import { pullRequestRuns } from "./pull-request-runs.ts";
import { globMatch, runContexts } from "./run-contexts.ts";
import { runWorkflowJobs } from "./run-jobs.ts";
import { RuntimeTokens } from "./runtime-tokens.ts";
import { parseWorkflow, type WorkflowDef } from "./workflow-file.ts";

interface Group {
  running: number | null;
  pending: number | null;
}

/**
 * The sandbox's Actions runner: runs dispatched, scheduled and `on: push` workflows from the
 * repository's `.github/workflows/*.yml` at the run's commit, job by job as child processes,
 * honouring concurrency groups (one running, one pending; a newer pending replaces the older).
 */
export class Runner {
  /** When false, dispatched runs stay queued for `sandbox.updateRun` to move by hand. */
  enabled = true;
  /** `uses:` value → local entry (e.g. `{ "loopx/loopx@v1": "/work/main/action/dist/index.js" }`). */
  actions: Record<string, ActionSpec> = {};
  secrets: Record<string, string> = {};
  vars: Record<string, string> = {};
  /** Real milliseconds a `timeout-minutes` minute lasts (shorten it in tests). */
  minuteMs = 60_000;
  /** Runtime tokens of running jobs (ACTIONS_RUNTIME_TOKEN), honoured by the Actions services. */
  readonly runtime = new RuntimeTokens();
  private readonly active = new Map<
    number,
    { abort: AbortController; force: AbortController; done: Promise<void> }
  >();
  private readonly groups = new Map<string, Group>();
  private readonly waiters = new Map<number, Array<(run: WorkflowRun) => void>>();
  private stopping = false;

  constructor(
    private readonly ctx: RouteContext,
    private readonly root: GitRoot,
    private readonly oidc: OidcIssuer,
    private readonly url: () => string,
  ) {}

  /** Resolves once the run has completed (immediately if it already has). */
  wait(runId: number): Promise<WorkflowRun> {
    const run = this.ctx.store.workflowRuns.get(runId);
    if (!run) return Promise.reject(new Error(`sandbox: no run ${runId}`));
    if (run.status === "completed") return Promise.resolve(run);
    return new Promise((resolve) => {
      this.waiters.set(runId, [...(this.waiters.get(runId) ?? []), resolve]);
    });
  }

  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map((a) => a.done));
  }

  cancelAll(): void {
    this.stopping = true;
    for (const a of this.active.values()) a.force.abort();
  }

  /**
   * Cancels a run as GitHub does (Workflow cancellation reference): running jobs whose `if`
   * still holds (`always()`) keep running and jobs waiting on them still start if theirs does;
   * other steps get SIGINT, SIGTERM 7.5 s later, then a tree kill. `force` (force-cancel)
   * stops everything at once. A queued or pending run completes as cancelled.
   */
  cancel(runId: number, force = false): void {
    const active = this.active.get(runId);
    if (active) {
      active.abort.abort();
      if (force) active.force.abort();
      return;
    }
    const run = this.ctx.store.workflowRuns.get(runId);
    if (run && run.status !== "completed") this.complete(run, "cancelled");
  }

  /** Takes a newly created run (dispatch, schedule, push) and starts it or queues it in its group. */
  enqueue(run: WorkflowRun): void {
    if (!this.enabled || this.stopping) return;
    let def: WorkflowDef;
    try {
      def = this.definition(run);
    } catch (error) {
      console.warn(`[sandbox] run ${run.id}: ${String(error)}`);
      this.complete(run, "failure");
      return;
    }
    if (!def.concurrency) {
      this.start(run, def);
      return;
    }
    const ctx = {
      contexts: this.contexts(run, def),
      status: { success: true, failure: false, cancelled: false },
    };
    // Group names are case-insensitive on GitHub.
    const key = `${run.repoId}:${interpolate(def.concurrency.group, ctx).toLowerCase()}`;
    run.concurrencyGroup = key;
    const cancelInProgress =
      typeof def.concurrency.cancelInProgress === "boolean"
        ? def.concurrency.cancelInProgress
        : interpolate(def.concurrency.cancelInProgress, ctx).trim() === "true";
    const group = this.groups.get(key) ?? { running: null, pending: null };
    this.groups.set(key, group);
    if (group.running === null) {
      group.running = run.id;
      this.start(run, def);
      return;
    }
    if (group.pending !== null) {
      const replaced = this.ctx.store.workflowRuns.get(group.pending);
      if (replaced) this.complete(replaced, "cancelled");
    }
    group.pending = run.id;
    run.status = "pending";
    run.updatedAt = this.ctx.clock.now();
    if (cancelInProgress) this.active.get(group.running)?.abort.abort();
  }

  /** `on: push` workflows of the pushed commit (not for GITHUB_TOKEN pushes: callers filter). */
  onPush(repo: Repo, change: { branch: string; after: string }, sender: User): void {
    for (const { workflow, def } of this.workflows(repo, change.after)) {
      const push = def.triggers.push;
      if (!push) continue;
      if (push.branches && !push.branches.some((b) => globMatch(b, change.branch))) continue;
      this.enqueue(
        newRun(this.ctx, repo, workflow, "push", change.branch, change.after, sender, {}),
      );
    }
  }

  /** `on: pull_request` workflows of a PR's head (opened, synchronize, reopened). */
  onPullRequest(pull: Pull, action: string, sender: User): void {
    if (!["opened", "synchronize", "reopened"].includes(action) || this.stopping) return;
    const repo = this.ctx.store.repo(pull.repoId);
    const { ready } = pullRequestRuns(
      this.ctx,
      repo,
      pull,
      sender,
      this.workflows(repo, pull.headSha),
    );
    for (const run of ready) this.enqueue(run);
  }

  /** A fork PR's run approved by someone with write access: it runs now. */
  approve(runId: number): void {
    const run = this.ctx.store.workflowRuns.get(runId);
    if (run?.conclusion !== "action_required") return;
    run.status = "queued";
    run.conclusion = null;
    run.updatedAt = this.ctx.clock.now();
    this.enqueue(run);
  }

  /** Fires `on: schedule` workflows whose cron matches the simulated minute (all of them if forced). */
  cronTick(force: boolean): WorkflowRun[] {
    const runs: WorkflowRun[] = [];
    const at = new Date(this.ctx.clock.now());
    for (const repo of this.ctx.store.repos.values()) {
      const sha = repo.branches.get(repo.defaultBranch);
      if (!sha) continue;
      for (const { workflow, def } of this.workflows(repo, sha)) {
        if (!def.triggers.schedule.some((c) => force || cronMatches(c, at))) continue;
        const owner = this.ctx.store.user(repo.ownerId);
        const run = newRun(
          this.ctx,
          repo,
          workflow,
          "schedule",
          repo.defaultBranch,
          sha,
          owner,
          {},
        );
        runs.push(run);
        this.enqueue(run);
      }
    }
    return runs;
  }

  private workflows(repo: Repo, sha: string): Array<{ workflow: Workflow; def: WorkflowDef }> {
    const git = this.ctx.store.git(repo);
    const out: Array<{ workflow: Workflow; def: WorkflowDef }> = [];
    for (const workflow of workflowsOf(this.ctx, repo)) {
      const text = git.readFile(sha, workflow.path);
      if (text === null) continue;
      try {
        out.push({ workflow, def: parseWorkflow(text) });
      } catch {
        // An unparsable workflow starts nothing on these events.
      }
    }
    return out;
  }

  private definition(run: WorkflowRun): WorkflowDef {
    const workflow = this.ctx.store.workflows.get(run.workflowId);
    if (!workflow) throw new Error("no such workflow");
    const text = this.ctx.store
      .git(this.ctx.store.repo(run.repoId))
      .readFile(run.headSha, workflow.path);
    if (text === null) throw new Error(`${workflow.path} not found at ${run.headSha}`);
    return parseWorkflow(text);
  }

  /** The `github`, `inputs`, `secrets` and `vars` contexts of a run. */
  contexts(run: WorkflowRun, def: WorkflowDef): Record<string, Value> {
    return runContexts(this.ctx, run, def, {
      url: this.url(),
      secrets: this.secrets,
      vars: this.vars,
    });
  }

  private start(run: WorkflowRun, def: WorkflowDef): void {
    const abort = new AbortController();
    const force = new AbortController();
    const { store } = this.ctx;
    const sender = store.user(run.actorId);
    run.status = "in_progress";
    run.runStartedAt = this.ctx.clock.now();
    run.updatedAt = run.runStartedAt;
    announceRun(this.ctx, run, "in_progress", sender);
    const repo = store.repo(run.repoId);
    const path = store.workflows.get(run.workflowId)?.path ?? "";
    const workflowRef = `${store.fullName(repo)}/${path}@refs/heads/${run.headBranch}`;
    const input = {
      ctx: this.ctx,
      root: this.root,
      oidc: this.oidc,
      url: this.url(),
      id: { repo, run, workflowRef, workflowName: def.name ?? path },
      actions: this.actions,
      minuteMs: this.minuteMs,
      signal: abort.signal,
      force: force.signal,
      stopping: () => this.stopping,
      called: new Set<string>(),
      runtime: this.runtime,
    };
    const scope = {
      def,
      contexts: this.contexts(run, def),
      workflow: { ref: workflowRef, sha: run.headSha },
      ceiling: null,
      depth: 1,
      keyPrefix: "",
      namePrefix: "",
      cacheCeiling: null,
    };
    const done = runWorkflowJobs(input, scope)
      .then((results) => conclusionOf([...results.values()]))
      .then((conclusion) => this.complete(run, abort.signal.aborted ? "cancelled" : conclusion))
      .catch((error: unknown) => {
        console.error(`[sandbox] run ${run.id} crashed`, error);
        this.complete(run, "failure");
      })
      .finally(() => this.active.delete(run.id));
    this.active.set(run.id, { abort, force, done });
  }

  private complete(run: WorkflowRun, conclusion: string): void {
    run.status = "completed";
    run.conclusion = conclusion;
    run.updatedAt = this.ctx.clock.now();
    announceRun(this.ctx, run, "completed", this.ctx.store.user(run.actorId));
    for (const resolve of this.waiters.get(run.id) ?? []) resolve(run);
    this.waiters.delete(run.id);
    const group = run.concurrencyGroup ? this.groups.get(run.concurrencyGroup) : undefined;
    if (!group) return;
    if (group.pending === run.id) group.pending = null;
    if (group.running !== run.id) return;
    group.running = null;
    const next =
      group.pending === null ? undefined : this.ctx.store.workflowRuns.get(group.pending);
    group.pending = null;
    if (!next || this.stopping) return;
    group.running = next.id;
    try {
      this.start(next, this.definition(next));
    } catch {
      this.complete(next, "failure");
    }
  }
}

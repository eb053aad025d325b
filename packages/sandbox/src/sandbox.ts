import type { Server } from "node:http";
import { startsWorkflows } from "./auth.ts";
import { Ci } from "./ci.ts";
import { type Clock, createClock } from "./clock.ts";
import { afterPush, refChanges } from "./events/push.ts";
import { Faults, type RouteFault } from "./faults.ts";
import { GitRoot } from "./git/root.ts";
import { inspector } from "./inspect.ts";
import { lifecycleApi } from "./lifecycle.ts";
import { OidcIssuer } from "./oidc.ts";
import { Renderer } from "./render/core.ts";
import { renderPull } from "./render/pulls.ts";
import type { RequestLogEntry } from "./request-log.ts";
import { type Route, Router } from "./router.ts";
import { actionsRoutes, announceRun, workflowsOf } from "./routes/actions.ts";
import { appRoutes } from "./routes/app.ts";
import { appManifestRoutes } from "./routes/app-manifests.ts";
import { checkRoutes } from "./routes/checks.ts";
import { commentRoutes } from "./routes/comments.ts";
import type { RouteContext } from "./routes/context.ts";
import { deliveryRoutes } from "./routes/deliveries.ts";
import { forkRoutes } from "./routes/forks.ts";
import { gitDataRoutes } from "./routes/git-data.ts";
import { graphqlRoutes } from "./routes/graphql.ts";
import { issueRoutes } from "./routes/issues.ts";
import { jobRoutes } from "./routes/jobs.ts";
import { mergeRoutes } from "./routes/merge.ts";
import { oauthRoutes } from "./routes/oauth.ts";
import { OAuthGrants } from "./routes/oauth-grants.ts";
import { protectionRoutes } from "./routes/protection.ts";
import { pullRoutes } from "./routes/pulls.ts";
import { repoRoutes } from "./routes/repos.ts";
import { reviewRoutes } from "./routes/reviews.ts";
import { rulesetRoutes } from "./routes/rulesets.ts";
import { runControlRoutes } from "./routes/run-control.ts";
import { statusRoutes } from "./routes/statuses.ts";
import { subIssueRoutes } from "./routes/sub-issues.ts";
import { userRoutes } from "./routes/users.ts";
import { skipsWorkflows } from "./runner/pull-request-runs.ts";
import { Runner } from "./runner/runner.ts";
import { startServer } from "./server.ts";
import { ArtifactService } from "./services/artifacts.ts";
import { CacheService } from "./services/cache.ts";
import { setupApi } from "./setup.ts";
import { Store } from "./state/store.ts";
import type { Repo, WorkflowRun } from "./state/types.ts";
import { WebhookBus } from "./webhooks/bus.ts";
import { DeliveryLog, type WebhookFault } from "./webhooks/deliveries.ts";

export { DEFAULT_APP_PERMISSIONS } from "./setup.ts";

export interface SandboxOptions {
  /** 0 (default) picks a free port on 127.0.0.1. */
  port?: number;
  webhookUrl?: string;
  /** Secret the default app signs webhooks with. */
  webhookSecret?: string;
  clock?: Clock;
  /** Content-creation secondary limits (80/min, 500/h); on by default. */
  secondaryLimits?: boolean;
}

export type Sandbox = Awaited<ReturnType<typeof createSandbox>>;

/** Starts a local GitHub on 127.0.0.1. See the package README. */
export async function createSandbox(options: SandboxOptions = {}) {
  const clock = options.clock ?? createClock();
  const store = new Store();
  let url = "";
  const render = new Renderer(store, "", "");
  const deliveries = new DeliveryLog(clock);
  const bus = new WebhookBus(render, deliveries, { webhookUrl: options.webhookUrl ?? null });
  const root = new GitRoot();
  const ctx: RouteContext = { store, render, clock, bus, root };
  const router = new Router();
  /** GitHub's OAuth endpoints' memory, and the person's side of them (tests' controls). */
  const oauth = new OAuthGrants(store, clock);
  router.add(
    ...oauthRoutes(ctx, oauth),
    ...appManifestRoutes(ctx, oauth, () => setup),
    ...userRoutes(ctx),
    ...appRoutes(ctx),
    ...repoRoutes(ctx),
    ...forkRoutes(ctx),
    ...issueRoutes(ctx),
    ...commentRoutes(ctx),
    ...subIssueRoutes(ctx),
    ...pullRoutes(ctx),
    ...mergeRoutes(ctx),
    ...reviewRoutes(ctx),
    ...checkRoutes(ctx),
    ...actionsRoutes(ctx),
    ...deliveryRoutes(ctx),
    ...jobRoutes(ctx),
    ...statusRoutes(ctx),
    ...protectionRoutes(ctx),
    ...rulesetRoutes(ctx),
    ...graphqlRoutes(ctx),
    ...runControlRoutes(ctx, () => runner),
    // Last: `{ref}` spans slashes, so `commits/{ref}` must not shadow `commits/{ref}/check-runs`.
    ...gitDataRoutes(ctx),
  );
  const faults = new Faults(clock);
  faults.secondaryLimits = options.secondaryLimits ?? true;
  const oidc = await OidcIssuer.create(clock, () => url);
  const requestLog: RequestLogEntry[] = [];
  const setup = setupApi({ store, clock, bus, root, webhookSecret: options.webhookSecret });
  const { repoByFullName } = setup;
  const ci = new Ci(ctx, root);
  const runner = new Runner(ctx, root, oidc, () => url);
  // A head commit saying [skip ci] starts neither CI nor push / pull_request workflows.
  const skipped = (repo: Repo, sha: string) =>
    skipsWorkflows(store.git(repo).commitInfo(sha).message);
  ctx.triggers = {
    push: (repo, change, sender) => {
      if (!skipped(repo, change.after)) runner.onPush(repo, change, sender);
    },
    pullRequest: (pull, action, sender) => {
      const repo = store.repo(pull.repoId);
      if (skipped(repo, pull.headSha)) return;
      ci.start(repo, pull.headRef, pull.headSha, sender, "pull_request");
      runner.onPullRequest(pull, action, sender);
    },
  };
  ctx.onDispatch = (run) => runner.enqueue(run);
  const inspection = inspector({ store, render, deliveries, log: requestLog });

  const server: Server = await startServer(
    {
      store,
      clock,
      router,
      faults,
      oidc,
      log: requestLog,
      inspect: inspection.inspect,
      services: [
        new CacheService(runner.runtime, () => url),
        new ArtifactService(runner.runtime, () => url),
      ],
      git: {
        store,
        clock,
        pushed: (repo, before, principal) => {
          if (principal.kind === "anonymous" || principal.kind === "app") return;
          const changes = refChanges(before, store.git(repo).branches());
          afterPush(ctx, repo, changes, principal.user, startsWorkflows(principal));
        },
      },
    },
    options.port ?? 0,
  );
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("sandbox: no TCP address");
  url = `http://127.0.0.1:${address.port}`;
  Object.assign(render, { api: url, web: `${url}/_html` });

  const sandbox = {
    url,
    /** Base URL for GHE-style clients (Probot's GHE_HOST): the same API under /api/v3. */
    gheUrl: `${url}/api/v3`,
    clock,
    oidc,
    oauth,
    store,
    ci,
    runner,
    /** Simulated cron: `tick()` fires the `on: schedule` workflows due at the clock's minute. */
    cron: { tick: (opts: { force?: boolean } = {}) => runner.cronTick(opts.force === true) },
    routes: router.routes as readonly Route[],
    /** Every webhook payload emitted, in order (for fidelity tests). */
    emitted: bus.emitted,
    faults: {
      route: (fault: RouteFault) => faults.add(fault),
      webhook: (fault: WebhookFault) => deliveries.addFault(fault),
      clear: () => {
        faults.clear();
        deliveries.clearFaults();
      },
      /** false: dispatches answer 204 even with `return_run_details`, as on GHES. */
      set dispatchRunDetails(on: boolean) {
        ctx.dispatchRunDetails = on;
      },
      get dispatchRunDetails() {
        return ctx.dispatchRunDetails !== false;
      },
      /** true: a merge the base's rulesets do not allow is refused (405), as on GitHub. */
      set enforceRulesetsAtMerge(on: boolean) {
        ctx.enforceRulesetsAtMerge = on;
      },
      get enforceRulesetsAtMerge() {
        return ctx.enforceRulesetsAtMerge === true;
      },
      set secondaryLimits(on: boolean) {
        faults.secondaryLimits = on;
      },
      get secondaryLimits() {
        return faults.secondaryLimits;
      },
    },
    setWebhookUrl(next: string | null) {
      bus.config.webhookUrl = next;
    },
    ...setup,
    ...lifecycleApi({ store, bus, user: setup.createUser, repoByFullName }),
    /** The clone URL of a repository (git smart HTTP; Basic auth `x-access-token:<token>`). */
    cloneUrl: (fullName: string, token?: string) => {
      const base = `${url}/${store.fullName(repoByFullName(fullName))}.git`;
      return token ? base.replace("http://", `http://x-access-token:${token}@`) : base;
    },
    /** Path of a repository's bare git directory (read it with git; write through HTTP). */
    gitDir: (fullName: string) => repoByFullName(fullName).gitDir,
    /**
     * Commits files to a branch, as `pusher` would push them: `push` webhook, `synchronize` on
     * open PRs, CI and `on: push` workflows. A new branch starts at `base` (the commit the
     * change was made on, as a clone's push carries it), else at the default branch's head.
     */
    push(
      fullName: string,
      branch: string,
      files: Record<string, string | null>,
      pusher?: string,
      message = "sandbox push",
      base?: string,
    ): string {
      const repo = repoByFullName(fullName);
      const sender = setup.createUser(pusher ?? store.user(repo.ownerId).login);
      const git = store.git(repo);
      const before = git.branches();
      if (base !== undefined && !before.has(branch) && git.resolve(base) === null) {
        throw new Error(`sandbox.push: base ${base} is not a commit of ${fullName}`);
      }
      const parent = before.get(branch) ?? base ?? before.get(repo.defaultBranch) ?? null;
      const who = {
        name: sender.login,
        email: `${sender.id}+${sender.login}@users.noreply.github.com`,
        at: clock.now(),
      };
      const sha = git.commit(branch, files, message, who, parent);
      afterPush(ctx, repo, refChanges(before, git.branches()), sender, true);
      return sha;
    },
    /** Tags a commit (default: the default branch's head), as `git push origin <tag>` would. */
    tag(fullName: string, tag: string, ref?: string): string {
      const repo = repoByFullName(fullName);
      const git = store.git(repo);
      const sha = git.resolve(ref ?? `refs/heads/${repo.defaultBranch}`);
      if (!sha) throw new Error(`sandbox.tag: ${ref} is not a commit of ${fullName}`);
      git.run(["update-ref", `refs/tags/${tag}`, sha]);
      return sha;
    },
    /** Forces a PR to conflict (mergeable false, `dirty`) whatever git says, or lifts it. */
    setConflict(fullName: string, number: number, conflicting: boolean) {
      const pull = store.pull(repoByFullName(fullName).id, number);
      pull.conflicting = conflicting;
      pull.mergeable = null;
    },
    workflows: (fullName: string) => workflowsOf(ctx, repoByFullName(fullName)),
    /** Moves a run on by hand (for runs the runner does not execute: `runner.enabled = false`). */
    updateRun(
      runId: number,
      status: "in_progress" | "completed",
      conclusion: string | null = null,
    ): WorkflowRun {
      const run = store.workflowRuns.get(runId);
      if (!run) throw new Error(`sandbox: no run ${runId}`);
      run.status = status;
      run.conclusion = status === "completed" ? (conclusion ?? "success") : null;
      run.updatedAt = clock.now();
      announceRun(ctx, run, status, store.user(run.actorId));
      return run;
    },
    /** Called for every dispatched run, besides the runner. */
    onDispatch(fn: (run: WorkflowRun) => void) {
      ctx.onDispatch = (run) => {
        fn(run);
        runner.enqueue(run);
      };
    },
    // Inspection.
    requests: (): readonly RequestLogEntry[] => requestLog,
    unsupported: () => requestLog.filter((r) => r.unsupported),
    contentCreating: () => requestLog.filter((r) => r.contentCreating && r.status < 400).length,
    contentCounts: () => faults.contentCounts(),
    issue: inspection.issue,
    run: inspection.run,
    pull: (fullName: string, number: number) =>
      renderPull(render, store.pull(repoByFullName(fullName).id, number)),
    deliveries: () => deliveries.all,
    /** Waits until every webhook queued so far has been attempted. */
    settle: () => deliveries.settle(),
    /** Waits for CI and workflow runs in flight, then for their webhooks. */
    async idle(): Promise<void> {
      await ci.idle();
      await runner.idle();
      await ci.idle();
      await deliveries.settle();
    },
    async stop(): Promise<void> {
      runner.cancelAll();
      await runner.idle();
      await ci.idle();
      await deliveries.settle();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      root.dispose();
    },
  };
  return sandbox;
}

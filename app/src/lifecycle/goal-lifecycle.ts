import { pauseGoal, refreshProjections, renameRepo, stopGoal } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { type Step, withoutEffects } from "../intake/chain-transitions.ts";
import { transitionContext } from "../intake/goal-context.ts";
import type { IssuesEvent } from "../issues/issue-payloads.ts";
import { acceptedMarker, UNAVAILABLE } from "../outbox/checks-refusal.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import type { InstallationEvent, RepositoryEvent } from "./lifecycle-payloads.ts";

const SUSPENDED = "the LoopX app's installation was suspended";

/**
 * Applies one transition to each goal, as the system. One delivery may touch many goals and
 * a delivery is marked processed once, so these are not tied to it: a crash half-way
 * replays the delivery, and goals already moved refuse (stopped twice is still stopped).
 * `silent`: the goal's GitHub writes are dropped, because nothing can be written any more.
 */
async function eachGoal(
  deps: AppDeps,
  goalIds: readonly string[],
  reason: string,
  step: Step,
  opts: { silent: boolean },
): Promise<number> {
  const actor = { kind: "system" as const, reason };
  const transition = opts.silent ? withoutEffects(step) : step;
  let moved = 0;
  for (const id of goalIds) {
    const r = await deps.store.apply(id, (s, now) =>
      transition(s, transitionContext(deps, actor, now)),
    );
    if (r.ok) moved += 1;
  }
  return moved;
}

const stop =
  (reason: string): Step =>
  (s, ctx) =>
    stopGoal(s, { reason }, ctx);

/** `installation.deleted|suspend|unsuspend|new_permissions_accepted`. */
export async function installationChanged(
  deps: AppDeps,
  _delivery: Delivery,
  e: InstallationEvent,
): Promise<Outcome> {
  const ids = await deps.store.goalIdsByInstallation(e.installation.id);
  switch (e.action) {
    case "deleted": {
      // Uninstalled: no token can be minted any more, so nothing is written — not even a note.
      const reason = `the LoopX app was uninstalled by @${e.sender.login}`;
      const n = await eachGoal(deps, ids, reason, stop(reason), { silent: true });
      return ignored(`uninstalled: stopped ${n} goals`);
    }
    case "suspend": {
      const n = await eachGoal(
        deps,
        ids,
        SUSPENDED,
        (s, ctx) => pauseGoal(s, { reason: `${SUSPENDED} by @${e.sender.login}` }, ctx),
        { silent: true },
      );
      return ignored(`suspended: paused ${n} goals`);
    }
    case "unsuspend": {
      // Nothing resumes by itself: the goals say so and wait for a person.
      const paused: string[] = [];
      for (const id of ids) {
        const g = await deps.store.loadGoal(id);
        if (g?.goal.status === "paused" && g.goal.statusReason.startsWith(SUSPENDED))
          paused.push(id);
      }
      const n = await eachGoal(
        deps,
        paused,
        "the LoopX app's installation was unsuspended",
        (s, ctx) =>
          refreshProjections(
            s,
            {
              reason: "installation unsuspended",
              status: true,
              receipt: {
                key: `unsuspended:v${s.goal.version}`,
                text:
                  "The LoopX app can work here again, but this goal stays paused: nothing " +
                  "resumes by itself after a suspension. Comment `/loopx resume` to continue.",
              },
            },
            ctx,
          ),
        { silent: false },
      );
      return ignored(`unsuspended: told ${n} paused goals how to resume`);
    }
    case "new_permissions_accepted": {
      // A token the App minted before holds the old permissions; without a fresh one the
      // retry below is refused again and waits for the hour.
      try {
        await deps.renewToken?.(e.installation.id);
      } catch (error) {
        deps.log.warn(
          `installation ${e.installation.id}: could not drop its held token, check runs may wait for the hour: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      for (const id of ids) {
        const marker = await deps.store.getProjection(id, UNAVAILABLE);
        if (marker !== null)
          await deps.store.setProjection(id, UNAVAILABLE, {
            wroteBody: acceptedMarker(marker.wroteBody),
          });
      }
      const n = await eachGoal(
        deps,
        ids,
        `new permissions accepted by @${e.sender.login}`,
        (s, ctx) =>
          refreshProjections(s, { reason: "new permissions accepted", checks: true }, ctx),
        { silent: false },
      );
      return ignored(`new permissions accepted: ${n} goals write their checks again`);
    }
    default:
      return ignored(`installation.${e.action}: nothing to do`);
  }
}

/** `installation_repositories.removed`: the app lost those repositories; their goals stop. */
export async function repositoriesRemoved(
  deps: AppDeps,
  _delivery: Delivery,
  e: InstallationEvent,
): Promise<Outcome> {
  const repoIds = (e.repositories_removed ?? []).map((r) => r.id);
  const ids = await deps.store.goalIdsByRepos(repoIds);
  const reason = `the repository was removed from the LoopX installation by @${e.sender.login}`;
  const n = await eachGoal(deps, ids, reason, stop(reason), { silent: true });
  return ignored(`repositories removed: stopped ${n} goals`);
}

/** `repository.renamed|transferred` (goals follow), `archived|deleted` (goals stop). */
export async function repositoryChanged(
  deps: AppDeps,
  _delivery: Delivery,
  e: RepositoryEvent,
): Promise<Outcome> {
  const ids = await deps.store.goalIdsByRepos([e.repository.id]);
  const r = e.repository;
  switch (e.action) {
    case "renamed":
    case "transferred": {
      const to = { owner: r.owner.login, ownerId: r.owner.id, name: r.name };
      const n = await eachGoal(
        deps,
        ids,
        `repository ${e.action} to ${r.full_name}`,
        (s, ctx) => renameRepo(s, to, ctx),
        { silent: false },
      );
      return ignored(`repository ${e.action}: ${n} goals follow ${r.full_name}`);
    }
    case "archived":
    case "deleted": {
      // Archived repositories are read-only and deleted ones are gone: nothing to write to.
      const reason = `the repository was ${e.action} by @${e.sender.login}`;
      const n = await eachGoal(deps, ids, reason, stop(reason), { silent: true });
      return ignored(`repository ${e.action}: stopped ${n} goals`);
    }
    default:
      return ignored(`repository.${e.action}: nothing to do`);
  }
}

/** `issues.transferred|deleted` stop the goal (its issue is gone); `issues.locked` pauses it. */
export async function goalIssueGone(
  deps: AppDeps,
  _delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (!goal) return ignored("not a goal issue");
  const ids = [goal.goal.id];
  if (e.action === "locked") {
    // Locked: the sticky comment is edited in place (allowed to the app); no new comments.
    const reason = `the issue was locked by @${e.sender.login}; unlock it and comment \`/loopx resume\``;
    const n = await eachGoal(deps, ids, reason, (s, ctx) => pauseGoal(s, { reason }, ctx), {
      silent: false,
    });
    return ignored(`issue locked: paused ${n} goals`);
  }
  const reason = `the issue was ${e.action} by @${e.sender.login}`;
  const n = await eachGoal(deps, ids, reason, stop(reason), { silent: true });
  return ignored(`issue ${e.action}: stopped ${n} goals`);
}

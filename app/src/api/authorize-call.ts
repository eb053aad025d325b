import type { GitHubAppPort } from "@loopx/github";
import type { AppDeps } from "../deps.ts";
import {
  DEFAULT_CONFIG,
  type RepoFacts,
  type RepoFactsCache,
  type RepoKey,
} from "../repo-facts.ts";
import type { TokenAdmission } from "./admit-token.ts";
import { forbidden } from "./api-failure.ts";
import type { TickApiSettings } from "./settings.ts";
import type { ActionsClaims, OidcVerifier } from "./verify-oidc.ts";

/** What the tick API needs besides the app's own deps: the App-identity GitHub verbs. */
export interface TickApiDeps extends AppDeps {
  appGitHub: GitHubAppPort;
}

/** Everything one tick API request is served with; built once by createTickApi. */
export interface TickApiContext {
  deps: TickApiDeps;
  settings: TickApiSettings;
  verifier: OidcVerifier;
  /** The event, rate and one-use checks every verified token passes before any query. */
  admission: TokenAdmission;
  facts: RepoFactsCache;
  now: () => Date;
  /** Called after a transition committed: it queued outbox writes (kick the outbox). */
  committed: () => void;
}

/** A goal's repository as the checks need it. */
export interface GoalRepo extends RepoKey {
  ownerId: number;
}

/** `workflow_ref` the caller must have: the given workflow file on the default branch. */
function expectedRef(claims: ActionsClaims, file: string, defaultBranch: string): string {
  return `${claims.repository}/.github/workflows/${file}@refs/heads/${defaultBranch}`;
}

/**
 * Whether `job_workflow_ref` is allowed. A ref pinned to a bare SHA must be listed exactly:
 * GitHub resolves a fork's commit under its parent, so no pattern may stand for SHAs.
 */
export function allowListed(ref: string, allowed: readonly string[]): boolean {
  const pinned = /@[0-9a-f]{40}$/.test(ref);
  return allowed.some((a) =>
    a.endsWith("*") && !pinned ? ref.startsWith(a.slice(0, -1)) : ref === a,
  );
}

/**
 * The checks a call passes once its token was admitted (event, rate, one use: see
 * admit-token.ts) and the goal it names is loaded: the repository's numeric ids, then the
 * calling workflow (the tick workflow on the default branch, delegating at most to an
 * allow-listed reusable workflow). Nothing about the goal is written unless all passed.
 */
export async function authorizeCall(
  ctx: TickApiContext,
  claims: ActionsClaims,
  repo: GoalRepo,
  purpose: "tick" | "wake",
): Promise<RepoFacts> {
  if (claims.repository_id !== repo.repoId || claims.repository_owner_id !== repo.ownerId) {
    throw forbidden(
      `This token is for repository id ${claims.repository_id} (owner id ${claims.repository_owner_id}), not the goal's repository ${repo.owner}/${repo.name}. A repository with the same name is not the same repository.`,
    );
  }
  const facts = await ctx.facts.get(repo);
  const tickFile = facts.config?.tickWorkflow ?? DEFAULT_CONFIG.tickWorkflow;
  const files = purpose === "wake" ? [tickFile, ...ctx.settings.wakeWorkflowFiles] : [tickFile];
  const callers = files.map((f) => expectedRef(claims, f, facts.defaultBranch));
  if (!callers.includes(claims.workflow_ref)) {
    throw forbidden(
      `The calling workflow is ${claims.workflow_ref}; LoopX accepts only ${callers.join(" or ")} — the tick workflow named in .github/loopx.yml (tickWorkflow), run from the default branch.`,
    );
  }
  const job = claims.job_workflow_ref;
  if (job !== claims.workflow_ref && !allowListed(job, ctx.settings.allowedWorkflowRefs)) {
    throw forbidden(
      `The job runs workflow ${job}, which is not the repository's tick workflow nor a LoopX workflow this App allows (${ctx.settings.allowedWorkflowRefs.join(", ") || "none"}). Call the reusable workflow LoopX ships, or ask the App's operator to allow this ref.`,
    );
  }
  return facts;
}

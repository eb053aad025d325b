/**
 * One CI rule per sandbox, dispatching by repository. The sandbox's CI is global
 * (`sandbox.ci.rule` serves every repository), while each cell of the bench is one repository
 * with its own task and its own flaky start; several cells may share a sandbox.
 */
import type {
  CiConclusion,
  CiContext,
  Sandbox,
  CiVerdict as SandboxVerdict,
} from "../../../packages/sandbox/src/index.ts";
import { CI_CHECK } from "./task-ci.ts";

/** What a repository's CI says about one check run, with the output a job's log would read. */
export interface CiVerdict {
  conclusion: CiConclusion;
  title: string;
  summary: string;
}

export type RepoCi = (c: CiContext) => Promise<CiVerdict>;

interface Registry {
  rule: NonNullable<Sandbox["ci"]["rule"]>;
  repos: Map<string, RepoCi>;
}
const registries = new WeakMap<Sandbox, Registry>();

/**
 * Serves `repo`'s check runs with `ci` from now on; returns the call that stops it. Other
 * repositories keep the rule the sandbox had (or conclude `neutral` when it had none: a rule,
 * once set, turns the sandbox's CI on for every repository).
 */
export function installRepoCi(sandbox: Sandbox, repo: string, ci: RepoCi): () => void {
  if (sandbox.ci.command) {
    throw new Error(
      "sandbox.ci.command is set, and a CI rule would shadow it for every repository: give the bench its own sandbox, or unset ci.command before starting a cell world",
    );
  }
  if (!sandbox.ci.checks.includes(CI_CHECK)) {
    throw new Error(
      `sandbox.ci.checks is ${JSON.stringify(sandbox.ci.checks)}: the bench's CI is the check named "${CI_CHECK}"; add it`,
    );
  }
  let registry = registries.get(sandbox);
  if (registry && sandbox.ci.rule !== registry.rule) {
    throw new Error(
      "sandbox.ci.rule was replaced after a cell world installed its CI: set any other rule before starting cell worlds",
    );
  }
  if (!registry) {
    const previous = sandbox.ci.rule;
    const repos = new Map<string, RepoCi>();
    const rule = async (c: CiContext): Promise<SandboxVerdict> => {
      const own = repos.get(c.repo.toLowerCase());
      if (!own) return previous ? previous(c) : "neutral";
      // The output goes with the verdict: a flake must say it was one, as a job's log would.
      return own(c);
    };
    registry = { rule, repos };
    registries.set(sandbox, registry);
    sandbox.ci.rule = rule;
  }
  const key = repo.toLowerCase();
  if (registry.repos.has(key)) {
    throw new Error(`${repo}: a cell world already runs its CI; close that world first`);
  }
  registry.repos.set(key, ci);
  const repos = registry.repos;
  return () => {
    if (repos.get(key) === ci) repos.delete(key);
  };
}

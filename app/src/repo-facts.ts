import { type LoopxConfig, LoopxConfig as LoopxConfigSchema } from "@loopx/github";
import type { AppDeps } from "./deps.ts";
import { loadRepoConfig } from "./repo-config.ts";

export interface RepoFacts {
  defaultBranch: string;
  /** `.github/loopx.yml`, or null when it is invalid (the goal is paused and says why). */
  config: LoopxConfig | null;
}

export interface RepoKey {
  installationId: number;
  repoId: number;
  owner: string;
  name: string;
}

export interface RepoFactsCache {
  get(repo: RepoKey): Promise<RepoFacts>;
}

/** What the defaults make of a missing or invalid file: the tick workflow's default name. */
export const DEFAULT_CONFIG: LoopxConfig = LoopxConfigSchema.parse({});

/**
 * A repository's default branch and `.github/loopx.yml`, kept for `ttlMs` so a wait tick
 * makes no GitHub request at all once the repository has been seen (the first ask after a
 * start reads them: one token, one config read, one repository read).
 */
export function createRepoFactsCache(
  deps: Pick<AppDeps, "readsFor">,
  ttlMs: number,
  now: () => number = Date.now,
): RepoFactsCache {
  const cache = new Map<number, { at: number; facts: Promise<RepoFacts> }>();
  return {
    get(repo) {
      const hit = cache.get(repo.repoId);
      if (hit && now() - hit.at < ttlMs) return hit.facts;
      const facts = (async (): Promise<RepoFacts> => {
        const port = await deps.readsFor(repo.installationId);
        const name = { owner: repo.owner, repo: repo.name };
        const [defaultBranch, config] = await Promise.all([
          port.defaultBranch(name),
          loadRepoConfig(port, name),
        ]);
        return { defaultBranch, config: config.ok ? config.config : null };
      })();
      cache.set(repo.repoId, { at: now(), facts });
      // A failed read is not cached: the next call tries GitHub again.
      facts.catch(() => {
        if (cache.get(repo.repoId)?.facts === facts) cache.delete(repo.repoId);
      });
      return facts;
    },
  };
}

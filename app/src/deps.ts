import type { GitHubPort, GitHubReads } from "@loopx/github";
import type { Store } from "@loopx/store";

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/**
 * What handlers and intake planners get, passed in (tests wire the sandbox; production wires
 * Probot): GitHub to read, never to write. What they decide reaches GitHub as outbox rows,
 * committed with the state they describe and written by the outbox worker afterwards.
 */
export interface AppDeps {
  store: Store;
  /** The read-only GitHub port for one installation (an installation token behind it). */
  readsFor(installationId: number): Promise<GitHubReads>;
  /** Where links point (https://github.com, or the sandbox). */
  serverUrl: string;
  /**
   * The dashboard's public root (…/loopx) when it is on and its address is known: the
   * checklist links a goal's page for the todos it does not list. Null: it points to
   * `loopx status` instead.
   */
  dashboardUrl?: string | null;
  log: Logger;
  newId: () => string;
  /** The kernel's waits after stalled ticks; its own ladder when absent (see TransitionContext). */
  backoffLadderMinutes?: readonly number[];
  /**
   * Mints a fresh installation token in place of the one the App holds: after an owner
   * accepts new permissions, a token minted before keeps the old ones until it expires.
   * It writes nothing on GitHub. Absent: the held token ages out by itself within the hour.
   */
  renewToken?(installationId: number): Promise<void>;
}

/** The outbox worker's deps: the writing ports too. Nothing else is given them. */
export interface WriterDeps extends AppDeps {
  /** The GitHub port for one installation, writes from LoopX's own content budget. */
  portFor(installationId: number): Promise<GitHubPort>;
  /**
   * The same, for replying to someone without write access: what it creates comes from the
   * outsiders' small allowance (per person per repository, a ceiling per installation),
   * never from the budget LoopX's own comments need. Over it, the write is refused unsent.
   */
  outsiderPortFor(
    installationId: number,
    to: { repoId: number; login: string },
  ): Promise<GitHubPort>;
}

/** The intake's view of the deps: the writing ports are not on the object at all. */
export function intakeDeps(deps: AppDeps): AppDeps {
  const { store, readsFor, serverUrl, log, newId, renewToken, backoffLadderMinutes } = deps;
  return {
    store,
    readsFor,
    serverUrl,
    log,
    newId,
    ...(renewToken ? { renewToken } : {}),
    ...(backoffLadderMinutes ? { backoffLadderMinutes } : {}),
  };
}

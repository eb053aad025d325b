import type { GitHubPort } from "@loopx/github";
import type { Store } from "@loopx/store";

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** What handlers and workers need, passed in (tests wire the sandbox; production wires Probot). */
export interface AppDeps {
  store: Store;
  /** The GitHub port for one installation (an installation token behind it). */
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
  /** Where links point (https://github.com, or the sandbox). */
  serverUrl: string;
  log: Logger;
  newId: () => string;
}

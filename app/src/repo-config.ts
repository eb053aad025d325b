import { type GitHubReads, type LoopxConfig, parseConfig, type RepoName } from "@loopx/github";
import { ConfigUnreadable } from "./github/config-unreadable.ts";

export type RepoConfig =
  | { ok: true; config: LoopxConfig }
  | { ok: false; errors: { path: string; message: string }[] };

/** `.github/loopx.yml`, validated. An invalid file is reported, never replaced by defaults. */
export async function loadRepoConfig(port: GitHubReads, repo: RepoName): Promise<RepoConfig> {
  let raw: unknown;
  try {
    raw = await port.readConfig(repo);
  } catch (error) {
    // Not YAML at all: as invalid as a wrong field, and as permanent — report, do not retry.
    if (error instanceof ConfigUnreadable) {
      return { ok: false, errors: [{ path: "(file)", message: error.message }] };
    }
    throw error;
  }
  return parseConfig(raw);
}

export function describeConfigErrors(errors: { path: string; message: string }[]): string {
  return errors.map((e) => `- \`${e.path || "(root)"}\`: ${e.message}`).join("\n");
}

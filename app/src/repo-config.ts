import { type GitHubPort, type LoopxConfig, parseConfig, type RepoName } from "@loopx/github";

export type RepoConfig =
  | { ok: true; config: LoopxConfig }
  | { ok: false; errors: { path: string; message: string }[] };

/** `.github/loopx.yml`, validated. An invalid file is reported, never replaced by defaults. */
export async function loadRepoConfig(port: GitHubPort, repo: RepoName): Promise<RepoConfig> {
  return parseConfig(await port.readConfig(repo));
}

export function describeConfigErrors(errors: { path: string; message: string }[]): string {
  return errors.map((e) => `- \`${e.path || "(root)"}\`: ${e.message}`).join("\n");
}

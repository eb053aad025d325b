import type { Actor } from "@loopx/core";
import type { GitHubReads, RepoName } from "@loopx/github";

const WRITE = new Set(["admin", "maintain", "write"]);

export type HumanActor = Extract<Actor, { kind: "human" }>;

/** An App or a bot account: never a person whose act carries authority. */
export const isBot = (who: { login: string; type: string }): boolean =>
  who.type === "Bot" || who.login.endsWith("[bot]");

/**
 * A person's authority, read from the collaborators API at the time of the act — never from
 * `author_association`, which is a snapshot and counts organisation members without write
 * access. Bots (the app itself included) never carry authority, whatever their permission.
 * Being listed in `owners:` grants nothing by itself: an owner is asked, and acts only
 * while they have write access, like everyone else.
 */
export async function actorFor(
  port: GitHubReads,
  repo: RepoName,
  sender: { login: string; type: string },
): Promise<HumanActor> {
  if (isBot(sender)) {
    return { kind: "human", login: sender.login, trusted: false };
  }
  const permission = await port.permission(repo, sender.login);
  return { kind: "human", login: sender.login, trusted: WRITE.has(permission) };
}

import { type Effect, occasionWaits } from "@loopx/core";
import { escapeTags, neutralize, remindDelayMs } from "@loopx/github";
import { loadRepoConfig } from "../repo-config.ts";
import { EffectDeferred } from "./cancel-run.ts";
import { keyedComment } from "./keyed-comment.ts";
import type { EffectContext } from "./perform-effect.ts";

type Notify = Extract<Effect, { kind: "notify" }>;

const DEFAULT_REMIND_MS = 24 * 3_600_000;
const WRITERS = new Set(["admin", "maintain", "write"]);

/** Breaks every @-mention in text LoopX did not write the mentions of: only owners are pinged. */
const unmention = (text: string) => text.replaceAll("@", "@\u200b");

/**
 * Tells the goal's owners, in one new comment that mentions them, that a person is needed
 * (GitHub notifies nobody of an edit, so the status comment cannot do it). Who is mentioned
 * is decided now: the owners who have write access at the time of the post. A reminder waits
 * for `notify.remind` after the occasion and is posted once, only if it still waits; neither
 * is posted about an occasion that has ended. The comment is keyed, so a retry posts it once,
 * and the issue's comments are listed only when an earlier try may have posted it.
 */
export async function postNotification(ctx: EffectContext, effect: Notify): Promise<void> {
  const { port, state, now } = ctx;
  const { serverUrl } = ctx.deps;
  const { occasion } = effect;
  if (!occasionWaits(state, occasion)) return;
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  if (effect.reminder) {
    const config = await loadRepoConfig(port, repo);
    const delay = config.ok ? remindDelayMs(config.config) : DEFAULT_REMIND_MS;
    if (delay === null) return;
    const due = new Date(occasion.at.getTime() + delay);
    if (now.getTime() < due.getTime()) {
      throw new EffectDeferred(
        due,
        `the reminder about ${occasion.key} is due at ${due.toISOString()}`,
      );
    }
  }
  const issueUrl = `${serverUrl}/${repo.owner}/${repo.repo}/issues/${state.goal.issue.number}`;
  if (occasion.kind === "digest") {
    // Not a request: nobody is pinged (the issue's subscribers are told of a new comment),
    // and the titles and evidence in it are the agent's words, neutralized.
    const body = `**LoopX digest.** ${escapeTags(neutralize(occasion.text))}\n\nGoal: ${issueUrl}`;
    await keyedComment(ctx, { ...repo, number: state.goal.issue.number }, effect.key, body);
    return;
  }
  const writers: string[] = [];
  for (const login of state.goal.owners) {
    if (WRITERS.has(await port.permission(repo, login))) writers.push(login);
  }
  const who =
    writers.length > 0
      ? writers.map((w) => `@${w}`).join(" ")
      : `None of this goal's owners (${state.goal.owners.map(unmention).join(", ")}) has write access now; anyone with write access can answer.`;
  const lead = effect.reminder ? "**Reminder — LoopX still needs you.**" : "**LoopX needs you.**";
  const body = `${who} ${lead}\n\n${unmention(occasion.text)}\n\nGoal: ${issueUrl}`;
  await keyedComment(ctx, { ...repo, number: state.goal.issue.number }, effect.key, body);
}

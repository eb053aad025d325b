import { z } from "zod";
import { PrMonitor } from "../schemas/pr-monitor.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { begin, emit, isRefused, parseInput, refuse, requireTrusted } from "./kit.ts";

export const LinkPullRequestInput = z.object({
  number: z.number().int().positive(),
  headRef: z.string().min(1).max(255),
  headSha: z.string().regex(/^[0-9a-f]{7,64}$/),
  state: z.enum(["open", "closed", "merged"]),
});
export type LinkPullRequestInput = z.input<typeof LinkPullRequestInput>;

/**
 * A writer attaches a pull request LoopX did not open (`/loopx link #N`): the goal follows
 * it from now on. Its head is recorded as read from GitHub at the time of the link.
 */
export function linkPullRequest(
  state: GoalState,
  input: LinkPullRequestInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(LinkPullRequestInput, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "link pull requests");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  if (d.state.pullRequests.some((p) => p.number === parsed.number)) {
    return refuse("duplicate", `#${parsed.number} is already linked to this goal.`);
  }
  d.state.pullRequests.push({
    number: parsed.number,
    todo: null,
    headRef: parsed.headRef,
    headSha: parsed.headSha,
    state: parsed.state,
    monitor: PrMonitor.parse({}),
  });
  emit(d, "pull_request.linked", { pr: parsed.number, headSha: parsed.headSha });
  return commit(d);
}

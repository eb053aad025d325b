import { todoBranch } from "../build-brief.ts";
import { isPushedCommit } from "../pushed-commit.ts";
import type { Gate } from "../schemas/gate.ts";
import type { Draft } from "./kit.ts";
import { addEffect } from "./kit.ts";

/** The scope of the gate that holds a todo's first pull request back (`when: open_pr`). */
export const openPrScope = (todo: string) => `open_pr:${todo}`;

/**
 * An approved `open_pr:<todo>` gate opens the todo's PR at the latest head it pushed, keyed
 * like the request that was held, so a retried approval opens one PR.
 */
export function openHeldPullRequest(d: Draft, gate: Gate): void {
  for (const scope of gate.scopes) {
    const todo = /^open_pr:(T[1-9][0-9]*)$/.exec(scope)?.[1];
    if (todo === undefined) continue;
    const head = d.state.evidence.findLast((e) => e.todo === todo && isPushedCommit(e));
    if (!head?.sha) continue;
    const branch = todoBranch(d.state, todo);
    addEffect(d, {
      kind: "open_pull_request",
      key: `pr:${branch}:${head.sha.slice(0, 12)}`,
      todo,
      branch,
      headSha: head.sha,
    });
  }
}

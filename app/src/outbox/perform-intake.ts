import type { IntakeEffect } from "@loopx/core";
import type { OutboxItem } from "@loopx/store";
import { ContentBudgetExhausted } from "../content-budget.ts";
import type { WriterDeps } from "../deps.ts";

/**
 * Performs one of the intake's rows (a reply, a reaction, a restore), idempotently: a reply
 * is found by its key before another is written. Returns nothing; a failure that should be
 * retried throws, as for every outbox row.
 */
export async function performIntake(
  deps: WriterDeps,
  item: OutboxItem,
  effect: IntakeEffect,
  installationId: number,
): Promise<void> {
  const { issue } = effect;
  switch (effect.kind) {
    case "reply": {
      if (effect.lane === "loopx") {
        await (await deps.portFor(installationId)).ensureComment(issue, effect.key, effect.body);
        return;
      }
      // A stranger's burst ends in silence, never in LoopX's own budget: spent is done.
      try {
        const port = await deps.outsiderPortFor(installationId, effect.to);
        await port.ensureComment(issue, effect.key, effect.body);
      } catch (error) {
        if (!(error instanceof ContentBudgetExhausted)) throw error;
        deps.log.info(`no reply to ${effect.to.login}: the outsiders' reply allowance is spent`);
      }
      return;
    }
    case "react": {
      // An acknowledgement, not state: a refused reaction is dropped, never a dead letter.
      try {
        const port = await deps.portFor(installationId);
        await port.react(
          { owner: issue.owner, repo: issue.repo },
          effect.commentId,
          effect.content,
        );
      } catch (error) {
        deps.log.warn(
          `reacting ${effect.content} to comment ${effect.commentId}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return;
    }
    case "restore_body": {
      if (item.goalId === null) throw new Error(`${item.key}: a body restore needs its goal`);
      const port = await deps.portFor(installationId);
      const current = (await port.getIssue(issue)).body;
      if (current !== effect.expected) {
        deps.log.info(`#${issue.number} changed again before its restore: that edit stands`);
        return;
      }
      // Recorded first, as every body write is: the echo of this write is then known as ours.
      await deps.store.setProjection(item.goalId, "body", {
        readBody: current,
        wroteBody: effect.body,
        wroteIsCurrent: true,
      });
      await port.setIssueBody(issue, effect.body);
      deps.log.info(
        `restored text a person wrote on #${issue.number} while LoopX wrote the checklist`,
      );
      return;
    }
  }
}

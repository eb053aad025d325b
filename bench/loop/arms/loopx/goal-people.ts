/**
 * What the people do for LoopX's goals beyond reviewing and merging (the world's person does
 * that): the maintainer approves each open gate the App asked about on GitHub, and pushes each
 * change the App handed over as a patch (workflow files it may not push).
 */
import type { Store } from "@loopx/store";
import type { CellWorld } from "../../world/cell-world.ts";
import type { PersonAct } from "../../world/person-acts.ts";
import type { RepoRest } from "../../world/rest.ts";
import { askedKeys, patchHandedOver } from "./github-readings.ts";

export function goalPeople(o: {
  world: CellWorld;
  store: Store;
  maintainer: RepoRest;
  goals: readonly { issue: number; goalId: string }[];
  /** Answers per gate before the maintainer gives up on it. */
  answersPerGate: number;
}) {
  const { world, maintainer, goals } = o;
  const answers = new Map<string, { count: number; pending: Promise<PersonAct> | null }>();
  const patchesTaken = new Set<number>();
  return {
    /**
     * A gate bound to a pull request is left to the reviewer: LoopX counts a writer's
     * approving review of the head as its approval, so a second act for it would be a
     * person's wasted minutes.
     */
    async answerGates(): Promise<void> {
      for (const goal of goals) {
        const state = await o.store.loadGoal(goal.goalId);
        const open = (state?.gates ?? []).filter((g) => g.status === "open" && g.pr === null);
        if (open.length === 0) continue;
        const asked = await askedKeys(maintainer, goal.issue);
        for (const gate of open) {
          if (!asked.has(gate.key)) continue;
          const id = `${goal.issue}:${gate.key}`;
          const seen = answers.get(id) ?? { count: 0, pending: null };
          if (seen.pending || seen.count >= o.answersPerGate) continue;
          const act = world.person.comment(goal.issue, `/loopx approve ${gate.key}`);
          seen.count += 1;
          seen.pending = act.performed;
          void act.performed.then(() => {
            seen.pending = null;
          });
          answers.set(id, seen);
        }
      }
    },
    /** Once per comment, to the branch the comment names, as its commands say. */
    async pushPatches(): Promise<void> {
      for (const { issue } of goals) {
        for (const c of await maintainer.comments(issue)) {
          if (c.user?.login !== "loopx[bot]" || patchesTaken.has(c.id)) continue;
          const handed = patchHandedOver(c.body);
          if (!handed) continue;
          patchesTaken.add(c.id);
          world.person.pushPatch(handed.branch, handed.patch, issue);
        }
      }
    },
  };
}

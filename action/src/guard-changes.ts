import {
  matchesGlob,
  type PathRule,
  pathsHeldBy,
  UNDER_GITHUB,
  UNDER_WORKFLOWS,
} from "@loopx/core";

/** One entry of `git diff-tree -r -z --raw --no-renames`: both modes, so type changes show. */
export interface GuardedChange {
  path: string;
  oldMode: string;
  newMode: string;
  /** A added, D deleted, M modified, T type changed (file, symlink, gitlink). */
  status: string;
}

/** Parses raw diff output: `:old new oldsha newsha status\0path\0`, names exactly as stored. */
export function parseRawDiff(raw: string): GuardedChange[] {
  const fields = raw.split("\0");
  const changes: GuardedChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = /^:([0-7]{6}) ([0-7]{6}) [0-9a-f]+ [0-9a-f]+ ([A-Z])[0-9]*$/.exec(fields[i] ?? "");
    const path = fields[i + 1];
    if (!meta?.[1] || !meta[2] || !meta[3] || path === undefined) {
      throw new Error(
        `unexpected git diff-tree output near ${JSON.stringify((fields[i] ?? "").slice(0, 80))}`,
      );
    }
    changes.push({ oldMode: meta[1], newMode: meta[2], status: meta[3], path });
  }
  return changes;
}

export interface Guarded {
  /** Changes under .github/ when no gate approved write:.github. */
  github: GuardedChange[];
  /** Changes matching a path rule whose scopes no gate approved. */
  rules: { change: GuardedChange; scopes: readonly string[] }[];
  /**
   * Workflow files changed, gate or no gate: the App's token cannot push them (it never has
   * the `workflows` permission), so only a person can.
   */
  workflows: GuardedChange[];
  /** Changes to paths another running todo declared, with that todo and its globs. */
  held: { change: GuardedChange; todo: string; globs: readonly string[] }[];
}

/** Another running todo of the goal and the paths it declared it touches. */
export interface HeldPaths {
  todo: string;
  paths: readonly string[];
}

/**
 * What a slice's commit may not carry to GitHub. Every kind of change counts: additions,
 * modifications, deletions, mode and type changes (a symlink or a gitlink included).
 */
export function guardChanges(
  changes: GuardedChange[],
  o: {
    allowWorkflowPaths: boolean;
    protectedPaths: readonly PathRule[];
    heldPaths?: readonly HeldPaths[];
  },
): Guarded {
  const github = o.allowWorkflowPaths ? [] : changes.filter((c) => UNDER_GITHUB.test(c.path));
  const workflows = changes.filter((c) => UNDER_WORKFLOWS.test(c.path));
  const rules = changes.flatMap((change) =>
    o.protectedPaths
      .filter((rule) => rule.paths.some((glob) => matchesGlob(change.path, glob)))
      .map((rule) => ({ change, scopes: rule.scopes })),
  );
  const others = o.heldPaths ?? [];
  const byPath = new Map(changes.map((c) => [c.path, c]));
  const running = others.map((h) => ({ key: h.todo, paths: [...h.paths] }));
  const held = pathsHeldBy([...byPath.keys()], running).flatMap(({ path, todo }) => {
    const change = byPath.get(path);
    const globs = others.find((h) => h.todo === todo)?.paths ?? [];
    return change ? [{ change, todo, globs }] : [];
  });
  return { github, rules, workflows, held };
}

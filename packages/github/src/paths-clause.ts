import { PathGlob } from "@loopx/core";
import { neutralizeInline } from "./neutralize.ts";

/** The most globs one todo declares (the kernel's limit). */
const MAX_PATHS = 20;

export type PathsClause =
  | { ok: true; words: string[]; paths: string[] }
  | { ok: false; message: string };

const KEYWORD = /^paths:/i;

/**
 * Splits a todo's `paths: docs/**, README.md` clause off its words. The clause starts at the
 * last word reading `paths:` and runs to the end or to the next `--` flag; its globs are
 * separated by commas or spaces and may be in backticks (Markdown would otherwise read `**`
 * as bold). Without the clause the words come back as they were, with no paths. A glob that
 * is not relative to the repository root is refused with what would work: the todo would
 * otherwise run beside others while touching what it never declared.
 */
export function takePathsClause(words: readonly string[]): PathsClause {
  let at = -1;
  for (let i = words.length - 1; i >= 0; i--) {
    if (KEYWORD.test(words[i] ?? "")) {
      at = i;
      break;
    }
  }
  if (at < 0) return { ok: true, words: [...words], paths: [] };
  let end = words.findIndex((w, i) => i > at && w.startsWith("--"));
  if (end < 0) end = words.length;
  const text = words.slice(at, end).join(" ").replace(KEYWORD, "");
  const globs = text
    .split(/[\s,]+/)
    .map((g) => g.replace(/^`+|`+$/g, ""))
    .filter(Boolean);
  if (globs.length === 0) {
    return {
      ok: false,
      message:
        "paths: names at least one path from the repository root, e.g. paths: docs/**, README.md",
    };
  }
  const paths: string[] = [];
  for (const glob of globs) {
    const problem = globProblem(glob);
    if (problem) return { ok: false, message: problem };
    if (!paths.includes(glob)) paths.push(glob);
  }
  if (paths.length > MAX_PATHS) {
    return { ok: false, message: `A todo declares at most ${MAX_PATHS} paths.` };
  }
  return { ok: true, words: [...words.slice(0, at), ...words.slice(end)], paths };
}

function globProblem(glob: string): string | null {
  const shown = neutralizeInline(glob, 60);
  const hint = "e.g. docs/**, src/api/*.ts or README.md";
  if (glob.startsWith("./")) {
    return `"${shown}" starts with ./: write paths from the repository root without it (${shown.slice(2)}), ${hint}.`;
  }
  if (PathGlob.safeParse(glob).success) return null;
  return `"${shown}" is not a path in this repository: write it from the repository root, without a leading / and without .., ${hint}.`;
}

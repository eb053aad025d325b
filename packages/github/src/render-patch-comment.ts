import { neutralize, ZWSP } from "./neutralize.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

/**
 * The change of a slice that only a person can push: it touches workflow files, which GitHub
 * refuses from a token without the `workflows` permission, which LoopX never asks for. The
 * patch is the agent's text, so it is neutralised like any other (zero-width spaces break
 * mentions and markers) and fenced longer than any run of backticks inside it; the comment
 * says how to strip those spaces, apply it on the todo's branch and push it, which is what
 * LoopX waits for before it opens the PR.
 */
export function renderPatchComment(p: {
  todo: string;
  branch: string;
  headSha: string;
  paths: string[];
  patch: string;
}): string {
  const body = neutralize(p.patch);
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const files = p.paths.map((f) => `\`${neutralize(f).replaceAll("`", "'")}\``).join(", ");
  const branch = p.branch.replaceAll("`", "'");
  const text = [
    `### LoopX ${p.todo}: a change only you can push`,
    "",
    `This slice changes workflow files (${files}), and GitHub refuses those from the LoopX App: its token never has the \`workflows\` permission. Nothing was pushed. Read the patch below (it is the agent's work); if you want it (commit \`${p.headSha.slice(0, 7)}\`), save it as \`slice.patch\` and push it to \`${branch}\`:`,
    "",
    "```sh",
    `git fetch origin && (git switch ${branch} || git switch -c ${branch} origin/HEAD)`,
    `perl -CSD -pe 's/\\x{${ZWSP.codePointAt(0)?.toString(16).toUpperCase()}}//g' slice.patch | git am`,
    `git push origin ${branch}`,
    "```",
    "",
    `LoopX opens ${p.todo}'s pull request once you push it. Until then ${p.todo} waits and nothing retries it; to give it up, \`/loopx todo drop ${p.todo}\`.`,
    "",
    "<details><summary>The patch</summary>",
    "",
    `${fence}diff`,
    body.replace(/\n$/, ""),
    fence,
    "",
    "</details>",
  ].join("\n");
  return truncateBody(text, GITHUB_BODY_LIMIT - 200);
}

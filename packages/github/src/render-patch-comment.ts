import { neutralize, ZWSP } from "./neutralize.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

/**
 * The change of a slice that only a person can push: an approved `write:.github` gate covers
 * workflow files, but GitHub refuses them from a token without the `workflows` permission,
 * which LoopX never asks for. The patch is the agent's text, so it is neutralised like any
 * other (zero-width spaces break mentions and markers) and fenced longer than any run of
 * backticks inside it; the comment says how to strip those spaces and apply it.
 */
export function renderPatchComment(p: {
  todo: string;
  headSha: string;
  paths: string[];
  patch: string;
}): string {
  const body = neutralize(p.patch);
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const files = p.paths.map((f) => `\`${neutralize(f).replaceAll("`", "'")}\``).join(", ");
  const text = [
    `### LoopX ${p.todo}: a change only you can push`,
    "",
    `The approved gate lets this goal change \`.github/\`, but the slice also changes workflow files (${files}), and GitHub refuses those from the LoopX App: its token never has the \`workflows\` permission. Nothing was pushed. To apply the change (commit \`${p.headSha.slice(0, 7)}\`) yourself, save the patch below as \`slice.patch\` on a checkout of the todo branch, then:`,
    "",
    "```sh",
    `perl -CSD -pe 's/\\x{${ZWSP.codePointAt(0)?.toString(16).toUpperCase()}}//g' slice.patch | git am`,
    "```",
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

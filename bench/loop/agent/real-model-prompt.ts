/**
 * The arm's prompt as the real model gets it: unchanged, followed by what the scripted agent
 * reads through its tools (the issue's comments, its pull request's checks and reviews), where
 * it works, and where it writes its claims.
 */
import type { ReadTools } from "./agent-types.ts";
import { RESULT_EXAMPLE } from "./real-model-result.ts";

export function realModelPrompt(o: {
  prompt: string;
  tools: ReadTools;
  workDir: string;
  resultPath: string;
}): string {
  const comments = o.tools.issueComments();
  const pull = o.tools.pull();
  const github = [
    "## What GitHub shows",
    "",
    "Comments on the issue:",
    ...(comments.length === 0 ? ["(none)"] : comments.map((c) => `- ${c.author}: ${c.body}`)),
    "",
    pull === null ? "Your pull request: none is open yet." : `Your pull request: #${pull.number}.`,
    ...(pull === null
      ? []
      : [
          "Checks on its latest commit:",
          ...(pull.checks.length === 0
            ? ["(none yet)"]
            : pull.checks.map((c) => `- ${c.name}: ${c.conclusion} ${c.summary}`.trimEnd())),
          "Reviews:",
          ...(pull.reviews.length === 0
            ? ["(none yet)"]
            : pull.reviews.map((r) => `- ${r.author}, ${r.state}: ${r.body}`.trimEnd())),
        ]),
  ];
  const run = [
    "## How this run works",
    "",
    `Work directory: ${o.workDir}`,
    `Result file: ${o.resultPath}`,
    "",
    "The work directory holds your branch's files. Change them there; what you leave in it is",
    "what gets committed and pushed for you, so do not run git and keep nothing elsewhere.",
    "",
    "Before you stop, write the result file: one JSON object of this shape,",
    "",
    JSON.stringify(RESULT_EXAMPLE, null, 2),
    "",
    "with finishedTodo true only when that todo is complete and its tests pass, allDone true",
    "only when the whole objective is done, proposedTodos the plan in order when you were asked",
    "for one (else work you found still needed), and questions what only a person can answer.",
    "Without a valid result file this run counts as having claimed nothing.",
  ];
  return [o.prompt.trimEnd(), "", ...github, "", ...run, ""].join("\n");
}

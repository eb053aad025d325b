/**
 * The prompt for one slice: the brief, then how to report. The result path is repeated here
 * because some harnesses do not show the agent its environment. Every field the result file
 * takes is shown, so an agent knows it can propose todos with the scopes they need and ask
 * for a gate instead of acting without authority.
 */
export function slicePrompt(briefText: string, resultPath: string, todo: string): string {
  return `${briefText}

## Reporting (LoopX)
Before you stop, write a JSON file at ${resultPath} (also given as $LOOPX_RESULT) shaped like:
{"outcome": "progress" | "completed" | "no_change" | "failed",
 "handoff": {"done": "what you did", "next": "what the next slice should do", "questions": []},
 "evidence": [{"kind": "test" | "commit" | "log" | "note" | "metric", "summary": "…"}],
 "continuation": null,
 "proposedTodos": [{"title": "…", "detail": "…", "requiredScopes": [], "paths": ["src/api/**"], "after": null}],
 "gateRequests": [{"question": "…", "scopes": ["deploy"]}],
 "revisions": null,
 "job": null}
Use "completed" only when ${todo} is done, and then set "continuation" to exactly one of
{"kind": "no_followup", "reason": "…"}, {"kind": "successor", "title": "…"} or {"kind": "goal_active"}.
"proposedTodos" are the todos you propose (a planning slice's whole result: at least one, or
the plan counts as a stall); give each the scopes it needs ("merge", "deploy:production",
"write:.github"): a todo needing a scope waits until a person approves a gate covering it.
Give each the "paths" (globs of the files it will touch) you can foresee: only todos whose
paths overlap no running todo's may run at the same time; a todo without paths runs alone.
A todo that needs another's code names it in "after" (its key, like "T3", or the title of an
open todo or of an earlier proposal in your list): it starts only once that one has merged.
A planning slice may also revise the open todos an agent proposed (never people's) with
"revisions": {"drop": ["T4"], "reword": [{"todo": "T5", "title": "…", "detail": "…"}],
"order": ["T6", "T5"]} (the listed todos take the places they hold, in this order).
"gateRequests" asks people for authority you lack (scopes like those); it blocks ${todo} and
the todos needing those scopes until a person with write access approves, and others go on.
"job": {"name": "…", "inputs": {…}} hands long work (a long test suite, a build) to a job the
repository lists under "jobs:" in .github/loopx.yml: LoopX dispatches its workflow on this branch,
${todo} waits for the run without spending, and its conclusion comes to the next slice. Report
"progress" with it, never "completed"; a job that is not listed is refused, with the listed names.
Checks named "LoopX / …" on a pull request are LoopX's own (gates, budget), not CI: no code
change turns them green; a person's decision does.
Progress counts only when the validation command passes and the work tree changed. Your own
words are not evidence: a todo is done on a passing validation, green checks on its pull
request or a person's tick. Leave your work in the working tree (committing is optional);
do not push.
`;
}

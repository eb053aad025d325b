/**
 * The prompt for one slice: the brief, then how to report. The result path is repeated here
 * because some harnesses do not show the agent its environment.
 */
export function slicePrompt(briefText: string, resultPath: string, todo: string): string {
  return `${briefText}

## Reporting (LoopX)
Before you stop, write a JSON file at ${resultPath} (also given as $LOOPX_RESULT) shaped like:
{"outcome": "progress" | "completed" | "no_change" | "failed",
 "handoff": {"done": "what you did", "next": "what the next slice should do", "questions": []},
 "evidence": [{"kind": "test" | "commit" | "log" | "note" | "metric", "summary": "…"}],
 "continuation": null,
 "proposedTodos": [{"title": "…", "detail": "…"}]}
Use "completed" only when ${todo} is done, and then set "continuation" to exactly one of
{"kind": "no_followup", "reason": "…"}, {"kind": "successor", "title": "…"} or {"kind": "goal_active"}.
Progress counts only when the validation command passes and the work tree changed. Leave your
work in the working tree (committing is optional); do not push.
`;
}

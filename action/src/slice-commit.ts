/**
 * The words GitHub reads in a head commit's message to skip workflows (see "Skipping workflow
 * runs"): a slice's commit must never keep the repository's CI from running on the agent's work.
 */
const SKIP_CI =
  /\[(?:skip ci|ci skip|no ci|skip actions|actions skip)\]|^skip-checks:\s*true\s*$/gim;

export function dropSkipCi(message: string): string {
  return message.replace(SKIP_CI, "").replace(/[ \t]+$/gm, "");
}

/**
 * LoopX's message for a slice's one commit. Both jobs build it from what LoopX issued (the
 * todo key and the tick id), never from the agent's words, so the report job's rebuilt
 * commit matches the agent job's when nothing moved in between.
 */
export function sliceMessage(todo: string, tickId: string): string {
  return dropSkipCi(`loopx: ${todo} work in progress\n\nLoopX-Tick: ${tickId}\n`);
}

import type { Handler } from "./on.ts";

/** Comments (`/loopx …` commands and notes) and pull request reviews that resolve gates. */
export const COMMAND_HANDLERS: Record<string, Handler> = {};

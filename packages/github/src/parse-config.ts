import { LoopxConfig } from "./loopx-config.ts";

/** One reason the config is invalid, at a dotted path (`budgets.goal.usd`, `gates.1.scopes`). */
export interface ConfigError {
  path: string;
  message: string;
}

export type ConfigResult = { ok: true; config: LoopxConfig } | { ok: false; errors: ConfigError[] };

/**
 * Validates `.github/loopx.yml` as loaded from YAML (Probot's config loader gives null when
 * the file is absent). An absent or empty file means the defaults; anything else is either
 * entirely valid or rejected with every problem and its path — never quietly replaced by
 * defaults, because a goal run under limits nobody chose is worse than a goal that waits.
 */
export function parseConfig(yamlObject: unknown): ConfigResult {
  if (yamlObject === null || yamlObject === undefined) {
    return { ok: true, config: LoopxConfig.parse({}) };
  }
  const parsed = LoopxConfig.safeParse(yamlObject);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((issue) => ({
      path: issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)",
      message: issue.message,
    })),
  };
}

import { redactSecrets } from "@loopx/core";

/** Redacts every string inside a JSON-like value (objects, arrays); other values pass through. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  return walk(value, secrets) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => walk(v, secrets));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, secrets)]));
  }
  return value;
}

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i;
const MIN_SECRET_LENGTH = 8;

/** The values to hide: those named by the caller, and env values whose names say secret. */
export function secretValues(explicit: readonly string[], env: Record<string, string>): string[] {
  const fromEnv = Object.entries(env)
    .filter(([name, v]) => SECRET_NAME.test(name) && v.length >= MIN_SECRET_LENGTH)
    .map(([, v]) => v);
  return [...new Set([...explicit, ...fromEnv])].filter((v) => v.length > 0);
}

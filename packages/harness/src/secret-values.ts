const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i;
const MIN_SECRET_LENGTH = 8;

/** The values to hide: those named by the caller, and env values whose names say secret. */
export function secretValues(explicit: readonly string[], env: Record<string, string>): string[] {
  const fromEnv = Object.entries(env)
    .filter(([name, v]) => SECRET_NAME.test(name) && v.length >= MIN_SECRET_LENGTH)
    .map(([, v]) => v);
  return [...new Set([...explicit, ...fromEnv])].filter((v) => v.length > 0);
}

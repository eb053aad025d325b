/**
 * Where the operator's surfaces listen: /metrics (every installation's spend) only behind a
 * bearer token or on a local port of its own. Checked with the other settings, each problem
 * naming what to set.
 */
export type OperationsVariable = "HOST" | "LOOPX_METRICS_TOKEN" | "LOOPX_METRICS_PORT";

export interface OperationsSettings {
  /** The address the App listens on. */
  host: string;
  metrics: {
    /** /metrics on the public port needs `Authorization: Bearer <token>`; null: not served there. */
    token: string | null;
    /** /healthz and /metrics, unauthenticated, on 127.0.0.1:<port>; null: no such port. */
    port: number | null;
  };
}

export function operationsSettings(
  raw: Partial<Record<OperationsVariable, string>>,
  problems: string[],
): OperationsSettings {
  const host = raw.HOST ?? "0.0.0.0";
  const token = raw.LOOPX_METRICS_TOKEN ?? null;
  if (token !== null && token.length < 32) {
    problems.push(
      "LOOPX_METRICS_TOKEN must be at least 32 characters (`openssl rand -base64 32`): it guards every installation's spend",
    );
  }
  let port: number | null = null;
  if (raw.LOOPX_METRICS_PORT !== undefined) {
    const n = Number(raw.LOOPX_METRICS_PORT);
    if (/^\d+$/.test(raw.LOOPX_METRICS_PORT) && n >= 1 && n <= 65535) port = n;
    else
      problems.push(
        "LOOPX_METRICS_PORT must be a TCP port (1–65535); /metrics listens there on 127.0.0.1",
      );
  }
  return { host, metrics: { token, port } };
}

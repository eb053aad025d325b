/**
 * Where the operator's surfaces listen: the demo dashboard (no sign-in) only on loopback, and
 * /metrics (every installation's spend) only behind a bearer token or on a local port of its
 * own. Checked with the other settings, each problem naming what to set.
 */
export type OperationsVariable =
  | "HOST"
  | "LOOPX_DASHBOARD"
  | "LOOPX_METRICS_TOKEN"
  | "LOOPX_METRICS_PORT";

export interface OperationsSettings {
  /** The address the App listens on (loopback by default for the demo dashboard). */
  host: string;
  metrics: {
    /** /metrics on the public port needs `Authorization: Bearer <token>`; null: not served there. */
    token: string | null;
    /** /healthz and /metrics, unauthenticated, on 127.0.0.1:<port>; null: no such port. */
    port: number | null;
  };
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/;

export function operationsSettings(
  raw: Partial<Record<OperationsVariable, string>>,
  problems: string[],
): OperationsSettings {
  const demo = raw.LOOPX_DASHBOARD === "demo";
  const host = raw.HOST ?? (demo ? "127.0.0.1" : "0.0.0.0");
  if (demo && !LOOPBACK.test(host)) {
    problems.push(
      `LOOPX_DASHBOARD=demo has no sign-in and comments as the demo's owner, so it listens on loopback only: set HOST=127.0.0.1 (not ${host}), or use LOOPX_DASHBOARD=readonly for a shared deployment`,
    );
  }
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

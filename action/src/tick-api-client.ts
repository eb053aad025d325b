import { ApiError } from "@loopx/core";
import { z } from "zod";

export interface TickApiOptions {
  /** The App's base URL (the `api-url` input). */
  baseUrl: string;
  /** A fresh OIDC ID token per call: the App accepts each token once. */
  idToken: () => Promise<string>;
  /** First retry delay; doubles per attempt. */
  retryBaseMs: number;
  /** Attempts in all, for network errors, 429 and 5xx. */
  attempts?: number;
  timeoutMs?: number;
}

/** The App refused the call (4xx other than 429): retrying would not help. */
export class TickApiRefusedError extends Error {
  override name = "TickApiRefusedError";
  constructor(
    message: string,
    readonly status: number,
    readonly code: ApiError["error"] | null,
  ) {
    super(message);
  }
}

/** The App could not be reached or kept failing (network, 429, 5xx) after every retry. */
export class TickApiUnavailableError extends Error {
  override name = "TickApiUnavailableError";
}

const HINTS: Partial<Record<ApiError["error"], string>> = {
  unauthenticated:
    "the App did not accept this job's OIDC token: check the `audience` input matches the App's configured audience",
  forbidden:
    "the App refused this workflow: it must be the tick workflow the App is configured with, on the default branch, started by workflow_dispatch or schedule, in a repository where the App is installed",
  not_found: "check the `goal` input names an issue labelled `loopx` in this repository",
  conflict: "this run attempt already claimed a tick, or the lease ended; re-run the workflow",
  invalid_request: "the action and the App may be on different versions of the tick API",
};

export interface TickApi {
  post<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>>;
}

/** POSTs to the tick API with a fresh OIDC token per attempt; parses answers with core's schemas. */
export function createTickApi(options: TickApiOptions): TickApi {
  const attempts = options.attempts ?? 4;
  const base = options.baseUrl.replace(/\/+$/, "");
  return {
    async post(path, body, schema) {
      const url = `${base}${path}`;
      let last = "";
      for (let attempt = 1; attempt <= attempts; attempt++) {
        if (attempt > 1) await sleep(options.retryBaseMs * 2 ** (attempt - 2));
        const token = await options.idToken();
        let response: Response;
        try {
          response = await fetch(url, {
            method: "POST",
            headers: {
              authorization: `Bearer ${token}`,
              "content-type": "application/json",
              accept: "application/json",
            },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
          });
        } catch (error) {
          last =
            error instanceof Error
              ? error.cause instanceof Error
                ? `${error.message}: ${error.cause.message}`
                : error.message
              : String(error);
          continue;
        }
        const text = await response.text();
        if (response.status === 429 || response.status >= 500) {
          last = `HTTP ${response.status} ${describeError(text)}`;
          const retryAfter = Number(response.headers.get("retry-after"));
          if (Number.isFinite(retryAfter) && retryAfter > 0 && attempt < attempts) {
            await sleep(Math.min(retryAfter, 30) * 1000);
          }
          continue;
        }
        if (!response.ok) {
          const parsed = ApiError.safeParse(safeJson(text));
          const code = parsed.success ? parsed.data.error : null;
          const hint = code ? HINTS[code] : undefined;
          throw new TickApiRefusedError(
            `The LoopX App refused POST ${path} (HTTP ${response.status}${code ? `, ${code}` : ""}): ${describeError(text)}${hint ? ` — ${hint}` : ""}`,
            response.status,
            code,
          );
        }
        const parsed = schema.safeParse(safeJson(text));
        if (!parsed.success) {
          throw new Error(
            `The LoopX App answered POST ${path} with a body this action does not understand (are the action and the App on the same version?):\n${z.prettifyError(parsed.error)}`,
            { cause: parsed.error },
          );
        }
        return parsed.data;
      }
      throw new TickApiUnavailableError(
        `The LoopX App at ${base} did not answer POST ${path} after ${attempts} attempts (last: ${last}). Check the \`api-url\` input and the App's health.`,
      );
    },
  };
}

function describeError(text: string): string {
  const parsed = ApiError.safeParse(safeJson(text));
  if (parsed.success) return parsed.data.message;
  return text.trim().slice(0, 300) || "(empty body)";
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

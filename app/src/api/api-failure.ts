import type { ApiError } from "@loopx/core";

/** A refusal on its way to the caller: an HTTP status and the contract's ApiError body. */
export class ApiFailure extends Error {
  override name = "ApiFailure";
  constructor(
    readonly status: number,
    readonly code: ApiError["error"],
    message: string,
    /** Seconds to wait before retrying (429, 503). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  get body(): ApiError {
    return { error: this.code, message: this.message };
  }
}

export const unauthenticated = (message: string) => new ApiFailure(401, "unauthenticated", message);
export const forbidden = (message: string) => new ApiFailure(403, "forbidden", message);
export const notFound = (message: string) => new ApiFailure(404, "not_found", message);
export const invalidRequest = (message: string) => new ApiFailure(400, "invalid_request", message);
export const conflict = (message: string) => new ApiFailure(409, "conflict", message);
export const unavailable = (message: string, retryAfterSeconds: number | null = 30) =>
  new ApiFailure(503, "unavailable", message, retryAfterSeconds);

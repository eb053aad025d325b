/** GitHub's error body: `{ message, documentation_url, status }` (status is a string). */
export interface GitHubErrorBody {
  message: string;
  documentation_url: string;
  status: string;
  errors?: Array<Record<string, unknown>>;
}

export const DOCS = "https://docs.github.com/rest";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: {
      errors?: Array<Record<string, unknown>>;
      headers?: Record<string, string>;
      documentationUrl?: string;
    } = {},
  ) {
    super(message);
  }

  body(): GitHubErrorBody {
    const body: GitHubErrorBody = {
      message: this.message,
      documentation_url: this.extra.documentationUrl ?? DOCS,
      status: String(this.status),
    };
    if (this.extra.errors) body.errors = this.extra.errors;
    return body;
  }
}

export const notFound = () => new HttpError(404, "Not Found");

/** 422 as GitHub sends it for a field that fails validation. */
export function validationFailed(
  resource: string,
  field: string,
  code = "invalid",
  message?: string,
) {
  const error: Record<string, unknown> = { resource, field, code };
  if (message) error.message = message;
  return new HttpError(422, "Validation Failed", { errors: [error] });
}

/** 422 for a rule about the resource as a whole: `code: "custom"` and no field, as GitHub sends it. */
export function customValidationFailed(resource: string, message: string) {
  return new HttpError(422, "Validation Failed", {
    errors: [{ resource, code: "custom", message }],
  });
}

import { z } from "zod";

/**
 * `.github/loopx.yml` exists but is not a YAML (or JSON) mapping at all. Not a GitHub failure:
 * retrying reads the same bytes, so it is reported like an invalid field, never retried.
 */
export class ConfigUnreadable extends Error {
  override name = "ConfigUnreadable";
}

// Probot's config loader (@probot/octokit-plugin-config) says so in its message, with the
// YAML parser's error as the cause.
const LoaderError = z.object({
  message: z.string().regex(/could not be parsed|is not an object|invalid JSON/),
  cause: z.object({ message: z.string() }).optional(),
});

/** The loader's parse failure as ConfigUnreadable (the parser's words kept); null for others. */
export function configUnreadable(error: unknown): ConfigUnreadable | null {
  const e = LoaderError.safeParse(error);
  if (!e.success) return null;
  const detail = (e.data.cause?.message ?? e.data.message).split("\n")[0] ?? "";
  return new ConfigUnreadable(`the file is not a YAML mapping: ${detail}`);
}

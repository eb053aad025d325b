import type { Probot } from "probot";

/** What @octokit/auth-app hands an auth `factory`: the options it was created with, `cache` among them. */
interface TokenCache {
  delete(key: string): unknown;
}

function cacheOf(options: unknown): TokenCache | null {
  if (typeof options !== "object" || options === null || !("cache" in options)) return null;
  const cache = options.cache;
  if (typeof cache !== "object" || cache === null || !("delete" in cache)) return null;
  const del = cache.delete;
  return typeof del === "function" ? { delete: (key) => del.call(cache, key) } : null;
}

/**
 * Drops the installation token Probot holds for one installation, so the next request mints
 * one: a token keeps the permissions it was minted with for its hour, and after an owner
 * accepts new ones the held token would be refused what they allow. Probot's installation
 * tokens live in one cache that @octokit/auth-app keys by installation id (no repositories or
 * permissions asked). `auth({ refresh: true })` would mint outside the App's base URL, so the
 * entry is dropped instead and minting stays where every request does it.
 */
export async function renewInstallationToken(
  probot: Probot,
  installationId: number,
): Promise<void> {
  const octokit = await probot.auth(installationId);
  const options: unknown = await octokit.auth({
    type: "installation",
    installationId,
    factory: (given: unknown) => given,
  });
  const cache = cacheOf(options);
  if (!cache) throw new Error("the installation token cache cannot be reached");
  cache.delete(String(installationId));
}

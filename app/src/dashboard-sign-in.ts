/**
 * The read-only dashboard's sign-in settings: GitHub App user authorization needs the App's
 * client credentials, a secret for session cookies and the public origin GitHub redirects
 * back to. Checked with the other settings, each missing piece named with what to set.
 */
type SignInVariable =
  | "GITHUB_CLIENT_ID"
  | "GITHUB_CLIENT_SECRET"
  | "LOOPX_SESSION_SECRET"
  | "LOOPX_PUBLIC_URL";

export interface DashboardSignIn {
  /** The App's client ID and a client secret (App settings → General). */
  clientId: string;
  clientSecret: string;
  /** Signs and encrypts session cookies (at least 32 characters). */
  sessionSecret: string;
  /** The dashboard's public origin; the OAuth callback is <publicUrl>/loopx/auth/callback. */
  publicUrl: string;
}

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Readonly needs sign-in: every missing piece is a problem naming its variable. */
export function dashboardSignIn(
  readonly: boolean,
  raw: Partial<Record<SignInVariable, string>>,
  problems: string[],
): DashboardSignIn | null {
  if (!readonly) return null;
  const need: Array<[SignInVariable, string]> = [
    ["GITHUB_CLIENT_ID", "the App's Client ID (App settings → General → About)"],
    [
      "GITHUB_CLIENT_SECRET",
      "a client secret of the App (App settings → General → Client secrets → Generate)",
    ],
    ["LOOPX_SESSION_SECRET", "a random secret of 32+ characters (`openssl rand -base64 32`)"],
    [
      "LOOPX_PUBLIC_URL",
      "the dashboard's public https origin, e.g. https://loopx.example.com; register <that>/loopx/auth/callback as the App's Callback URL",
    ],
  ];
  for (const [name, what] of need) {
    if (!raw[name]) {
      problems.push(
        `${name} is not set: LOOPX_DASHBOARD=readonly needs sign-in; set it to ${what}`,
      );
    }
  }
  let origin: string | null = null;
  try {
    const url = new URL(raw.LOOPX_PUBLIC_URL ?? "");
    origin = url.origin;
    if (url.protocol !== "https:" && !LOOPBACK_HOST.test(url.hostname)) {
      problems.push(
        "LOOPX_PUBLIC_URL must be https (session cookies carry GitHub sign-ins); plain http is accepted for localhost only",
      );
    }
    if (url.pathname.replace(/\/+$/, "") !== "" || url.search) {
      problems.push(
        "LOOPX_PUBLIC_URL must be an origin without a path (the dashboard lives at /loopx under it)",
      );
    }
  } catch {
    // Unset, or not a URL: already reported (as missing, or by its http(s) URL check).
  }
  const { GITHUB_CLIENT_ID: clientId, GITHUB_CLIENT_SECRET: clientSecret } = raw;
  const sessionSecret = raw.LOOPX_SESSION_SECRET;
  if (!clientId || !clientSecret || !sessionSecret || !origin) return null;
  return { clientId, clientSecret, sessionSecret, publicUrl: origin };
}

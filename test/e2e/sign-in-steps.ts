/**
 * Steps of the sign-in scenarios: the app with a readonly dashboard behind GitHub App user
 * authorization on the sandbox, a second repository only some people can read, and a small
 * browser (a cookie jar that follows redirects between the app and the sandbox's GitHub).
 */
import { githubSignIn, type SignIn } from "../../app/src/dashboard/index.ts";
import { type Harness, startHarness, TICK_WORKFLOW } from "../support/app-harness.ts";

export const SESSION_SECRET = "test-session-secret-0123456789abcdef";

export interface SignInHarness extends Harness {
  clientId: string;
  /** acme/secret: alice maintains it; rita cannot read it. */
  secret: { id: number; fullName: string };
}

/**
 * The SignIn is built once the app listens (its callback URL names the app's port), so the
 * dashboard gets a stand-in that forwards to it.
 */
function forwarding(): { signIn: SignIn; set(real: SignIn): void } {
  let real: SignIn | null = null;
  const target = (): SignIn => {
    if (!real) throw new Error("sign-in used before the app listened");
    return real;
  };
  return {
    signIn: {
      handle: (...a) => target().handle(...a),
      session: (req) => target().session(req),
      refuse: (...a) => target().refuse(...a),
      describe: () => target().describe(),
    },
    set(next) {
      real = next;
    },
  };
}

export async function startSignInHarness(): Promise<SignInHarness> {
  const h = await startHarness();
  const secretRepo = h.sandbox.createRepo("acme/secret", {
    files: { "README.md": "# secret\n", ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
    collaborators: { alice: "maintain" },
    private: true,
  });
  for (const installation of h.sandbox.store.installations.values()) {
    installation.repositoryIds.push(secretRepo.id);
  }
  const app = [...h.sandbox.store.apps.values()][0];
  if (!app) throw new Error("the harness made no app");
  const late = forwarding();
  await h.restart({ dashboard: { mode: "readonly", signIn: late.signIn } });
  late.set(
    githubSignIn(
      {
        clientId: app.clientId,
        clientSecret: h.sandbox.oauth.clientSecret(app.clientId),
        sessionSecret: SESSION_SECRET,
        publicUrl: h.appUrl,
      },
      { apiUrl: h.sandbox.url, serverUrl: h.sandbox.url },
      h.store.sessions,
      // Ask GitHub every time, so a revocation shows on the very next request.
      { cacheMs: 0 },
    ),
  );
  h.sandbox.oauth.deviceInterval = 1;
  return Object.assign(h, {
    clientId: app.clientId,
    secret: { id: secretRepo.id, fullName: "acme/secret" },
  });
}

/** A goal on acme/secret, started by alice (who maintains it). */
export async function startSecretGoal(h: SignInHarness, title: string) {
  const alice = h.as("alice");
  const { data } = await alice.rest.issues.create({ owner: "acme", repo: "secret", title });
  await alice.rest.issues.addLabels({
    owner: "acme",
    repo: "secret",
    issue_number: data.number,
    labels: ["loopx"],
  });
  await h.settle();
  const goal = await h.store.findGoalByIssue(h.secret.id, data.number);
  if (!goal) throw new Error(`no goal for acme/secret#${data.number}`);
  return { number: data.number, goalId: goal.goal.id };
}

export interface Hop {
  url: string;
  status: number;
  location: string | null;
  setCookies: string[];
}

/** A browser: cookies per origin (name=value only), redirects followed by hand and recorded. */
export class Browser {
  readonly jar = new Map<string, Map<string, string>>();
  hops: Hop[] = [];

  cookies(origin: string): Map<string, string> {
    let jar = this.jar.get(origin);
    if (!jar) {
      jar = new Map();
      this.jar.set(origin, jar);
    }
    return jar;
  }

  /** Opens a URL, following redirects unless `follow` is false. */
  async open(start: string, follow = true): Promise<{ url: string; status: number; body: string }> {
    this.hops = [];
    let url = start;
    for (let i = 0; i < 8; i++) {
      const { origin } = new URL(url);
      const jar = this.cookies(origin);
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
      const res = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
      const setCookies = res.headers.getSetCookie();
      for (const line of setCookies) {
        const [pair = ""] = line.split(";");
        const eq = pair.indexOf("=");
        const name = pair.slice(0, eq);
        const value = pair.slice(eq + 1);
        if (value === "" || /Max-Age=0/.test(line)) jar.delete(name);
        else jar.set(name, value);
      }
      const location = res.headers.get("location");
      this.hops.push({ url, status: res.status, location, setCookies });
      if (!follow || res.status < 300 || res.status >= 400 || !location) {
        return { url, status: res.status, body: await res.text() };
      }
      await res.body?.cancel();
      url = new URL(location, url).toString();
    }
    throw new Error(`more than 8 redirects from ${start}`);
  }
}

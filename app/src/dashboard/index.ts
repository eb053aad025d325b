export {
  createDashboard,
  DASHBOARD_PATH,
  type DashboardMode,
  type DashboardOptions,
} from "./create-dashboard.ts";
export type { DashboardExtension, DashboardReply } from "./dashboard-extension.ts";
export { html, type SafeHtml } from "./escape-html.ts";
export { githubSignIn } from "./github-sign-in.ts";
export { githubUserAuth } from "./github-user-auth.ts";
export { cookieSealer } from "./session-cookie.ts";
export { createSignIn, type SignIn, type SignInOptions, type Viewer } from "./sign-in.ts";

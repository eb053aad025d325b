export {
  createDashboard,
  DASHBOARD_PATH,
  type DashboardMode,
  type DashboardOptions,
  type Viewer,
} from "./create-dashboard.ts";
export type { DemoOwner } from "./demo-actions.ts";

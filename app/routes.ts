import { flatRoutes } from "@remix-run/fs-routes";
import type { RouteConfig } from "@remix-run/route-config";

export default flatRoutes({
  ignoredRouteFiles: ["**/*.css.ts", "**/*.test.ts", "**/*.test.tsx", "**/*.server.ts"],
}) satisfies RouteConfig;

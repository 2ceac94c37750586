import { cookiesFrom, postForm, startServer, type RunningServer } from "./server";

export const ADMIN = { email: "admin@parrainly.test", password: "integration-admin-passphrase" };

/** The built server with an admin account created from ADMIN_EMAIL / ADMIN_PASSWORD at start. */
export function startServerWithAdmin(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env });
}

/** Signs in through the real login form; returns the Cookie header to send afterwards. */
export async function signInAsAdmin(server: RunningServer, credentials = ADMIN): Promise<string> {
  const res = await postForm(`${server.url}/admin/login`, {
    email: credentials.email,
    password: credentials.password,
    redirectTo: "/admin",
  });
  if (res.status !== 303) throw new Error(`admin sign-in failed: ${res.status} ${await res.text()}`);
  return cookiesFrom(res);
}

/** Signs in as the admin without keeping the sign-in toast, so each page shows the toast of the action under test. */
export async function signInQuietly(server: RunningServer): Promise<string> {
  return (await signInAsAdmin(server))
    .split("; ")
    .filter((c) => !c.startsWith("toast="))
    .join("; ");
}

/** The page a redirect leads to, fetched with `cookie` and the cookies the redirect set (its toast): its HTML. */
export async function followRedirect(server: RunningServer, res: Response, cookie: string): Promise<string> {
  const page = await fetch(new URL(res.headers.get("location")!, server.url), {
    headers: {
      Cookie: `${cookie}; ${res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ")}`,
    },
  });
  return page.text();
}

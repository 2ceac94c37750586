/**
 * React picks its development or production build from NODE_ENV when it is first loaded. The
 * production server build always loads the production one, whatever NODE_ENV says: `npm start`
 * without NODE_ENV rendered with React's development build (slower, stack traces in error bodies).
 * NODE_ENV is put back afterwards: the app's own rules about it (SESSION_SECRET required in
 * production) stay the operator's choice.
 */
export async function withProductionReact<T>(load: () => Promise<T>): Promise<T> {
  const asSet = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    return await load();
  } finally {
    if (asSet === undefined) Reflect.deleteProperty(process.env, "NODE_ENV");
    else process.env.NODE_ENV = asSet;
  }
}

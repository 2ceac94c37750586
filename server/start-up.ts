/**
 * Runs what must hold before the port opens (configuration, database). When it fails, the operator
 * gets the reason in a line or two, without a stack (the app words it: which file, what is wrong,
 * what to do), and the process exits 1.
 */
export async function startOrExplain<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    console.error(`Parrainly cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

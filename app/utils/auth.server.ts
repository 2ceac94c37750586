/**
 * Who is signed in. The admin issue implements sessions (cookie + sessions table) behind these
 * functions; until then nobody is signed in. Public routes only ever call getOptionalAdmin.
 */
export interface AdminUser {
  id: number;
  email: string;
}

export async function getOptionalAdmin(_request: Request): Promise<AdminUser | null> {
  return null;
}

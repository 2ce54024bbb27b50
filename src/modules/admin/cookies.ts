/** Cookies of the editor (API.md §23.2). */
export const SESSION_COOKIE = 'calendar_session';
export const PRE_SESSION_COOKIE = 'calendar_presession';

/** The value of cookie `name` in a Cookie header, undefined when absent. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** `HttpOnly; SameSite=Lax; Path=/`, `Secure` on https (API.md §23.2); `maxAge` 0 clears it. */
export function cookie(name: string, value: string, secure: boolean, maxAge?: number): string {
  return [
    `${name}=${value}`,
    'HttpOnly',
    'SameSite=Lax',
    'Path=/',
    ...(secure ? ['Secure'] : []),
    ...(maxAge !== undefined ? [`Max-Age=${maxAge}`] : []),
  ].join('; ');
}

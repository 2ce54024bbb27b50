import { can, type Capability, type Role } from './capabilities.js';

/** Who is making the request: a user, or nobody (anonymous). */
export interface Caller {
  readonly userId: number;
  readonly login: string;
  readonly role: Role;
}

export function callerCan(caller: Caller | null, capability: Capability): boolean {
  return can(caller?.role, capability);
}

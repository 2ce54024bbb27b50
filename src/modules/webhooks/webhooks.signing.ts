import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret (API.md §22): `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** A message id, the same on every attempt of one delivery: receivers dedupe by it. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/**
 * The `webhook-signature` header of Standard Webhooks 1.0: `v1,` + base64 of HMAC-SHA256 keyed by
 * the secret's decoded bytes over `{id}.{timestamp}.{body}`, the body exactly as sent.
 */
export function signature(secret: string, msgId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
}

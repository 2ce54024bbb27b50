import { createHash, randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 24;

/** A new application password: 24 random characters (~138 bits), shown once, never stored. */
export function generateApplicationPassword(): string {
  let password = '';
  for (let i = 0; i < LENGTH; i++) password += ALPHABET[randomInt(ALPHABET.length)];
  return password;
}

/**
 * Application passwords are long random secrets, so a single fast hash is enough to make a stolen
 * table useless while keeping verification to a microsecond (no slow KDF on every request).
 * Spaces are ignored, as WordPress does for its grouped application passwords.
 */
export function hashApplicationPassword(password: string): string {
  return createHash('sha256').update(password.replace(/\s+/g, ''), 'utf8').digest('hex');
}

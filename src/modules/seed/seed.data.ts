/** Deterministic pseudo-random data for the seed command (same seed, same calendar). */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }

  /** Mulberry32: small, fast and good enough for fixtures. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

/** Words of titles and descriptions; the bench searches for some of them. */
export const WORDS = [
  'concert', 'jazz', 'market', 'festival', 'workshop', 'lecture', 'garden', 'cinema', 'theatre', 'dance', 'poetry', 'family',
  'science', 'history', 'harbour', 'lantern', 'autumn', 'winter', 'spring', 'summer', 'river', 'museum', 'choir', 'vintage',
  'craft', 'bicycle', 'photography', 'opera', 'comedy', 'chess', 'yoga', 'wine', 'bakery', 'robotics', 'astronomy', 'folk',
];

export const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'America/Los_Angeles'];

export const CITIES = [
  { city: 'Paris', country: 'France', lat: 48.8566, lng: 2.3522 },
  { city: 'Springfield', country: 'United States', lat: 39.7817, lng: -89.6501 },
  { city: 'Tokyo', country: 'Japan', lat: 35.6762, lng: 139.6503 },
  { city: 'Sydney', country: 'Australia', lat: -33.8688, lng: 151.2093 },
  { city: 'Berlin', country: 'Germany', lat: 52.52, lng: 13.405 },
  { city: 'Budapest', country: 'Hungary', lat: 47.4979, lng: 19.0402 },
];

export function sentence(random: Random, words: number): string {
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(random.pick(WORDS));
  const text = parts.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** About 1 KB of HTML: a few paragraphs and a list. */
export function description(random: Random): string {
  const paragraphs = [0, 1, 2].map(() => `<p>${sentence(random, 28)}.</p>`);
  const items = [0, 1, 2, 3].map(() => `<li>${sentence(random, 5)}</li>`);
  return `${paragraphs.join('\n')}\n<ul>${items.join('')}</ul>\n<p><strong>${sentence(random, 10)}.</strong></p>`;
}

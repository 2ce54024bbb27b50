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
  'concert',
  'jazz',
  'market',
  'festival',
  'workshop',
  'lecture',
  'garden',
  'cinema',
  'theatre',
  'dance',
  'poetry',
  'family',
  'science',
  'history',
  'harbour',
  'lantern',
  'autumn',
  'winter',
  'spring',
  'summer',
  'river',
  'museum',
  'choir',
  'vintage',
  'craft',
  'bicycle',
  'photography',
  'opera',
  'comedy',
  'chess',
  'yoga',
  'wine',
  'bakery',
  'robotics',
  'astronomy',
  'folk',
];

export const ZONES = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'Asia/Tokyo',
  'Australia/Sydney',
  'America/Los_Angeles',
];

export const CITIES = [
  { city: 'Paris', country: 'France', lat: 48.8566, lng: 2.3522 },
  { city: 'Springfield', country: 'United States', lat: 39.7817, lng: -89.6501 },
  { city: 'Tokyo', country: 'Japan', lat: 35.6762, lng: 139.6503 },
  { city: 'Sydney', country: 'Australia', lat: -33.8688, lng: 151.2093 },
  { city: 'Berlin', country: 'Germany', lat: 52.52, lng: 13.405 },
  { city: 'Budapest', country: 'Hungary', lat: 47.4979, lng: 19.0402 },
];

const SYLLABLES = [
  'ba',
  'ce',
  'di',
  'fo',
  'gu',
  'ha',
  'je',
  'ki',
  'lo',
  'mu',
  'na',
  'pe',
  'ri',
  'so',
  'tu',
  'va',
  'we',
  'xi',
  'yo',
  'za',
];

/**
 * A few thousand pronounceable filler words, so that descriptions have a realistic vocabulary and a
 * searched theme word is selective (it appears in titles and now and then in descriptions).
 */
const FILLER = (() => {
  const words: string[] = [];
  for (const a of SYLLABLES)
    for (const b of SYLLABLES) for (const c of ['', ...SYLLABLES.slice(0, 7)]) words.push(`${a}${b}${c}`);
  return words;
})();

function words(random: Random, count: number, themeChance: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(random.chance(themeChance) ? random.pick(WORDS) : random.pick(FILLER));
  const text = parts.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A title-like run of words: one theme word among filler. */
export function sentence(random: Random, count: number): string {
  return `${random.pick(WORDS).replace(/^./, (c) => c.toUpperCase())} ${words(random, Math.max(0, count - 1), 0).toLowerCase()}`.trim();
}

/** About 1 KB of HTML: a few paragraphs and a list, with theme words now and then. */
export function description(random: Random): string {
  const paragraphs = [0, 1, 2].map(() => `<p>${words(random, 28, 0.01)}.</p>`);
  const items = [0, 1, 2, 3].map(() => `<li>${words(random, 5, 0.01)}</li>`);
  return `${paragraphs.join('\n')}\n<ul>${items.join('')}</ul>\n<p><strong>${words(random, 10, 0.01)}.</strong></p>`;
}

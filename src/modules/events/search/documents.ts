/** One version of an event's text; a translation may leave fields to the original (null). */
interface SearchableText {
  title: string | null;
  excerpt: string | null;
  description: string | null;
}

const ASCII = /^\p{ASCII}*$/u;

/**
 * An event's search document: every version of its text in one body (migration 0006), and whether
 * the body alone answers a search word (migration 0007): one version, no password, plain ASCII.
 */
export function searchDocument(versions: readonly SearchableText[], password: string): { body: string; exact: number } {
  const body = versions
    .flatMap((text) => [text.title, text.excerpt, text.description])
    .filter((part) => part)
    .join(' ');
  return { body, exact: password === '' && versions.length === 1 && ASCII.test(body) ? 1 : 0 };
}

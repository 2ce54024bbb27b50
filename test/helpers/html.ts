import { HtmlValidate } from 'html-validate';

const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });

/** Every error html-validate reports for a page (API.md §23.1: none allowed), as readable lines. */
export async function htmlProblems(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) =>
    result.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}: ${message.message}`),
  );
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeHtml } from '../../src/domain/html.js';
import { htmlAsText } from '../../src/modules/ical/ical.render.js';

describe('event descriptions as iCalendar text (API.md §19.1)', () => {
  it('paragraphs become blank lines, <br> and block ends line breaks, tags go and entities are decoded', () => {
    const stored = sanitizeHtml(
      '<p>Tom &amp; Jerry &lt;live&gt;, "quoted"<br/>next <a href="https://x.org/?a=1&amp;b=2" title="a > b">line</a></p>\n<ul><li>one</li><li>two</li></ul><p>&amp;lt; stays text</p>',
    );
    assert.equal(htmlAsText(stored), 'Tom & Jerry <live>, "quoted"\nnext line\n\none\ntwo\n&lt; stays text');
  });

  it('plain text is read as paragraphs, as the JSON representation shows it', () => {
    assert.equal(htmlAsText('First\nsecond\n\nThird'), 'First\nsecond\n\nThird');
    assert.equal(htmlAsText(''), '');
  });
});

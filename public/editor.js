// The editor's only script, an enhancement: every form works without it (API.md §23.2). It adds a
// search box over the venue and organizer pickers that reads matching items from /admin/lookup/,
// with the editor's own session, so pickers stay usable when there are more items than listed.
'use strict';

function enhance(select) {
  const type = select.dataset.lookup;
  const search = document.createElement('input');
  search.type = 'search';
  search.placeholder = 'Type to search…';
  search.setAttribute('aria-label', 'Search ' + type);
  search.className = 'lookup';
  select.before(search);
  let timer;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const term = search.value.trim();
      const root = location.pathname.replace(/\/admin\/.*$/, '/admin/');
      const response = await fetch(
        root + 'lookup/' + encodeURIComponent(type) + '?search=' + encodeURIComponent(term),
        {
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
        },
      );
      if (!response.ok) return;
      const { items } = await response.json();
      const known = new Set(Array.from(select.options, (option) => option.value));
      for (const item of items) {
        if (!known.has(item.id)) select.add(new Option(item.name, item.id));
      }
      const wanted = new Set(items.map((item) => item.id));
      for (const option of select.options) {
        option.hidden = term !== '' && option.value !== '' && !option.selected && !wanted.has(option.value);
      }
    }, 200);
  });
}

document.querySelectorAll('select[data-lookup]').forEach(enhance);

// The theme switch, on sites whose readers may choose: a button that turns the page light or
// dark and keeps the choice for the next pages (theme.js applies it before they show).
'use strict';
(() => {
  const root = document.documentElement;
  const header = document.querySelector('header.top');
  if (!root.hasAttribute('data-toggle') || !header) return;
  const dark = () => root.dataset.mode === 'dark' ||
    (root.dataset.mode === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'theme-switch';
  const label = () => {
    button.textContent = dark() ? '☀' : '☾';
    button.setAttribute('aria-label', dark() ? 'Switch to the light theme' : 'Switch to the dark theme');
  };
  button.addEventListener('click', () => {
    root.dataset.mode = dark() ? 'light' : 'dark';
    try { localStorage.setItem('bindery-theme', root.dataset.mode); } catch (e) { /* not kept */ }
    label();
  });
  label();
  header.append(button);
})();

// Search as you type. The search box of every page works without this script (it submits to the
// results page); with it, results of the typed query show below the box as a listbox (the ARIA
// combobox pattern): arrows move through them, Enter opens the one chosen, Escape closes them,
// and a live region says how many there are. Results are inserted as text, never as markup.
(() => {
  const form = document.querySelector('form.search[data-suggest]');
  if (!form) return;
  const input = form.querySelector('input[type=search]');
  const status = form.querySelector('[role=status]');
  const list = document.createElement('ul');
  list.id = 'search-suggestions';
  list.className = 'suggestions';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'Search results');
  list.hidden = true;
  form.append(list);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');

  const maxLength = Number(input.getAttribute('maxlength')) || 512;
  let timer = 0;
  let pending = null; // the AbortController of the request in flight
  let active = -1; // the option chosen with the arrows

  const options = () => [...list.children];

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function choose(index) {
    const all = options();
    if (all.length === 0) return;
    active = (index + all.length) % all.length;
    all.forEach((o, i) => o.setAttribute('aria-selected', String(i === active)));
    input.setAttribute('aria-activedescendant', all[active].id);
    all[active].scrollIntoView({ block: 'nearest' });
  }

  function option(result, i) {
    const li = document.createElement('li');
    li.id = 'search-suggestion-' + i;
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', 'false');
    const a = document.createElement('a');
    a.href = result.url;
    a.tabIndex = -1;
    a.textContent = result.title;
    li.append(a);
    if (result.ancestors) {
      const where = document.createElement('span');
      where.className = 'ancestors';
      where.textContent = result.ancestors;
      li.append(where);
    }
    return li;
  }

  function show(results, problem) {
    list.replaceChildren(...results.map(option));
    active = -1;
    input.removeAttribute('aria-activedescendant');
    list.hidden = results.length === 0;
    input.setAttribute('aria-expanded', String(!list.hidden));
    status.textContent = problem || (results.length === 1 ? '1 result' : results.length + ' results');
  }

  async function suggest() {
    const q = input.value.trim().slice(0, maxLength);
    if (pending) pending.abort();
    if (q.length < 2) {
      close();
      status.textContent = '';
      return;
    }
    pending = new AbortController();
    try {
      const res = await fetch(form.dataset.suggest + '?q=' + encodeURIComponent(q), {
        headers: { Accept: 'application/json' },
        signal: pending.signal,
      });
      const body = await res.json();
      if (res.ok) show(body.results || []);
      else show([], (body.error && body.error.message) || 'Search failed');
    } catch (e) {
      if (e.name !== 'AbortError') show([], 'Search failed');
    }
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(suggest, 150);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (list.hidden) return;
      e.preventDefault();
      choose(active + (e.key === 'ArrowDown' ? 1 : -1));
    } else if (e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      options()[active].querySelector('a').click();
    } else if (e.key === 'Escape' && !list.hidden) {
      e.preventDefault();
      close();
    }
  });
  form.addEventListener('focusout', (e) => {
    if (!form.contains(e.relatedTarget)) close();
  });
})();

// Tabs of pages (htmlpage writes the WAI-ARIA tabs pattern with the first tab selected): a click,
// Enter or Space selects a tab and shows its panel; the arrow keys, Home and End move to another
// tab of the list and select it. A link to what a hidden panel holds (a search result, the
// outline) selects the tabs that show it.
(() => {
  const reveal = () => {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!target) return;
    for (let panel = target.closest('[role=tabpanel]'); panel; panel = panel.parentElement.closest('[role=tabpanel]')) {
      if (panel.hidden) document.getElementById(panel.getAttribute('aria-labelledby')).click();
    }
    target.scrollIntoView();
  };
  addEventListener('hashchange', reveal);
  addEventListener('DOMContentLoaded', reveal);
})();
(() => {
  for (const list of document.querySelectorAll('.tabs > [role=tablist]')) {
    const tabs = [...list.querySelectorAll('[role=tab]')];
    const select = (tab) => {
      for (const t of tabs) {
        const on = t === tab;
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
        document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
      }
    };
    list.addEventListener('click', (e) => {
      const tab = e.target.closest('[role=tab]');
      if (tab) select(tab);
    });
    list.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(document.activeElement);
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (i < 0 || to === undefined) return;
      e.preventDefault();
      const tab = tabs[(to + tabs.length) % tabs.length];
      select(tab);
      tab.focus();
    });
  }
})();

// A button on each code block of a page that copies its code (without the line numbers, which
// the style sheet draws).
(() => {
  if (!navigator.clipboard) return;
  for (const figure of document.querySelectorAll('figure.code')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(figure.querySelector('code').textContent.replace(/\n$/, ''));
        button.textContent = 'Copied';
      } catch (e) {
        button.textContent = 'Not copied';
      }
      setTimeout(() => { button.textContent = 'Copy'; }, 2000);
    });
    figure.append(button);
  }
})();

// Clicks on links leading out of the site, for the site's insights: reported to the page's own
// URL + /~click with navigator.sendBeacon (same origin, no cookie, the link's href unchanged and
// the navigation not delayed). Without this script links work the same and are not counted.
(() => {
  const endpoint = document.body.dataset.clicks;
  const site = document.body.dataset.site;
  if (!endpoint || !site || !navigator.sendBeacon) return;
  const positions = [['.announcement', 'announcement'], ['header.top', 'header'], ['nav.sidebar', 'sidebar'],
    ['footer.site-footer', 'footer'], ['main', 'content']];
  const report = (event) => {
    if (event.type === 'auxclick' && event.button !== 1) return;
    const a = event.target instanceof Element && event.target.closest('a[href]');
    if (!a) return;
    const url = new URL(a.href, location.href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    if (url.origin === location.origin && (url.pathname + '/').startsWith(site)) return; // a page of the site
    const at = positions.find(([selector]) => a.closest(selector));
    navigator.sendBeacon(endpoint, new URLSearchParams({ href: url.href, position: at ? at[1] : 'content' }));
  };
  document.addEventListener('click', report);
  document.addEventListener('auxclick', report);
})();

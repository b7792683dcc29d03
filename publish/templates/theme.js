// Applies the theme the reader chose with the theme switch (site.js), before the page is shown:
// this script blocks in <head>, so the page never flashes in the other theme.
'use strict';
try {
  const mode = localStorage.getItem('bindery-theme');
  if (mode === 'light' || mode === 'dark') document.documentElement.dataset.mode = mode;
} catch (e) {
  // storage refused (privacy settings): the site's theme applies
}

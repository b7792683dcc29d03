// @ts-check
import {themes as prismThemes} from 'prism-react-renderer';

/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'Acme',
  tagline: 'Docs for the Acme server',
  url: 'https://docs.acme.test',
  baseUrl: '/',
  presets: [
    [
      'classic',
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        docs: {
          sidebarPath: './sidebars.js',
          routeBasePath: '/docs',
        },
        blog: {showReadingTime: true},
      }),
    ],
  ],
  themeConfig: {prism: {theme: prismThemes.github}},
};

export default config;

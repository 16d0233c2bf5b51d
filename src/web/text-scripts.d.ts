/** The browser's scripts of each language's texts, by locale (vite.config.ts, `textScripts`). */
declare module 'virtual:vitrina/text-scripts' {
  const scripts: Partial<Record<import('../contract/locale.ts').Locale, string[]>>;
  export default scripts;
}

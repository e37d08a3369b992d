/**
 * Build plugin: a signed-in visit to the console starts its downloads from the page's first
 * script instead of waiting for the entry module to run (which takes React's parse and start
 * first). index.html gets a small inline script that, when the staff token cookie is there and
 * the hash route is not a public page:
 * - adds `<link rel="modulepreload">` for the console chunk and the chunks it imports (the entry's
 *   own imports are preloaded by Vite already), and, when the route opens a resource's list
 *   (`#/sysQuestion`, `#/sysQuestion:销售`), for the list screens' chunks too (the console's
 *   frame does not import them, so they would otherwise wait for it);
 * - asks for the user's info and menus (`api/info`, `api/menus/build`) with the token, and leaves
 *   the pending answers in `window.__consoleEarly` for the console to adopt
 *   (src/web/common/early.ts). Any answer it cannot use is asked for again the usual way.
 * - when the route opens a resource, asks for its dictionaries and, when the list opens on its
 *   default first page (the plain `#/name`, nothing remembered in react-admin's store: the
 *   conditions of staff/prefetchScreen.ts), for that page, by the URLs staff/firstRequests.ts
 *   writes; the console takes them by URL (`__consoleEarly.gets`).
 * These requests are made before the preloads are added: the browser opens at most six
 * connections to the server, and behind some 60 script files the answers arrived hundreds of
 * milliseconds later than the scripts (the list's page at about the time the code had run,
 * which then waited for it). The list's page comes last, after the preloads: whether it is the
 * default page needs the first read of localStorage, which in a new renderer waits for the
 * browser to load the storage (30 ms and more on a busy machine), and the script downloads need
 * not wait for that; behind the 17 script files a list visit loads now its answer still comes
 * long before the code has run.
 * Build only: the dev server keeps its plain page.
 */
import type { IndexHtmlTransformContext, Plugin, ResolvedConfig } from 'vite';
import { DEALER_PATHS, PUBLIC_PATHS } from '../../src/web/route.ts';
import { STORE_OWNER_KEY, TOKEN_COOKIE } from '../../src/web/common/token.ts';
import { resources } from '../../src/generated/resources.ts';
import { firstRequests } from '../../src/web/staff/firstRequests.ts';

type OutputBundle = NonNullable<IndexHtmlTransformContext['bundle']>;
type OutputChunk = NonNullable<IndexHtmlTransformContext['chunk']>;

/** Modules whose chunks (and their imports) the console needs before its first screen. */
const CONSOLE_MODULES = [
  'src/web/staff/StaffApp.tsx',
  'src/web/common/session.ts',
  'src/web/staff/shell/menus.ts',
  'src/web/staff/prefetchScreen.ts',
];

/** The list screens: preloaded as well when the route's first segment names a resource. */
const LIST_MODULES = ['src/web/staff/resourceScreens.tsx'];

/** The early requests the console adopts (keys of window.__consoleEarly). */
export const EARLY_REQUESTS = { info: '/api/info', menus: '/api/menus/build' } as const;

/** The chunk holding a module (its own chunk, or a shared one it was merged into). */
function chunkOf(bundle: OutputBundle, moduleSuffix: string): OutputChunk | undefined {
  for (const item of Object.values(bundle)) {
    if (item.type === 'chunk' && item.moduleIds.some((id) => id.replace(/\\/g, '/').endsWith(moduleSuffix))) return item;
  }
  return undefined;
}

/** A chunk's file and the files of its static imports, transitively. */
function staticFiles(bundle: OutputBundle, fileName: string, into: Set<string>): Set<string> {
  if (into.has(fileName)) return into;
  const chunk = bundle[fileName];
  if (!chunk || chunk.type !== 'chunk') return into;
  into.add(fileName);
  for (const imported of chunk.imports) staticFiles(bundle, imported, into);
  return into;
}

/** What the early script asks for when the route opens a resource. */
export interface EarlyLists {
  /** the list screens' chunks */
  files: string[];
  resources: string[];
  /** per resource: the default first page's URL and the dictionaries' URLs */
  first?: Record<string, [string, string[]]>;
  /** the localStorage key naming the user whose react-admin store is in use (common/token.ts) */
  ownerKey?: string;
}

/**
 * Whether react-admin's store remembers list parameters other than the defaults, as
 * prefetchScreen's rememberedListParams decides (any doubt counts as remembered).
 */
const REMEMBERED = `var remembered=function(n){try{var o=localStorage.getItem(OWNER);
var raw=localStorage.getItem('RaStore'+(o?'staff:'+o:'staff')+'.'+n+'.listParams');if(!raw)return false;
var p=JSON.parse(raw);if(!p||!p.filter)return false;
return Object.keys(p.filter).length>0||p.order!=null||p.page!==1||p.perPage!=null||p.sort!=null;}catch(x){return true;}};`;

/** The inline script (plain ES5-style code: it runs before anything else, in any browser the console supports). */
export function earlyStartScript(
  files: string[],
  publicPaths: string[],
  tokenCookie: string,
  lists: EarlyLists = { files: [], resources: [] },
): string {
  return `(function(){try{
var m=document.cookie.match(/(?:^|;\\s*)${tokenCookie}=([^;]*)/);if(!m||!m[1])return;
var path=(location.hash.replace(/^#/,'')||'/').split('?')[0]||'/';if(path.charAt(0)!=='/')path='/'+path;
if(${JSON.stringify(publicPaths)}.indexOf(path)>=0)return;
var token=decodeURIComponent(m[1]);
var h={Accept:'application/json',Authorization:'Bearer '+token};var e={token:token};
${Object.entries(EARLY_REQUESTS)
  .map(([key, url]) => `e.${key}=fetch(${JSON.stringify(url)},{headers:h,credentials:'same-origin'});e.${key}.catch(function(){});`)
  .join('\n')}
window.__consoleEarly=e;
var f0=path.split('/')[1].split(':')[0];
var first=${JSON.stringify(lists.first ?? {})};
if(Object.prototype.hasOwnProperty.call(first,f0)){
${REMEMBERED.replace('OWNER', JSON.stringify(lists.ownerKey ?? ''))}
e.gets={};var get=function(u){e.gets[u]=fetch(u,{headers:h,credentials:'same-origin'});e.gets[u].catch(function(){});};
first[f0][1].forEach(get);}
${JSON.stringify(files)}.concat(${JSON.stringify(lists.resources)}.indexOf(f0)>=0?${JSON.stringify(lists.files)}:[]).forEach(function(f){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=f;document.head.appendChild(l);});
if(e.gets&&path==='/'+f0&&location.hash.indexOf('?')<0&&!remembered(f0))get(first[f0][0]);
}catch(x){}})();`;
}

export function consoleEarlyStart(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'console-early-start',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const entry = ctx.chunk;
        const already = entry ? staticFiles(bundle, entry.fileName, new Set()) : new Set<string>();
        const files = new Set<string>();
        for (const module of CONSOLE_MODULES) {
          const chunk = chunkOf(bundle, module);
          if (!chunk) throw new Error(`console-early-start: no chunk for ${module}`);
          staticFiles(bundle, chunk.fileName, files);
        }
        const listFiles = new Set<string>();
        for (const module of LIST_MODULES) {
          const chunk = chunkOf(bundle, module);
          if (!chunk) throw new Error(`console-early-start: no chunk for ${module}`);
          staticFiles(bundle, chunk.fileName, listFiles);
        }
        const preload = [...files].filter((f) => !already.has(f)).map((f) => `${config.base}${f}`);
        const listPreload = [...listFiles].filter((f) => !already.has(f) && !files.has(f)).map((f) => `${config.base}${f}`);
        const script = earlyStartScript(preload, [...PUBLIC_PATHS, ...DEALER_PATHS], TOKEN_COOKIE, {
          files: listPreload,
          resources: resources.map((r) => r.name),
          first: firstRequests(resources),
          ownerKey: STORE_OWNER_KEY,
        });
        return { html, tags: [{ tag: 'script', children: script, injectTo: 'head' }] };
      },
    },
  };
}

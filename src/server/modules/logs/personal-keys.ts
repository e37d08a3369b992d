/**
 * Which parameter names of a route hold personal data, for the operation log to mask them by
 * their kind (the log is no copy of personal data, whoever reads it):
 * - everywhere: the `x-mask` properties of every schema whose name is specific enough to mean
 *   the same everywhere (mobile, card, idno, bankCard, birthday, email, addresses, customer
 *   names...), and the hand-written areas' own (users' phone and e-mail, dealer members'
 *   surname and ID number, applicants' and staff's);
 * - on a resource's own routes (its base path and below): also its generic names (`name`,
 *   `username`) when the schema marks them, and the properties titled as a person's name
 *   (the roster's 姓名), which are names of people there and of roles or menus elsewhere.
 */
import type { MaskKind, ResourceSpec } from '../../../shared/resource-spec.ts';
import type { PersonalKeys } from './request-info.ts';

/** Names that mean different things in different areas: personal only on their resource's routes. */
const GENERIC_NAMES = new Set(['name', 'username', 'title', 'address', 'card']);
/** Titles of properties that hold a person's name. */
const PERSON_NAME_TITLE = /^(姓名|客户姓名|客户名称|联系人|真实姓名)$/;

/** Hand-written areas' personal parameters (users, dealer members and customers, applicants, chat). */
const HAND_WRITTEN: Array<[string, MaskKind]> = [
  ['phone', 'phone'],
  ['mobile', 'phone'],
  ['email', 'email'],
  ['idno', 'id'],
  ['idCard', 'id'],
  ['idNumber', 'id'],
  ['bankCard', 'bankCard'],
  ['birthday', 'date'],
  ['surname', 'name'],
  ['realName', 'name'],
  ['customerName', 'name'],
  ['khName', 'name'],
  ['khMobile', 'phone'],
  ['zmrPhone', 'phone'],
];

export interface RoutePersonalKeys {
  /** the keys for a route (its matched URL pattern) */
  forRoute(url: string): PersonalKeys;
}

export function personalKeysOf(specs: ResourceSpec[]): RoutePersonalKeys {
  const global = new Map<string, MaskKind>(HAND_WRITTEN);
  const own: Array<{ prefix: string; keys: Map<string, MaskKind> }> = [];
  for (const spec of specs) {
    const keys = new Map<string, MaskKind>();
    for (const f of spec.fields) {
      const kind: MaskKind | undefined = f.mask ?? (f.type === 'string' && PERSON_NAME_TITLE.test(f.title) ? 'name' : undefined);
      if (!kind) continue;
      if (GENERIC_NAMES.has(f.name)) keys.set(f.name, kind);
      else if (f.mask) global.set(f.name, kind);
      else keys.set(f.name, kind);
    }
    if (keys.size) own.push({ prefix: `/${spec.path}`, keys });
  }
  // the longest prefix first, so api/staffunWork is not taken for api/staff
  own.sort((a, b) => b.prefix.length - a.prefix.length);
  const cache = new Map<string, PersonalKeys>();
  return {
    forRoute(url) {
      let keys = cache.get(url);
      if (keys) return keys;
      const match = own.find((o) => url === o.prefix || url.startsWith(`${o.prefix}/`));
      keys = match ? new Map([...global, ...match.keys]) : global;
      if (cache.size < 5000) cache.set(url, keys);
      return keys;
    },
  };
}

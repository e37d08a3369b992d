/**
 * The applicant screen's 详情 page lists an applicant's education, training and work entries:
 * its own key (staffun:list) opens those lists, every resource owned by applicants
 * (`ownedByApplicant`) by construction, with personal data masked to a caller without the entry
 * resource's `:sensitive` key. A caller holding neither key is still refused. SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { readAccess, permissionKey } from '../../src/shared/resource-spec.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import type { Created, Page } from '../support/answers.ts';

const owned = resources.filter((r) => r.ownedByApplicant);
const applicant = resources.find((r) => r.name === 'applicant')!;
const PASSWORD = 'Entries_pass1';

describe('read access of resources owned by applicants', () => {
  it('names the applicant screen key for each of them', () => {
    expect(owned.map((r) => r.name)).toEqual(expect.arrayContaining(['staffunEducation', 'staffunPx', 'staffunWork']));
    for (const spec of owned) expect(readAccess(spec, resources).keys).toContain(permissionKey(applicant, 'list'));
  });
});

describe.each(testApps())('an applicant’s entries read with the applicant screen key on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let stranger: string;
  const applicantOf: Record<string, number> = {};

  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    for (const spec of owned) {
      const body = await sampleBody(t.app, admin, resources, spec, 0);
      const res = await t.app.inject({
        method: 'POST',
        url: `/${spec.path}`,
        headers: { ...bearer(admin), submit_id: submitId() },
        payload: body,
      });
      expect(res.statusCode, `${spec.name}: ${res.body}`).toBe(201);
      applicantOf[spec.name] = Number(body[spec.ownedByApplicant!]);
      expect(res.json<Created>().id).toBeGreaterThan(0);
    }
    await createStaff(t.app, { username: 'applicant_reader', password: PASSWORD, permissions: ['staffun:list'], dataScope: '全部' });
    await createStaff(t.app, { username: 'no_applicants', password: PASSWORD, permissions: ['staff:list'], dataScope: '全部' });
    reader = await loginAs(t.app, 'applicant_reader', PASSWORD);
    stranger = await loginAs(t.app, 'no_applicants', PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('lists each applicant’s entries, masked, to staffun:list and refuses a caller without it', async () => {
    let masked = 0;
    for (const spec of owned) {
      const url = `/${spec.path}?${spec.ownedByApplicant}=${applicantOf[spec.name]}&page=0&size=10`;
      const read = await get(reader, url);
      expect(read.statusCode, `${spec.name}: ${read.body}`).toBe(200);
      const page = read.json<Page>();
      expect(page.totalElements, spec.name).toBe(1);
      const full = (await get(admin, url)).json<Page>().content[0];
      for (const field of spec.fields.filter((f) => f.mask)) {
        const value = full[field.name];
        if (typeof value !== 'string' || !value) continue;
        expect(page.content[0][field.name], `${spec.name}.${field.name} is masked`).not.toBe(value);
        masked++;
      }
      expect((await get(stranger, url)).statusCode, spec.name).toBe(403);
    }
    // the entries carry personal data (the referee's phone, the ID number): some of it was checked
    expect(masked).toBeGreaterThan(0);
  });
});
